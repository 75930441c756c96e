/**
 * The video quality demo's stream and its fault switches, shared by the generator (tools/images),
 * the web server that serves the segments and the page's player (docs/decisions/013-video-demo.md).
 * No TypeBox: the page imports it at run time.
 */

/** URL folder of the stream; the web serves `build/client/video` there. */
export const VIDEO_BASE_PATH = '/video';
/** The DASH manifest (MPD). */
export const VIDEO_MANIFEST_URL = `${VIDEO_BASE_PATH}/stream.mpd`;
/** Seconds per media segment (one VP8 group of pictures, one WebM cluster). */
export const VIDEO_SEGMENT_SECONDS = 2;

/** One rendition of the ladder; its id is the folder of its segments. */
export interface VideoRendition {
  id: string;
  width: number;
  height: number;
  /** Target bitrate of the encoder, bits per second. */
  targetBitrate: number;
}

export const VIDEO_RENDITIONS: readonly VideoRendition[] = [
  { id: '360p', width: 640, height: 360, targetBitrate: 350_000 },
  { id: '720p', width: 1280, height: 720, targetBitrate: 1_200_000 },
];

/**
 * Faults a page can ask for (`?video_fault=<name>`), each made for real on the network or in the
 * player, each moving one metric:
 * - `slow-start`: the web server holds the first media segment of every rendition → startup time;
 * - `stall`: the web server holds a segment in the middle longer than the player buffers ahead
 *   → rebuffering;
 * - `cap-bitrate`: the player may not pick a rendition above the lowest → average bitrate;
 * - `segment-404`: the web server answers 404 for a segment in the middle → playback failure.
 */
export const VIDEO_FAULTS = ['slow-start', 'stall', 'cap-bitrate', 'segment-404'] as const;
export type VideoFault = (typeof VIDEO_FAULTS)[number];
/** Query parameter of the page, and of the segment requests the player makes under a fault. */
export const VIDEO_FAULT_PARAM = 'video_fault';

/** What the web server does to a segment request under a fault. */
export const VIDEO_FAULT_PLAN = {
  /** `slow-start`: media segment 1 waits this long. */
  slowStartDelayMs: 3_000,
  /** `stall`: this media segment (starts at 10 s)… */
  stallSegment: 6,
  /** …waits this long: more than the player buffers ahead (VIDEO_BUFFER_AHEAD_SECONDS). */
  stallDelayMs: 8_000,
  /** `segment-404`: this media segment answers 404. */
  missingSegment: 4,
} as const;

/** Seconds the player buffers ahead of the playhead (Shaka `streaming.bufferingGoal`). */
export const VIDEO_BUFFER_AHEAD_SECONDS = 4;

export function parseVideoFault(value: string | null | undefined): VideoFault | null {
  return (VIDEO_FAULTS as readonly string[]).includes(value ?? '') ? (value as VideoFault) : null;
}

/** The media segment number of a segment path (`360p/7.webm` → 7), null for init or manifest. */
export function mediaSegmentNumber(path: string): number | null {
  const match = /\/(\d+)\.webm$/.exec(path);
  return match ? Number(match[1]) : null;
}

export type SegmentFaultAction = { kind: 'delay'; ms: number } | { kind: 'missing' } | null;

/** What the web server does to the request of `path` under `fault` (null: serve it at once). */
export function segmentFaultAction(fault: VideoFault | null, path: string): SegmentFaultAction {
  const segment = mediaSegmentNumber(path);
  if (fault === null || segment === null) return null;
  if (fault === 'slow-start' && segment === 1) {
    return { kind: 'delay', ms: VIDEO_FAULT_PLAN.slowStartDelayMs };
  }
  if (fault === 'stall' && segment === VIDEO_FAULT_PLAN.stallSegment) {
    return { kind: 'delay', ms: VIDEO_FAULT_PLAN.stallDelayMs };
  }
  if (fault === 'segment-404' && segment === VIDEO_FAULT_PLAN.missingSegment) {
    return { kind: 'missing' };
  }
  return null;
}

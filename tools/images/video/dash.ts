/**
 * Writes the DASH manifest (MPD, ISO/IEC 23009-1, live profile: SegmentTemplate with a
 * SegmentTimeline) of the video demo's renditions (docs/decisions/013-video-demo.md).
 */

export interface ManifestRendition {
  id: string;
  width: number;
  height: number;
  /** Segment sizes in bytes, in order. */
  segmentBytes: readonly number[];
}

export interface ManifestInput {
  /** Segment start times in ms (the same for every rendition: aligned key frames). */
  segmentStartsMs: readonly number[];
  durationMs: number;
  frameRate: number;
  codecs: string;
  renditions: readonly ManifestRendition[];
}

/**
 * DASH `@bandwidth`: the rate at which the stream plays without stalling once minBufferTime is
 * buffered; the peak over segments of bytes × 8 / duration is a safe value.
 */
export function peakBandwidth(segmentBytes: readonly number[], durationsMs: readonly number[]) {
  let peak = 0;
  segmentBytes.forEach((bytes, i) => {
    const ms = durationsMs[i] ?? 0;
    if (ms > 0) peak = Math.max(peak, (bytes * 8 * 1000) / ms);
  });
  return Math.ceil(peak);
}

export function segmentDurations(startsMs: readonly number[], durationMs: number): number[] {
  return startsMs.map((start, i) => (startsMs[i + 1] ?? durationMs) - start);
}

/** `PT20.000S`. */
function isoDuration(ms: number): string {
  return `PT${(ms / 1000).toFixed(3)}S`;
}

/** Runs of equal durations as `<S>` elements (`r` repeats). */
function timeline(startsMs: readonly number[], durations: readonly number[]): string {
  const runs: { t: number; d: number; r: number }[] = [];
  durations.forEach((d, i) => {
    const last = runs[runs.length - 1];
    if (last && last.d === d) last.r += 1;
    else runs.push({ t: startsMs[i]!, d, r: 0 });
  });
  return runs.map((s) => `<S t="${s.t}" d="${s.d}"${s.r > 0 ? ` r="${s.r}"` : ''}/>`).join('');
}

export function writeManifest(input: ManifestInput): string {
  const durations = segmentDurations(input.segmentStartsMs, input.durationMs);
  const maxWidth = Math.max(...input.renditions.map((r) => r.width));
  const maxHeight = Math.max(...input.renditions.map((r) => r.height));
  const representations = input.renditions
    .map(
      (r) =>
        `      <Representation id="${r.id}" bandwidth="${peakBandwidth(r.segmentBytes, durations)}" width="${r.width}" height="${r.height}"/>`,
    )
    .join('\n');
  return `<?xml version="1.0" encoding="UTF-8"?>
<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" profiles="urn:mpeg:dash:profile:isoff-live:2011" type="static" mediaPresentationDuration="${isoDuration(input.durationMs)}" minBufferTime="PT2S">
  <Period id="0" start="PT0S">
    <AdaptationSet id="0" contentType="video" mimeType="video/webm" codecs="${input.codecs}" segmentAlignment="true" startWithSAP="1" maxWidth="${maxWidth}" maxHeight="${maxHeight}" frameRate="${input.frameRate}">
      <SegmentTemplate timescale="1000" initialization="$RepresentationID$/init.webm" media="$RepresentationID$/$Number$.webm" startNumber="1">
        <SegmentTimeline>${timeline(input.segmentStartsMs, durations)}</SegmentTimeline>
      </SegmentTemplate>
${representations}
    </AdaptationSet>
  </Period>
</MPD>
`;
}

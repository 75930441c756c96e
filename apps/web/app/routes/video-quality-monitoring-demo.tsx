/**
 * Video quality monitoring demo (docs/decisions/013-video-demo.md): plays the shop's turntable
 * clip as adaptive DASH (VP8 in WebM, 360p and 720p) with Shaka Player, measures the playback's
 * quality of experience (app/video/qoe.ts) and sends it to monitoring as custom actions, so the
 * numbers carry the session's shopper (`usr`) and `feature_flags` like every other action.
 * A fault (`?video_fault=…`, or the links on the page) is made for real on the network or in the
 * player and moves its metric.
 */
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { MONITORING_ACTIONS } from '@showroom/contracts/monitoring-constants';
import {
  VIDEO_FAULTS,
  VIDEO_FAULT_PARAM,
  parseVideoFault,
  type VideoFault,
} from '@showroom/contracts/video';
import { LoyaltyBanner } from '../components/loyalty-banner';
import { pageMeta } from '../lib/page-meta';
import { trackAction } from '../monitoring/track';
import { QoeTracker, qoeContext, type QoeEvent, type QoeSnapshot } from '../video/qoe';
import type { VideoPlayer } from '../video/player';

export function meta() {
  return pageMeta(
    'Video quality monitoring demo',
    'Playback quality, monitored: the video quality monitoring demo of the Showroom shop.',
  );
}

const FAULT_LABELS: Record<VideoFault, string> = {
  'slow-start': 'Slow first segment (startup time)',
  stall: 'Stall mid-play (rebuffering)',
  'cap-bitrate': 'Bitrate capped to the lowest rendition (average bitrate)',
  'segment-404': 'A segment answers 404 (playback failure)',
};

/** How often the page reads the playhead and the frame counters while playing. */
const SAMPLE_MS = 250;

export default function VideoDemoPage() {
  const [searchParams] = useSearchParams();
  const fault = parseVideoFault(searchParams.get(VIDEO_FAULT_PARAM));
  const videoRef = useRef<HTMLVideoElement>(null);
  const trackerRef = useRef<QoeTracker | null>(null);
  const playerRef = useRef<VideoPlayer | null>(null);
  const [snapshot, setSnapshot] = useState<QoeSnapshot | null>(null);
  const [loading, setLoading] = useState(false);

  // Feeds the tracker and reports what each event did: one place for every source of events.
  // Set in an effect (refs are not written during render); it runs before the one below.
  const feedRef = useRef<(event: QoeEvent) => void>(() => {});
  useEffect(() => {
    feedRef.current = (event: QoeEvent) => {
      const tracker = trackerRef.current;
      if (!tracker) return;
      const outcome = tracker.apply(event);
      const now = performance.now();
      const context = { ...qoeContext(tracker.snapshot(now)), video_fault: fault ?? 'none' };
      if (outcome === 'started') trackAction(MONITORING_ACTIONS.videoStart, context);
      if (outcome === 'rebuffer') trackAction(MONITORING_ACTIONS.videoRebuffer, context);
      if (outcome === 'failed') trackAction(MONITORING_ACTIONS.videoError, context);
      if (outcome === 'failed' || outcome === 'finished') {
        trackAction(MONITORING_ACTIONS.videoSummary, context);
      }
      if (outcome !== null) setSnapshot(tracker.snapshot(now));
    };
  }, [fault]);

  // Element events, a sampling loop for the playhead and frames, and the page's exit.
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    const feed = (event: QoeEvent) => feedRef.current(event);
    const at = () => performance.now();
    const handlers: [string, () => void][] = [
      ['timeupdate', () => feed({ type: 'playhead', at: at(), position: video.currentTime })],
      ['waiting', () => feed({ type: 'waiting', at: at() })],
      ['playing', () => feed({ type: 'resume', at: at() })],
      ['pause', () => feed({ type: 'pause', at: at() })],
      ['play', () => feed({ type: 'play-request', at: at() })],
      ['seeking', () => feed({ type: 'seeking', at: at() })],
      ['ended', () => feed({ type: 'ended', at: at() })],
      ['error', () => feed({ type: 'error', at: at(), code: `media ${video.error?.code ?? 0}` })],
    ];
    for (const [name, handler] of handlers) video.addEventListener(name, handler);
    const sample = window.setInterval(() => {
      const tracker = trackerRef.current;
      if (!tracker) return;
      feed({ type: 'playhead', at: at(), position: video.currentTime });
      const quality = video.getVideoPlaybackQuality?.();
      if (quality) {
        feed({
          type: 'frames',
          at: at(),
          total: quality.totalVideoFrames,
          dropped: quality.droppedVideoFrames,
        });
      }
      setSnapshot(tracker.snapshot(at()));
    }, SAMPLE_MS);
    // Capture on window: runs before the monitoring SDK's own exit flush, so the summary goes
    // out in the flush the exit causes.
    const onHidden = () => {
      if (document.visibilityState === 'hidden') feed({ type: 'exit', at: at() });
    };
    const onLeave = () => feed({ type: 'exit', at: at() });
    window.addEventListener('visibilitychange', onHidden, true);
    window.addEventListener('pagehide', onLeave, true);
    window.addEventListener('beforeunload', onLeave, true);
    return () => {
      onLeave();
      for (const [name, handler] of handlers) video.removeEventListener(name, handler);
      window.clearInterval(sample);
      window.removeEventListener('visibilitychange', onHidden, true);
      window.removeEventListener('pagehide', onLeave, true);
      window.removeEventListener('beforeunload', onLeave, true);
      void playerRef.current?.destroy();
    };
  }, []);

  const play = async () => {
    const video = videoRef.current;
    if (!video || trackerRef.current) return;
    trackerRef.current = new QoeTracker();
    feedRef.current({ type: 'play-request', at: performance.now() });
    setLoading(true);
    const { startPlayer } = await import('../video/player');
    playerRef.current = await startPlayer(video, fault, {
      onRendition: (bitrate, height) =>
        feedRef.current({ type: 'rendition', at: performance.now(), bitrate, height }),
      onError: (code) => feedRef.current({ type: 'error', at: performance.now(), code }),
      onBuffering: (buffering) => {
        feedRef.current({ type: buffering ? 'waiting' : 'resume', at: performance.now() });
      },
    });
    setLoading(false);
    video.play().catch(() => {
      // A refused play() shows as no start; the tracker's exit reports it.
    });
  };

  const s = snapshot;
  const ms = (n: number | null | undefined) =>
    n === null || n === undefined ? '—' : `${Math.round(n)} ms`;
  const kbps = (n: number | null | undefined) =>
    n === null || n === undefined ? '—' : `${Math.round(n / 1000)} kbit/s`;
  const rows: [string, string, string, number | string | boolean | null | undefined][] = [
    ['state', 'State', s?.state ?? 'idle', s?.state ?? 'idle'],
    ['startup', 'Video startup time', ms(s?.startupTimeMs), s?.startupTimeMs],
    ['watch-time', 'Watch time', ms(s?.watchTimeMs), s?.watchTimeMs],
    ['rebuffer-count', 'Rebuffering count', String(s?.rebufferCount ?? 0), s?.rebufferCount ?? 0],
    ['rebuffer-duration', 'Rebuffering duration', ms(s?.rebufferDurationMs), s?.rebufferDurationMs],
    [
      'rebuffer-frequency',
      'Rebuffering frequency',
      `${(s?.rebufferFrequencyPerMin ?? 0).toFixed(2)} / min`,
      s?.rebufferFrequencyPerMin,
    ],
    [
      'rebuffer-percentage',
      'Rebuffering percentage',
      `${(s?.rebufferPercentage ?? 0).toFixed(1)} %`,
      s?.rebufferPercentage,
    ],
    ['average-bitrate', 'Average bitrate', kbps(s?.averageBitrate), s?.averageBitrate],
    ['peak-bitrate', 'Peak bitrate', kbps(s?.peakBitrate), s?.peakBitrate],
    ['bitrate-switches', 'Bitrate switches', String(s?.bitrateSwitches ?? 0), s?.bitrateSwitches],
    [
      'rendition',
      'Rendition',
      s?.renditionHeight ? `${s.renditionHeight}p` : '—',
      s?.renditionHeight,
    ],
    ['total-frames', 'Frames decoded', String(s?.totalFrames ?? 0), s?.totalFrames],
    ['dropped-frames', 'Frames dropped', String(s?.droppedFrames ?? 0), s?.droppedFrames],
    [
      'failed',
      'Playback failure',
      s?.playbackFailed ? (s.errorCode ?? 'yes') : 'no',
      s?.playbackFailed,
    ],
    [
      'exit-before-start',
      'Exit before video start',
      s?.exitedBeforeStart ? 'yes' : 'no',
      s?.exitedBeforeStart,
    ],
  ];

  return (
    <section className="video-demo">
      <h1>Video quality monitoring demo</h1>
      <p className="muted">
        A 20-second turntable of our Fjord oak chair, streamed as adaptive DASH (VP8, 360p and
        720p). Every playback's quality of experience is measured here and sent to monitoring.
      </p>
      <div className="video-demo__player">
        <video
          ref={videoRef}
          data-testid="video"
          muted
          playsInline
          controls={snapshot !== null}
          width={640}
          height={360}
        />
        {snapshot === null && (
          <button
            type="button"
            className="btn"
            data-testid="video-play"
            onClick={() => void play()}
          >
            Play
          </button>
        )}
        {loading && <p className="muted">Loading the player…</p>}
      </div>
      <nav aria-label="Video faults" className="video-demo__faults">
        <p>
          Fault: <strong data-testid="video-fault">{fault ? FAULT_LABELS[fault] : 'none'}</strong>
        </p>
        <ul>
          <li>
            <a href="?" data-testid="video-fault-none">
              No fault
            </a>
          </li>
          {VIDEO_FAULTS.map((name) => (
            <li key={name}>
              <a href={`?${VIDEO_FAULT_PARAM}=${name}`}>{FAULT_LABELS[name]}</a>
            </li>
          ))}
        </ul>
      </nav>
      <h2>Quality of experience</h2>
      <dl className="video-demo__metrics" data-testid="video-metrics">
        {rows.map(([id, label, text, value]) => (
          <div key={id}>
            <dt>{label}</dt>
            <dd
              data-testid={`qoe-${id}`}
              data-value={value === null || value === undefined ? '' : String(value)}
            >
              {text}
            </dd>
          </div>
        ))}
      </dl>
      {/* A shop page like the others: its flag evaluation gives the view, and so every video
          action, the session's `feature_flags` (docs/architecture.md "Monitoring"). */}
      <LoyaltyBanner />
    </section>
  );
}

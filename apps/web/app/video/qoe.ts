/**
 * Quality-of-experience metrics of one video playback, computed the way video analytics products
 * define them (docs/decisions/013-video-demo.md). Pure: fed events with their own clock readings
 * (`at`, ms), answers a snapshot; the page feeds it from the <video> element and the player.
 *
 * Definitions (Mux Data "Metrics" docs and Conviva's metric dictionary):
 * - Video startup time (Mux "Video Startup Time", Conviva "Video Start Time"): from the play
 *   request to the first frame shown with the playhead moving.
 * - Exits before video start (Mux "Exits Before Video Start", Conviva "Video Start Failures"
 *   minus errors): the viewer left after asking to play, before the video started, without an
 *   error.
 * - Playback failure (Mux "Playback Failure", Conviva "Video Playback Failures"): an error that
 *   the player did not recover from, which ends the playback, before or after the start.
 * - Rebuffering (Mux "Rebuffer Count/Duration/Frequency/Percentage", Conviva "Rebuffering Ratio"):
 *   the playhead stopped for want of data after the video started, not because of a seek or a
 *   pause. Frequency is rebuffer events per minute of watch time; percentage is rebuffering time
 *   over watch time.
 * - Watch time (Mux "Watch Time"): time from the play request to the end of the playback while
 *   not paused, startup and rebuffering included.
 * - Average bitrate (Conviva "Average Bitrate"): the bitrates of the renditions shown, weighted by
 *   the time each was playing; peak bitrate: the highest one shown; bitrate switches (Conviva
 *   "Bitrate Switches", Mux "Quality changes"): changes of the rendition shown after the start.
 * - Dropped and total frames: the element's `getVideoPlaybackQuality()` (Mux "Dropped frames").
 */

export type QoeEvent =
  /** The viewer (or autoplay) asked to play; the first one starts the playback's clock. */
  | { type: 'play-request'; at: number }
  /** A reading of the playhead (timeupdate, or a poll), in seconds. */
  | { type: 'playhead'; at: number; position: number }
  /** The element ran out of data (`waiting`), or the player says it is buffering. */
  | { type: 'waiting'; at: number }
  /**
   * Playback goes on after a rebuffering or a seek: the element's `playing`, or the player has
   * buffered enough again. (A playhead reading does not end a rebuffering: the playhead may
   * still creep on while the player stops the element for want of data.)
   */
  | { type: 'resume'; at: number }
  | { type: 'pause'; at: number }
  | { type: 'seeking'; at: number }
  /** The rendition being shown changed (the player's variant/adaptation event). */
  | { type: 'rendition'; at: number; bitrate: number; height: number }
  /** `getVideoPlaybackQuality()` counters. */
  | { type: 'frames'; at: number; total: number; dropped: number }
  /** An error the player gave up on. */
  | { type: 'error'; at: number; code: string }
  | { type: 'ended'; at: number }
  /** The page is hidden or left: the playback ends here unless it ended before. */
  | { type: 'exit'; at: number };

export type PlaybackState =
  | 'idle'
  | 'starting'
  | 'playing'
  | 'rebuffering'
  | 'paused'
  | 'seeking'
  | 'ended'
  | 'failed'
  | 'exited';

export interface QoeSnapshot {
  state: PlaybackState;
  started: boolean;
  startupTimeMs: number | null;
  exitedBeforeStart: boolean;
  playbackFailed: boolean;
  errorCode: string | null;
  rebufferCount: number;
  rebufferDurationMs: number;
  /** Rebuffer events per minute of watch time. */
  rebufferFrequencyPerMin: number;
  /** Rebuffering time over watch time, in percent. */
  rebufferPercentage: number;
  watchTimeMs: number;
  /** Time-weighted over playing time, bits per second; null before a rendition played. */
  averageBitrate: number | null;
  peakBitrate: number | null;
  bitrateSwitches: number;
  renditionHeight: number | null;
  droppedFrames: number;
  totalFrames: number;
}

/** States in which watch time runs (Mux: startup and rebuffering count, pauses do not). */
const WATCHING: ReadonlySet<PlaybackState> = new Set(['starting', 'playing', 'rebuffering']);
const FINAL: ReadonlySet<PlaybackState> = new Set(['ended', 'failed', 'exited']);

export class QoeTracker {
  private state: PlaybackState = 'idle';
  private since = 0;
  private requestedAt: number | null = null;
  private startedAt: number | null = null;
  private lastPosition: number | null = null;
  private watchMs = 0;
  private rebufferMs = 0;
  private rebuffers = 0;
  private failed = false;
  private errorCode: string | null = null;
  private exitedEarly = false;
  private bitrate: number | null = null;
  private height: number | null = null;
  private peak: number | null = null;
  private switches = 0;
  private bitrateTimeMs = 0;
  private bitrateWeighted = 0;
  private frames = { total: 0, dropped: 0 };

  /** Applies an event; answers what it did to the playback, for the page to report. */
  apply(event: QoeEvent): 'started' | 'rebuffer' | 'failed' | 'finished' | null {
    if (FINAL.has(this.state)) return null;
    switch (event.type) {
      case 'play-request':
        if (this.state === 'idle') {
          this.requestedAt = event.at;
          this.move('starting', event.at);
        } else if (this.state === 'paused') {
          this.move(this.startedAt === null ? 'starting' : 'playing', event.at);
        }
        return null;
      case 'playhead': {
        const moved = this.lastPosition !== null && event.position > this.lastPosition;
        this.lastPosition = event.position;
        if (!moved) return null;
        if (this.state === 'starting') {
          this.startedAt = event.at;
          this.move('playing', event.at);
          return 'started';
        }
        if (this.state === 'seeking') this.move('playing', event.at);
        return null;
      }
      case 'resume':
        if (this.state === 'rebuffering' || this.state === 'seeking') {
          this.move('playing', event.at);
        }
        return null;
      case 'waiting':
        if (this.state === 'playing') {
          this.rebuffers += 1;
          this.move('rebuffering', event.at);
          return 'rebuffer';
        }
        return null;
      case 'pause':
        if (this.state === 'playing' || this.state === 'rebuffering') this.move('paused', event.at);
        return null;
      case 'seeking':
        if (this.startedAt !== null && this.state !== 'idle') this.move('seeking', event.at);
        return null;
      case 'rendition':
        this.advance(event.at);
        if (this.startedAt !== null && this.bitrate !== null && this.bitrate !== event.bitrate) {
          this.switches += 1;
        }
        this.bitrate = event.bitrate;
        this.height = event.height;
        if (this.state === 'playing') this.peak = Math.max(this.peak ?? 0, event.bitrate);
        return null;
      case 'frames':
        this.frames = { total: event.total, dropped: event.dropped };
        return null;
      case 'error':
        this.failed = true;
        this.errorCode = event.code;
        this.move('failed', event.at);
        return 'failed';
      case 'ended':
        if (this.state === 'idle') return null;
        this.move('ended', event.at);
        return 'finished';
      case 'exit':
        if (this.state === 'idle') return null;
        if (this.startedAt === null) this.exitedEarly = true;
        this.move('exited', event.at);
        return 'finished';
    }
  }

  /** The metrics as of `now` (time in the current state counts up to `now`). */
  snapshot(now: number): QoeSnapshot {
    const open = FINAL.has(this.state) ? 0 : Math.max(0, now - this.since);
    const watchTimeMs = this.watchMs + (WATCHING.has(this.state) ? open : 0);
    const rebufferDurationMs = this.rebufferMs + (this.state === 'rebuffering' ? open : 0);
    const playingMs = this.bitrateTimeMs + (this.state === 'playing' && this.bitrate ? open : 0);
    const weighted =
      this.bitrateWeighted + (this.state === 'playing' && this.bitrate ? open * this.bitrate : 0);
    return {
      state: this.state,
      started: this.startedAt !== null,
      startupTimeMs:
        this.startedAt !== null && this.requestedAt !== null
          ? this.startedAt - this.requestedAt
          : null,
      exitedBeforeStart: this.exitedEarly,
      playbackFailed: this.failed,
      errorCode: this.errorCode,
      rebufferCount: this.rebuffers,
      rebufferDurationMs,
      rebufferFrequencyPerMin: watchTimeMs > 0 ? this.rebuffers / (watchTimeMs / 60_000) : 0,
      rebufferPercentage: watchTimeMs > 0 ? (100 * rebufferDurationMs) / watchTimeMs : 0,
      watchTimeMs,
      averageBitrate: playingMs > 0 ? weighted / playingMs : this.startedAt ? this.bitrate : null,
      peakBitrate: this.peak,
      bitrateSwitches: this.switches,
      renditionHeight: this.height,
      droppedFrames: this.frames.dropped,
      totalFrames: this.frames.total,
    };
  }

  /** Counts the time spent in the current state up to `at`. */
  private advance(at: number): void {
    const elapsed = Math.max(0, at - this.since);
    if (WATCHING.has(this.state)) this.watchMs += elapsed;
    if (this.state === 'rebuffering') this.rebufferMs += elapsed;
    if (this.state === 'playing' && this.bitrate !== null) {
      this.bitrateTimeMs += elapsed;
      this.bitrateWeighted += elapsed * this.bitrate;
      this.peak = Math.max(this.peak ?? 0, this.bitrate);
    }
    this.since = at;
  }

  private move(next: PlaybackState, at: number): void {
    this.advance(at);
    if (next === 'playing' && this.bitrate !== null) {
      this.peak = Math.max(this.peak ?? 0, this.bitrate);
    }
    this.state = next;
  }
}

/** The numbers a monitoring action carries (flat, rounded; `video_` prefix for the facets). */
export function qoeContext(s: QoeSnapshot): Record<string, number | string | boolean | null> {
  const round = (n: number | null, digits = 0) =>
    n === null ? null : Math.round(n * 10 ** digits) / 10 ** digits;
  return {
    video_state: s.state,
    video_startup_time_ms: round(s.startupTimeMs),
    video_exited_before_start: s.exitedBeforeStart,
    video_playback_failed: s.playbackFailed,
    video_error_code: s.errorCode,
    video_rebuffer_count: s.rebufferCount,
    video_rebuffer_duration_ms: round(s.rebufferDurationMs),
    video_rebuffer_frequency_per_min: round(s.rebufferFrequencyPerMin, 2),
    video_rebuffer_percentage: round(s.rebufferPercentage, 2),
    video_watch_time_ms: round(s.watchTimeMs),
    video_average_bitrate: round(s.averageBitrate),
    video_peak_bitrate: round(s.peakBitrate),
    video_bitrate_switches: s.bitrateSwitches,
    video_rendition_height: s.renditionHeight,
    video_dropped_frames: s.droppedFrames,
    video_total_frames: s.totalFrames,
  };
}

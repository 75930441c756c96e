import { describe, expect, it } from 'vitest';
import { QoeTracker, qoeContext } from './qoe';

/** A tracker fed a clean start: requested at 1000 ms, playhead moving at 1800 ms. */
function started(bitrate = 400_000): QoeTracker {
  const qoe = new QoeTracker();
  qoe.apply({ type: 'play-request', at: 1000 });
  qoe.apply({ type: 'rendition', at: 1100, bitrate, height: 360 });
  qoe.apply({ type: 'playhead', at: 1500, position: 0 });
  expect(qoe.apply({ type: 'playhead', at: 1800, position: 0.2 })).toBe('started');
  return qoe;
}

describe('QoeTracker', () => {
  it('measures startup time from the play request to the playhead moving', () => {
    const qoe = new QoeTracker();
    qoe.apply({ type: 'play-request', at: 1000 });
    expect(qoe.snapshot(1500)).toMatchObject({ started: false, startupTimeMs: null });
    qoe.apply({ type: 'playhead', at: 1200, position: 0 });
    expect(qoe.apply({ type: 'playhead', at: 1300, position: 0 })).toBeNull();
    expect(qoe.apply({ type: 'playhead', at: 1800, position: 0.1 })).toBe('started');
    expect(qoe.snapshot(1800)).toMatchObject({ started: true, startupTimeMs: 800 });
  });

  it('counts watch time from the request, startup included, pauses excluded', () => {
    const qoe = started();
    expect(qoe.snapshot(3000).watchTimeMs).toBe(2000);
    qoe.apply({ type: 'pause', at: 3000 });
    expect(qoe.snapshot(10_000).watchTimeMs).toBe(2000);
    qoe.apply({ type: 'play-request', at: 10_000 });
    expect(qoe.snapshot(11_000).watchTimeMs).toBe(3000);
  });

  it('counts rebuffering after the start: count, duration, frequency and percentage', () => {
    const qoe = started();
    qoe.apply({ type: 'playhead', at: 3900, position: 3 });
    expect(qoe.apply({ type: 'waiting', at: 4000 })).toBe('rebuffer');
    // The playhead may creep on while the player holds the element: still rebuffering.
    qoe.apply({ type: 'playhead', at: 5000, position: 3.2 });
    qoe.apply({ type: 'playhead', at: 6000, position: 3.2 });
    expect(qoe.snapshot(6000)).toMatchObject({ state: 'rebuffering', rebufferDurationMs: 2000 });
    qoe.apply({ type: 'resume', at: 7000 });
    qoe.apply({ type: 'playhead', at: 7100, position: 3.3 });
    const s = qoe.snapshot(13_000);
    expect(s).toMatchObject({ rebufferCount: 1, rebufferDurationMs: 3000, watchTimeMs: 12_000 });
    expect(s.rebufferPercentage).toBe(25);
    expect(s.rebufferFrequencyPerMin).toBe(5);
  });

  it('does not count waiting before the start or after a seek as rebuffering', () => {
    const qoe = new QoeTracker();
    qoe.apply({ type: 'play-request', at: 0 });
    expect(qoe.apply({ type: 'waiting', at: 10 })).toBeNull();
    qoe.apply({ type: 'playhead', at: 20, position: 0 });
    qoe.apply({ type: 'playhead', at: 30, position: 0.1 });
    qoe.apply({ type: 'seeking', at: 100 });
    expect(qoe.apply({ type: 'waiting', at: 110 })).toBeNull();
    expect(qoe.snapshot(200).rebufferCount).toBe(0);
  });

  it('weights the average bitrate by playing time and counts switches after the start', () => {
    const qoe = started(400_000);
    qoe.apply({ type: 'rendition', at: 2800, bitrate: 1_200_000, height: 720 });
    const s = qoe.snapshot(4800);
    // 1 s at 400 kbit/s, 2 s at 1200 kbit/s.
    expect(s.averageBitrate).toBeCloseTo((400_000 + 2 * 1_200_000) / 3);
    expect(s).toMatchObject({ peakBitrate: 1_200_000, bitrateSwitches: 1, renditionHeight: 720 });
  });

  it('does not count the rendition picked before the start as a switch', () => {
    const qoe = new QoeTracker();
    qoe.apply({ type: 'play-request', at: 0 });
    qoe.apply({ type: 'rendition', at: 10, bitrate: 400_000, height: 360 });
    qoe.apply({ type: 'rendition', at: 20, bitrate: 1_200_000, height: 720 });
    qoe.apply({ type: 'playhead', at: 30, position: 0 });
    qoe.apply({ type: 'playhead', at: 40, position: 0.1 });
    expect(qoe.snapshot(1040)).toMatchObject({ bitrateSwitches: 0, averageBitrate: 1_200_000 });
  });

  it('records a playback failure and ends the playback', () => {
    const qoe = started();
    expect(qoe.apply({ type: 'error', at: 5000, code: 'network 1001' })).toBe('failed');
    expect(qoe.apply({ type: 'exit', at: 6000 })).toBeNull();
    expect(qoe.snapshot(9000)).toMatchObject({
      state: 'failed',
      playbackFailed: true,
      errorCode: 'network 1001',
      watchTimeMs: 4000,
      exitedBeforeStart: false,
    });
  });

  it('records an exit before the video started', () => {
    const qoe = new QoeTracker();
    qoe.apply({ type: 'play-request', at: 0 });
    expect(qoe.apply({ type: 'exit', at: 2500 })).toBe('finished');
    expect(qoe.snapshot(3000)).toMatchObject({
      exitedBeforeStart: true,
      started: false,
      watchTimeMs: 2500,
      playbackFailed: false,
    });
  });

  it('ignores an exit without a play request', () => {
    expect(new QoeTracker().apply({ type: 'exit', at: 10 })).toBeNull();
  });

  it('keeps the frame counters and flattens the snapshot for monitoring', () => {
    const qoe = started();
    qoe.apply({ type: 'frames', at: 2000, total: 42, dropped: 3 });
    qoe.apply({ type: 'ended', at: 2800 });
    expect(qoeContext(qoe.snapshot(5000))).toMatchObject({
      video_state: 'ended',
      video_startup_time_ms: 800,
      video_watch_time_ms: 1800,
      video_total_frames: 42,
      video_dropped_frames: 3,
      video_average_bitrate: 400_000,
    });
  });
});

import { describe, expect, it } from 'vitest';
import {
  VIDEO_FAULT_PLAN,
  mediaSegmentNumber,
  parseVideoFault,
  segmentFaultAction,
} from './video.js';

describe('video faults', () => {
  it('reads only the known fault names', () => {
    expect(parseVideoFault('stall')).toBe('stall');
    expect(parseVideoFault('STALL')).toBeNull();
    expect(parseVideoFault(undefined)).toBeNull();
  });

  it('numbers media segments, not init segments or the manifest', () => {
    expect(mediaSegmentNumber('/360p/7.webm')).toBe(7);
    expect(mediaSegmentNumber('/360p/init.webm')).toBeNull();
    expect(mediaSegmentNumber('/stream.mpd')).toBeNull();
  });

  it('holds, refuses or serves each segment as the fault plans', () => {
    expect(segmentFaultAction('slow-start', '/720p/1.webm')).toEqual({
      kind: 'delay',
      ms: VIDEO_FAULT_PLAN.slowStartDelayMs,
    });
    expect(segmentFaultAction('slow-start', '/720p/2.webm')).toBeNull();
    expect(segmentFaultAction('stall', `/360p/${VIDEO_FAULT_PLAN.stallSegment}.webm`)).toEqual({
      kind: 'delay',
      ms: VIDEO_FAULT_PLAN.stallDelayMs,
    });
    expect(
      segmentFaultAction('segment-404', `/360p/${VIDEO_FAULT_PLAN.missingSegment}.webm`),
    ).toEqual({
      kind: 'missing',
    });
    expect(segmentFaultAction('segment-404', '/360p/init.webm')).toBeNull();
    expect(segmentFaultAction('cap-bitrate', '/360p/1.webm')).toBeNull();
    expect(segmentFaultAction(null, '/360p/1.webm')).toBeNull();
  });
});

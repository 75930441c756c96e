import { describe, expect, it } from 'vitest';
import { peakBandwidth, segmentDurations, writeManifest } from './dash.js';

describe('DASH manifest', () => {
  it('derives durations from the starts and the clip length', () => {
    expect(segmentDurations([0, 2000, 4000], 5000)).toEqual([2000, 2000, 1000]);
  });

  it('declares the peak segment bitrate as the bandwidth', () => {
    expect(peakBandwidth([25_000, 50_000, 10_000], [2000, 2000, 1000])).toBe(200_000);
  });

  it('writes a static MPD with a SegmentTemplate timeline and one Representation per rendition', () => {
    const mpd = writeManifest({
      segmentStartsMs: [0, 2000, 4000],
      durationMs: 5000,
      frameRate: 15,
      codecs: 'vp8',
      renditions: [
        { id: '360p', width: 640, height: 360, segmentBytes: [25_000, 25_000, 10_000] },
        { id: '720p', width: 1280, height: 720, segmentBytes: [75_000, 75_000, 30_000] },
      ],
    });
    expect(mpd).toContain('type="static" mediaPresentationDuration="PT5.000S"');
    expect(mpd).toContain('mimeType="video/webm" codecs="vp8"');
    expect(mpd).toContain('media="$RepresentationID$/$Number$.webm" startNumber="1"');
    expect(mpd).toContain('<S t="0" d="2000" r="1"/><S t="4000" d="1000"/>');
    expect(mpd).toContain(
      '<Representation id="360p" bandwidth="100000" width="640" height="360"/>',
    );
    expect(mpd).toContain(
      '<Representation id="720p" bandwidth="300000" width="1280" height="720"/>',
    );
  });
});

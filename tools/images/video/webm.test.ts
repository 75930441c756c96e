import { describe, expect, it } from 'vitest';
import {
  CLUSTER_ID,
  EBML_ID,
  INFO_ID,
  SEGMENT_ID,
  TRACKS_ID,
  readElements,
  splitWebm,
} from './webm.js';

/** An element: id bytes as written, a one-byte size (data < 127 bytes here). */
function element(id: number, ...data: Uint8Array[]): Uint8Array {
  const idBytes: number[] = [];
  for (let v = id; v > 0; v = Math.floor(v / 256)) idBytes.unshift(v % 256);
  const body = Buffer.concat(data);
  if (body.length > 126) throw new Error('test element too large');
  return Uint8Array.from([...idBytes, 0x80 | body.length, ...body]);
}
const uint = (value: number, bytes = 2) => {
  const out = new Uint8Array(bytes);
  for (let i = bytes - 1, v = value; i >= 0; i -= 1, v = Math.floor(v / 256)) out[i] = v % 256;
  return out;
};

function sampleWebm(timecodeScale: number): Uint8Array {
  const header = element(EBML_ID, element(0x4282, Buffer.from('webm')));
  const info = element(INFO_ID, element(0x2ad7b1, uint(timecodeScale, 3)));
  const tracks = element(TRACKS_ID, element(0xae, element(0xd7, uint(1, 1))));
  const cluster = (timecode: number, payload: number) =>
    element(CLUSTER_ID, element(0xe7, uint(timecode)), element(0xa3, Uint8Array.of(payload)));
  const segment = element(SEGMENT_ID, info, tracks, cluster(0, 1), cluster(2000, 2));
  // ffmpeg.js hands files back with zero padding after the Segment.
  return Buffer.concat([header, segment, new Uint8Array(16)]);
}

describe('splitWebm', () => {
  it('makes an init segment (header, unknown-size Segment, Info, Tracks) and one segment per cluster', () => {
    const webm = sampleWebm(1_000_000);
    const { init, segments } = splitWebm(webm);
    const top = readElements(init, 0, init.length, 2);
    expect(top.map((e) => e.id)).toEqual([EBML_ID, SEGMENT_ID]);
    const inside = readElements(init, top[1]!.dataStart);
    expect(inside.map((e) => e.id)).toEqual([INFO_ID, TRACKS_ID]);
    expect(segments.map((s) => s.startMs)).toEqual([0, 2000]);
    expect(segments.map((s) => readElements(s.bytes).map((e) => e.id))).toEqual([
      [CLUSTER_ID],
      [CLUSTER_ID],
    ]);
  });

  it('scales cluster timecodes by TimecodeScale', () => {
    expect(splitWebm(sampleWebm(500_000)).segments.map((s) => s.startMs)).toEqual([0, 1000]);
  });

  it('refuses a file that is not WebM', () => {
    expect(() => splitWebm(Uint8Array.of(0x42, 0x82, 0x81, 0x00))).toThrow(/Not a WebM file/);
  });
});

/**
 * Splits a WebM file into the pieces of a DASH stream (docs/decisions/013-video-demo.md): the
 * initialization segment (EBML header, Segment header of unknown size, Info, Tracks) and one media
 * segment per Cluster. The encoder starts every cluster on a key frame (WebM DASH), so each one
 * is a media segment a Media Source Extensions player can append on its own.
 */

export const EBML_ID = 0x1a45dfa3;
export const SEGMENT_ID = 0x18538067;
export const INFO_ID = 0x1549a966;
export const TRACKS_ID = 0x1654ae6b;
export const CLUSTER_ID = 0x1f43b675;
export const TIMECODE_ID = 0xe7;
export const TIMECODE_SCALE_ID = 0x2ad7b1;

export interface EbmlElement {
  id: number;
  /** Offset of the element's first byte (its id). */
  start: number;
  /** Offset of its data. */
  dataStart: number;
  /** Offset just past its data. */
  end: number;
}

/** A variable-length integer at `offset`: its value (marker bit removed for sizes) and length. */
function readVint(bytes: Uint8Array, offset: number, keepMarker: boolean) {
  const first = bytes[offset];
  if (first === undefined || first === 0) throw new Error(`Bad EBML variable integer at ${offset}`);
  let length = 1;
  while (!(first & (0x80 >> (length - 1)))) length += 1;
  if (offset + length > bytes.length) throw new Error(`Truncated EBML integer at ${offset}`);
  let value = keepMarker ? first : first & (0xff >> length);
  let allOnes = value === 0xff >> length;
  for (let i = 1; i < length; i += 1) {
    const byte = bytes[offset + i]!;
    value = value * 256 + byte;
    if (byte !== 0xff) allOnes = false;
  }
  return { value, length, unknown: !keepMarker && allOnes };
}

/**
 * The elements found one after the other in `[from, to)`, at most `limit` of them (ffmpeg.js
 * hands its output files back with zero padding after the Segment: only its first two top-level
 * elements are read).
 */
export function readElements(
  bytes: Uint8Array,
  from = 0,
  to = bytes.length,
  limit = Infinity,
): EbmlElement[] {
  const elements: EbmlElement[] = [];
  let offset = from;
  while (offset < to && elements.length < limit) {
    const id = readVint(bytes, offset, true);
    const size = readVint(bytes, offset + id.length, false);
    const dataStart = offset + id.length + size.length;
    const end = size.unknown ? to : dataStart + size.value;
    if (end > to) throw new Error(`EBML element 0x${id.value.toString(16)} overruns its parent`);
    elements.push({ id: id.value, start: offset, dataStart, end });
    offset = end;
  }
  return elements;
}

function readUint(bytes: Uint8Array, element: EbmlElement): number {
  let value = 0;
  for (let i = element.dataStart; i < element.end; i += 1) value = value * 256 + bytes[i]!;
  return value;
}

export interface MediaSegment {
  /** Start time in milliseconds (the cluster's timecode scaled to ms). */
  startMs: number;
  bytes: Uint8Array;
}

export interface SplitWebm {
  init: Uint8Array;
  segments: MediaSegment[];
}

/** An unknown-size Segment header: the init segment then stands for the whole stream. */
const UNKNOWN_SEGMENT_HEADER = Uint8Array.of(
  0x18,
  0x53,
  0x80,
  0x67,
  0x01,
  0xff,
  0xff,
  0xff,
  0xff,
  0xff,
  0xff,
  0xff,
);

export function splitWebm(bytes: Uint8Array): SplitWebm {
  const top = readElements(bytes, 0, bytes.length, 2);
  const header = top.find((e) => e.id === EBML_ID);
  const segment = top.find((e) => e.id === SEGMENT_ID);
  if (!header || !segment) throw new Error('Not a WebM file: no EBML header or Segment');
  const children = readElements(bytes, segment.dataStart, segment.end);
  const info = children.find((e) => e.id === INFO_ID);
  const tracks = children.find((e) => e.id === TRACKS_ID);
  if (!info || !tracks) throw new Error('WebM Segment without Info or Tracks');
  const scale = readElements(bytes, info.dataStart, info.end).find(
    (e) => e.id === TIMECODE_SCALE_ID,
  );
  const nsPerTick = scale ? readUint(bytes, scale) : 1_000_000;
  const init = concat([
    bytes.subarray(header.start, header.end),
    UNKNOWN_SEGMENT_HEADER,
    bytes.subarray(info.start, info.end),
    bytes.subarray(tracks.start, tracks.end),
  ]);
  const segments = children
    .filter((e) => e.id === CLUSTER_ID)
    .map((cluster) => {
      const timecode = readElements(bytes, cluster.dataStart, cluster.end).find(
        (e) => e.id === TIMECODE_ID,
      );
      if (!timecode) throw new Error(`Cluster at ${cluster.start} has no Timecode`);
      return {
        startMs: Math.round((readUint(bytes, timecode) * nsPerTick) / 1_000_000),
        bytes: bytes.slice(cluster.start, cluster.end),
      };
    });
  if (segments.length === 0) throw new Error('WebM file without clusters');
  return { init, segments };
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

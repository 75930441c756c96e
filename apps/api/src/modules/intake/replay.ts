import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { badRequest } from '../../http/errors.js';
import { pathOfNul } from '../../http/nul-characters.js';
import { firstSchemaProblem } from './decode.js';
import type { MultipartPart } from './multipart.js';
import { MAX_INFLATED_BYTES } from './schemas.js';

const inflate = promisify(zlib.inflate);
const Id = Type.String({ minLength: 1, maxLength: 128 });

/**
 * The `event` part of a replay upload: the segment's metadata as `buildReplayPayload` in
 * @datadog/browser-rum writes it (sizes plus the segment context).
 */
export const ReplayMetadataSchema = Type.Object({
  application: Type.Optional(Type.Object({ id: Type.String({ maxLength: 128 }) })),
  session: Type.Object({ id: Id }),
  view: Type.Object({ id: Id }),
  start: Type.Number({ minimum: 0, description: 'Epoch ms of the first record' }),
  end: Type.Number({ minimum: 0 }),
  records_count: Type.Integer({ minimum: 0 }),
  index_in_view: Type.Integer({ minimum: 0 }),
  creation_reason: Type.Optional(Type.String({ maxLength: 64 })),
  has_full_snapshot: Type.Optional(Type.Boolean()),
  raw_segment_size: Type.Optional(Type.Integer({ minimum: 0 })),
  compressed_segment_size: Type.Optional(Type.Integer({ minimum: 0 })),
});
export type ReplayMetadata = Static<typeof ReplayMetadataSchema>;
const checkMetadata = Compile(ReplayMetadataSchema);

export interface ReplaySegment {
  metadata: ReplayMetadata;
  /** Records found in the inflated segment. */
  records: number;
  /** Bytes of the segment once inflated. */
  inflatedBytes: number;
}

/** The JSON object of a part, or a 400 naming the part. */
export function jsonPart(parts: MultipartPart[], name: string): Record<string, unknown> {
  const part = parts.find((candidate) => candidate.name === name);
  if (!part) throw badRequest(`body.${name}`, `multipart body has no "${name}" part`);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(part.data));
  } catch {
    throw badRequest(`body.${name}`, `the "${name}" part is not UTF-8 JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw badRequest(`body.${name}`, `the "${name}" part is not a JSON object`);
  }
  return value as Record<string, unknown>;
}

/**
 * Decodes a replay upload: the `event` part is validated, the `segment` part inflated (zlib, as
 * the SDK's deflate worker writes it) and read as `{"records":[…], …metadata}`. A segment that
 * does not inflate, is not JSON, or belongs to another session is refused with a 400.
 */
export async function decodeReplayUpload(parts: MultipartPart[]): Promise<ReplaySegment> {
  const event = jsonPart(parts, 'event');
  if (!checkMetadata.Check(event)) {
    const { field, problem } = firstSchemaProblem(checkMetadata, event);
    throw badRequest(
      `body.event${field ? `.${field}` : ''}`,
      `the "event" part is not replay metadata: ${field || 'event'} ${problem}`,
    );
  }
  // Metadata goes to columns, and PostgreSQL text cannot hold U+0000.
  const nul = pathOfNul(event);
  if (nul) {
    throw badRequest(
      `body.event.${nul.join('.')}`,
      `the "event" part's ${nul.join('.')} must not contain NUL (U+0000) characters`,
    );
  }
  const segment = parts.find((part) => part.name === 'segment');
  if (!segment) throw badRequest('body.segment', 'multipart body has no "segment" part');

  let inflated: Buffer;
  try {
    // The worker flushes with Z_SYNC_FLUSH between writes; a stream cut after one still reads.
    inflated = await inflate(segment.data, {
      maxOutputLength: MAX_INFLATED_BYTES,
      finishFlush: zlib.constants.Z_SYNC_FLUSH,
    });
  } catch {
    throw badRequest('body.segment', 'the "segment" part is not zlib deflate data');
  }
  let content: unknown;
  try {
    content = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(inflated));
  } catch {
    throw badRequest('body.segment', 'the "segment" part does not inflate to JSON');
  }
  const records = (content as { records?: unknown } | null)?.records;
  if (!Array.isArray(records)) {
    throw badRequest('body.segment', 'the "segment" part has no records array');
  }
  const segmentSession = (content as { session?: { id?: unknown } }).session?.id;
  if (segmentSession !== undefined && segmentSession !== event.session.id) {
    throw badRequest('body.segment', 'the "segment" part belongs to another session');
  }
  return { metadata: event, records: records.length, inflatedBytes: inflated.length };
}

import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { badRequest } from '../../http/errors.js';
import { jsonMayHoldNul, pathOfNul } from '../../http/nul-characters.js';
import { keptEventColumns } from './kept-events.js';
import { MAX_INFLATED_BYTES } from './schemas.js';

const inflate = promisify(zlib.inflate);

/** Where the SDK meant to send a batch: `ddforward=/api/v2/rum?ddsource=browser&dd-evp-encoding=deflate`. */
export interface ForwardedTarget {
  /** The last path segment: rum, replay, logs, exposures, flagevaluation. */
  track: string;
  /** Set when the body is zlib-deflated (`dd-evp-encoding=deflate`). */
  deflated: boolean;
}

const FORWARD_PATH = /^\/api\/v2\/([a-z][a-z0-9-]{0,40})$/;

export function parseForwardedTarget(ddforward: string): ForwardedTarget {
  let url: URL;
  try {
    url = new URL(ddforward, 'http://intake.invalid');
  } catch {
    throw badRequest('ddforward', 'ddforward is not a path');
  }
  const match = FORWARD_PATH.exec(url.pathname);
  if (url.origin !== 'http://intake.invalid' || !match?.[1]) {
    throw badRequest(
      'ddforward',
      `ddforward must be an intake path like /api/v2/rum, got "${url.pathname}"`,
    );
  }
  const encoding = url.searchParams.get('dd-evp-encoding');
  if (encoding !== null && encoding !== 'deflate') {
    throw badRequest('ddforward', `dd-evp-encoding "${encoding}" is not supported (only deflate)`);
  }
  return { track: match[1], deflated: encoding === 'deflate' };
}

/** The batch's text: inflated when the SDK compressed it, and always valid UTF-8. */
export async function decodeBody(body: Buffer, deflated: boolean): Promise<string> {
  let bytes = body;
  if (deflated) {
    try {
      bytes = await inflate(body, { maxOutputLength: MAX_INFLATED_BYTES });
    } catch (err) {
      const tooBig = (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
      throw badRequest(
        'body',
        tooBig
          ? `body inflates to more than ${MAX_INFLATED_BYTES} bytes`
          : 'body is not zlib deflate data (dd-evp-encoding=deflate)',
      );
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw badRequest('body', 'body is not UTF-8 text');
  }
}

/**
 * Parses newline-delimited JSON: one object per non-empty line. The first bad line rejects the
 * whole batch (400 naming the line), so a batch is stored entirely or not at all.
 */
export interface NdjsonEvent {
  /** 1-based line in the decoded body. */
  line: number;
  event: Record<string, unknown>;
  /** The line's JSON text (trimmed): stored as the event's payload instead of re-serializing it. */
  text: string;
}

export function parseNdjson(text: string): NdjsonEvent[] {
  const events: NdjsonEvent[] = [];
  const lines = text.split('\n');
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw badRequest(`body.line.${index + 1}`, `body line ${index + 1} is not JSON`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw badRequest(`body.line.${index + 1}`, `body line ${index + 1} is not a JSON object`);
    }
    events.push({ line: index + 1, event: value as Record<string, unknown>, text: line });
  });
  if (events.length === 0) throw badRequest('body', 'body holds no event');
  return events;
}

/** The first schema problem of a value: the dotted path of the field and what is wrong with it. */
export function firstSchemaProblem(
  validator: {
    Errors(value: unknown): Iterable<{ instancePath?: string; params?: unknown; message?: string }>;
  },
  value: unknown,
): { field: string; problem: string } {
  const [first] = validator.Errors(value);
  const parts = (first?.instancePath ?? '').split('/').filter(Boolean);
  const required = (first?.params as { requiredProperties?: string[] } | undefined)
    ?.requiredProperties;
  if (required?.[0]) parts.push(required[0]);
  return {
    field: parts.join('.'),
    problem: required?.[0] ? 'is required' : (first?.message ?? 'is invalid'),
  };
}

/**
 * Refuses a line holding U+0000 in any string or key (400 naming line and field): decoded
 * events go to columns, and PostgreSQL text cannot hold it. The parsed event is walked only
 * when its JSON text holds the escape.
 */
function refuseNul({ line, event, text }: NdjsonEvent, kind: string): void {
  const nul = jsonMayHoldNul(text) ? pathOfNul(event) : null;
  if (!nul) return;
  const field = nul.join('.');
  throw badRequest(
    `body.line.${line}.${field}`,
    `body line ${line} (${kind}): ${field} must not contain NUL (U+0000) characters`,
  );
}

/**
 * Refuses an event kept whole (telemetry, logs, unknown types) whose columns hold U+0000 (400
 * naming line and field): its type and session id go to intake_events columns, which
 * PostgreSQL text cannot hold it in; the rest is kept as JSON text, where it stays escaped.
 */
export function refuseNulInColumns({ line, event }: NdjsonEvent, kind: string): void {
  const { type, session } = keptEventColumns(event);
  const columns = [
    ['type', type],
    [session?.field, session?.id],
  ] as const;
  for (const [field, value] of columns) {
    if (value?.includes('\u0000')) {
      throw badRequest(
        `body.line.${line}.${field}`,
        `body line ${line} (${kind}): ${field} must not contain NUL (U+0000) characters`,
      );
    }
  }
}

/** A checker for one event kind: answers the typed events or a 400 naming line and field. */
export function createEventChecker<T extends TSchema>(schema: T, kind: string) {
  const validator = Compile(schema);
  return (events: NdjsonEvent[]) =>
    events.map(({ line, event, text }) => {
      if (validator.Check(event)) {
        refuseNul({ line, event, text }, kind);
        return event;
      }
      const { field, problem } = firstSchemaProblem(validator, event);
      throw badRequest(
        `body.line.${line}${field ? `.${field}` : ''}`,
        `body line ${line} (${kind}): ${field || 'event'} ${problem}`,
      );
    });
}

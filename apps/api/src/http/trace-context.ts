import type { IncomingHttpHeaders } from 'node:http';

/**
 * The trace a request continues, read from the headers the browser SDK injects
 * (`allowedTracingUrls` with the `tracecontext` and `datadog` propagators):
 * `traceparent: 00-<32 hex trace id>-<16 hex parent id>-<flags>` (W3C Trace Context §3.2), else
 * `x-datadog-trace-id` / `x-datadog-parent-id` (unsigned 64-bit decimals) with
 * `x-datadog-sampling-priority` and the upper 64 bits in `x-datadog-tags` `_dd.p.tid`.
 */
export interface ParentTrace {
  /** 32 lower-case hex digits. */
  traceId: string;
  /** The caller's span: 16 lower-case hex digits. */
  parentSpanId: string;
  sampled: boolean;
  propagator: 'tracecontext' | 'datadog';
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZEROS = /^0+$/;
const MAX_UINT64 = (1n << 64n) - 1n;
const DECIMAL_ID = /^[0-9]{1,20}$/;
const DD_TID = /(?:^|,)_dd\.p\.tid=([0-9a-f]{16})(?:,|$)/;
const MAX_TAGS_LENGTH = 512;

/** W3C traceparent; null when absent or invalid (an invalid one starts a new trace). */
export function parseTraceparent(value: string | string[] | undefined): ParentTrace | null {
  if (typeof value !== 'string') return null;
  const match = TRACEPARENT.exec(value.trim());
  if (!match) return null;
  const [, version, traceId, parentSpanId, flags, rest] = match;
  // Version ff is forbidden; version 00 has exactly four fields (later versions may add more).
  if (version === 'ff' || (version === '00' && rest !== undefined)) return null;
  if (!traceId || !parentSpanId || !flags || ZEROS.test(traceId) || ZEROS.test(parentSpanId)) {
    return null;
  }
  return {
    traceId,
    parentSpanId,
    sampled: (parseInt(flags, 16) & 1) === 1,
    propagator: 'tracecontext',
  };
}

/** Datadog's headers; null unless both ids are valid non-zero unsigned 64-bit decimals. */
export function parseDatadogHeaders(headers: IncomingHttpHeaders): ParentTrace | null {
  const traceLow = uint64(headers['x-datadog-trace-id']);
  const parent = uint64(headers['x-datadog-parent-id']);
  if (traceLow === null || parent === null) return null;
  const tags = headers['x-datadog-tags'];
  const high =
    typeof tags === 'string' && tags.length <= MAX_TAGS_LENGTH ? DD_TID.exec(tags)?.[1] : undefined;
  const priority = headers['x-datadog-sampling-priority'];
  return {
    traceId: (high ?? '0'.repeat(16)) + hex64(traceLow),
    parentSpanId: hex64(parent),
    // No priority means "let the tracer decide": keep the trace.
    sampled: typeof priority !== 'string' || !/^-?[0-9]+$/.test(priority) || Number(priority) > 0,
    propagator: 'datadog',
  };
}

/** traceparent wins when both are present and valid (W3C is the common format). */
export function extractParentTrace(headers: IncomingHttpHeaders): ParentTrace | null {
  return parseTraceparent(headers.traceparent) ?? parseDatadogHeaders(headers);
}

/** Datadog's log correlation ids are the decimal lower 64 bits (`dd.trace_id`, `dd.span_id`). */
export function datadogId(hexId: string): string {
  return BigInt(`0x${hexId.slice(-16)}`).toString(10);
}

/** The fields a request's log lines carry: W3C ids and Datadog's decimal ones. */
export function traceLogBindings(traceId: string, spanId: string) {
  return {
    trace_id: traceId,
    span_id: spanId,
    dd: { trace_id: datadogId(traceId), span_id: datadogId(spanId) },
  };
}

function uint64(value: string | string[] | undefined): bigint | null {
  if (typeof value !== 'string' || !DECIMAL_ID.test(value)) return null;
  const id = BigInt(value);
  return id === 0n || id > MAX_UINT64 ? null : id;
}

function hex64(id: bigint): string {
  return id.toString(16).padStart(16, '0');
}

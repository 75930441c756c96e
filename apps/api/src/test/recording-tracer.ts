import type { ChildSpan, RequestTracer, SpanAttributes } from '../http/request-tracing.js';

/** An exception event of a span: the error's name and message plus the caller's attributes. */
export interface RecordedError {
  type: string;
  message: string;
  attributes: SpanAttributes;
}

/** A span started under a request's server span (a database query), once it ended. */
export interface RecordedChildSpan {
  name: string;
  attributes: Record<string, unknown>;
  /** Wall-clock milliseconds from start to end. */
  durationMs: number;
  errors: RecordedError[];
}

/** A server span as an exporter would receive it. */
export interface RecordedSpan {
  traceId: string;
  parent: string | null;
  statusCode: number;
  route?: string;
  attributes: Record<string, unknown>;
  /** Set by recordError (an error status whatever the HTTP status). */
  errors: RecordedError[];
  /** Its child spans, in the order they ended. */
  children: RecordedChildSpan[];
}

const toRecordedError = (error: Error, attributes: SpanAttributes = {}): RecordedError => ({
  type: error.name,
  message: error.message,
  attributes,
});

/**
 * A tracer that records each ended span in `ended`, so a test sees what the OTLP tracer is
 * handed. Trace ids continue the parent's, else are all `f`s; span ids are `…aa`.
 */
export function createRecordingTracer(): { tracer: RequestTracer; ended: RecordedSpan[] } {
  const ended: RecordedSpan[] = [];
  const tracer: RequestTracer = {
    startSpan: (_request, parent) => {
      const attributes: Record<string, unknown> = {};
      const errors: RecordedError[] = [];
      const children: RecordedChildSpan[] = [];
      const span = {
        traceId: parent?.traceId ?? 'f'.repeat(32),
        spanId: '00000000000000aa',
        setAttributes: (more: Record<string, unknown>) => void Object.assign(attributes, more),
        recordError: (error: Error, more?: SpanAttributes) =>
          void errors.push(toRecordedError(error, more)),
        startChild: (name: string, initial: SpanAttributes = {}): ChildSpan => {
          const started = performance.now();
          const child: RecordedChildSpan = {
            name,
            attributes: { ...initial },
            durationMs: 0,
            errors: [],
          };
          return {
            setAttributes: (more) => void Object.assign(child.attributes, more),
            recordError: (error, more) => void child.errors.push(toRecordedError(error, more)),
            end: () => {
              child.durationMs = performance.now() - started;
              children.push(child);
            },
          };
        },
        end: (result: { statusCode: number; route: string | undefined }) =>
          void ended.push({
            traceId: span.traceId,
            parent: parent?.parentSpanId ?? null,
            statusCode: result.statusCode,
            route: result.route,
            attributes,
            errors,
            children,
          }),
      };
      return span;
    },
    shutdown: () => Promise.resolve(),
  };
  return { tracer, ended };
}

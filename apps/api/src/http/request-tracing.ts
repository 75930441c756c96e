import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { randomHex } from './random-bytes.js';
import { extractParentTrace, traceLogBindings, type ParentTrace } from './trace-context.js';

/** Span attribute values: flat, as OpenTelemetry takes them. */
export type SpanAttributes = Record<string, string | number | boolean>;

/**
 * A span inside a request's server span: one unit of work worth seeing on its own in the trace
 * (a database query). Ends once, with `end()`.
 */
export interface ChildSpan {
  setAttributes(attributes: SpanAttributes): void;
  /** The work failed: status error and an exception event carrying `error`'s name and message. */
  recordError(error: Error, attributes?: SpanAttributes): void;
  end(): void;
}

/** The server span of one request. */
export interface RequestSpan {
  traceId: string;
  spanId: string;
  /** Attributes learnt while handling the request (the persona: `usr.id`, `usr.tier`). */
  setAttributes(attributes: Record<string, string | number | boolean>): void;
  /**
   * The request failed because of `error` even when its answer is a 4xx (a declined payment
   * caused by a fault flag, decision 010): status error and an exception event.
   */
  recordError(error: Error, attributes?: SpanAttributes): void;
  /** Starts a span under this one, named for what it does (`SELECT cart_lines`). */
  startChild(name: string, attributes?: SpanAttributes): ChildSpan;
  end(result: { statusCode: number; route: string | undefined }): void;
}

/** A child span that records nothing (the default tracer only mints ids). */
export const noopChildSpan: ChildSpan = {
  setAttributes: () => {},
  recordError: () => {},
  end: () => {},
};

/**
 * Starts a request's server span under the browser's trace (or a new trace). The default one
 * only mints ids so logs correlate; `createOtlpTracer` also exports the spans.
 */
export interface RequestTracer {
  startSpan(request: { method: string; url: string }, parent: ParentTrace | null): RequestSpan;
  shutdown(): Promise<void>;
}

export const idOnlyTracer: RequestTracer = {
  startSpan: (_request, parent) => ({
    traceId: parent?.traceId ?? randomHex(16),
    spanId: randomHex(8),
    setAttributes: () => {},
    recordError: () => {},
    startChild: () => noopChildSpan,
    end: () => {},
  }),
  shutdown: () => Promise.resolve(),
};

export interface RequestTrace {
  parent: ParentTrace | null;
  span: RequestSpan;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The trace this request belongs to (set before any hook runs). */
    trace: RequestTrace | null;
  }
}

const traces = new WeakMap<IncomingMessage, RequestTrace>();

/**
 * Fastify's `childLoggerFactory`: reads the request's trace headers when Fastify creates the
 * request's logger — before its first log line ("incoming request") — and binds `trace_id`,
 * `span_id` and Datadog's `dd.trace_id` / `dd.span_id` to every line the request logs.
 */
export function tracingChildLoggerFactory(
  tracer: RequestTracer,
): NonNullable<FastifyServerOptions['childLoggerFactory']> {
  return function childLoggerFactory(logger, bindings, options, rawRequest) {
    const request = rawRequest as IncomingMessage;
    let trace: RequestTrace | undefined;
    try {
      const parent = extractParentTrace(request.headers);
      const span = tracer.startSpan(
        { method: request.method ?? 'GET', url: (request.url ?? '/').split('?')[0] ?? '/' },
        parent,
      );
      trace = { parent, span };
      traces.set(request, trace);
    } catch (err) {
      logger.warn({ err }, 'could not start the request span');
    }
    const childBindings = () =>
      trace
        ? { ...bindings, ...traceLogBindings(trace.span.traceId, trace.span.spanId) }
        : bindings;
    return lazyChild(logger, childBindings, options);
  };
}

type Logger = Parameters<NonNullable<FastifyServerOptions['childLoggerFactory']>>[0];
type ChildOptions = Parameters<NonNullable<FastifyServerOptions['childLoggerFactory']>>[2];
type LevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
const LEVELS: readonly LevelName[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];

/**
 * The request's child logger, created on its first enabled log line. Creating a pino child
 * serializes (and redacts) its bindings; with LOG_LEVEL=warn most requests log nothing, so that
 * work is skipped for them. Every line the request does log still carries the trace ids
 * (docs/architecture.md "Monitoring").
 */
function lazyChild(logger: Logger, bindings: () => object, options: ChildOptions): Logger {
  const values = (logger as { levels?: { values?: Record<string, number> } }).levels?.values;
  // A logger without pino's levels (Fastify's null logger in tests): its child is free.
  if (!values) return logger.child(bindings(), options);
  const threshold = values[options.level ?? logger.level] ?? 0;
  let real: Logger | undefined;
  const child = (): Logger => (real ??= logger.child(bindings(), options));
  const noop = () => {};
  const forward =
    (level: LevelName) =>
    (...args: unknown[]) =>
      (child()[level] as (...a: unknown[]) => void)(...args);
  const lazy: Record<string, unknown> = {
    child: (more: Parameters<Logger['child']>[0], moreOptions?: ChildOptions) =>
      child().child(more, moreOptions),
  };
  for (const level of LEVELS) {
    lazy[level] = (values[level] ?? 0) >= threshold ? forward(level) : noop;
  }
  // Anything else (level, bindings(), flush()…) goes to the real child; once something is set
  // on it (a new level), every line goes through it.
  return new Proxy(lazy, {
    get: (target, key) => (key in target ? target[key as string] : Reflect.get(child(), key)),
    set: (target, key, value) => {
      for (const level of LEVELS) target[level] = forward(level);
      return Reflect.set(child(), key, value);
    },
  }) as unknown as Logger;
}

/** Hands each request its trace (onRequest) and ends its span with the outcome (onResponse). */
export function registerRequestTracing(app: FastifyInstance): void {
  app.decorateRequest('trace', null);
  // Callback hooks: on every request, an async hook would cost a promise each.
  app.addHook('onRequest', (request, _reply, done) => {
    request.trace = traces.get(request.raw) ?? null;
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    request.trace?.span.end({ statusCode: reply.statusCode, route: request.routeOptions.url });
    done();
  });
}

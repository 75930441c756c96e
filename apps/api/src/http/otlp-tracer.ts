import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  TraceFlags,
  trace,
  type Span,
} from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ChildSpan, RequestTracer, SpanAttributes } from './request-tracing.js';

/**
 * Exports each request's server span over OTLP/HTTP (JSON). The exporter reads the standard
 * OTEL_EXPORTER_OTLP_ENDPOINT / OTEL_EXPORTER_OTLP_TRACES_ENDPOINT / OTEL_EXPORTER_OTLP_HEADERS;
 * spans continue the browser's trace (parent-based sampling honours its sampled flag).
 */
export function createOtlpTracer(options: {
  serviceName: string;
  version?: string;
  /** OTLP/HTTP traces URL; by default the exporter reads the OTEL_EXPORTER_OTLP_* variables. */
  url?: string;
}): RequestTracer {
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      'service.name': options.serviceName,
      ...(options.version ? { 'service.version': options.version } : {}),
    }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter(options.url ? { url: options.url } : {})),
    ],
  });
  const tracer = provider.getTracer('showroom-api');
  return {
    startSpan(request, parent) {
      const parentContext = parent
        ? trace.setSpanContext(ROOT_CONTEXT, {
            traceId: parent.traceId,
            spanId: parent.parentSpanId,
            traceFlags: parent.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
            isRemote: true,
          })
        : ROOT_CONTEXT;
      const span = tracer.startSpan(
        request.method,
        {
          kind: SpanKind.SERVER,
          attributes: { 'http.request.method': request.method, 'url.path': request.url },
        },
        parentContext,
      );
      const { traceId, spanId } = span.spanContext();
      const spanContext = trace.setSpan(parentContext, span);
      // A recorded error keeps its message: the 5xx status below does not replace it.
      let errored = false;
      return {
        traceId,
        spanId,
        setAttributes(attributes) {
          span.setAttributes(attributes);
        },
        recordError(error, attributes) {
          errored = true;
          recordError(span, error, attributes);
        },
        startChild(name, attributes): ChildSpan {
          const child = tracer.startSpan(
            name,
            { kind: SpanKind.CLIENT, ...(attributes ? { attributes } : {}) },
            spanContext,
          );
          return {
            setAttributes: (more) => void child.setAttributes(more),
            recordError: (error, more) => recordError(child, error, more),
            end: () => child.end(),
          };
        },
        end({ statusCode, route }) {
          if (route) {
            span.updateName(`${request.method} ${route}`);
            span.setAttribute('http.route', route);
          }
          span.setAttribute('http.response.status_code', statusCode);
          if (statusCode >= 500 && !errored) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        },
      };
    },
    shutdown: () => provider.shutdown(),
  };
}

/**
 * Status error with the error's message, and an `exception` event as OpenTelemetry's semantic
 * conventions name it (`exception.type`, `exception.message`) with the caller's attributes.
 */
function recordError(span: Span, error: Error, attributes?: SpanAttributes): void {
  span.addEvent('exception', {
    'exception.type': error.name,
    'exception.message': error.message,
    ...attributes,
  });
  span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
}

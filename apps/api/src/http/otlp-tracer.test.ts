import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { DEFAULT_FLAGS_PATH, readFlagDefinitions } from '../modules/flags/definitions.js';
import { createFlagsRepository } from '../modules/flags/repository.js';
import { createOtlpTracer } from './otlp-tracer.js';
import type { RequestTracer } from './request-tracing.js';

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  status?: { code?: number; message?: string };
  events?: { name: string; attributes: { key: string; value: { stringValue?: string } }[] }[];
}

/** A minimal OTLP/HTTP (JSON) traces receiver on loopback: collects what the exporter sends. */
function startCollector() {
  const spans: OtlpSpan[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const payload = JSON.parse(body) as {
        resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
      };
      for (const resource of payload.resourceSpans)
        for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise<{ url: string; spans: OtlpSpan[]; close: () => void }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}/v1/traces`, spans, close: () => server.close() });
    });
  });
}

let testDb: TestDatabase;
let collector: Awaited<ReturnType<typeof startCollector>>;
let tracer: RequestTracer;
let app: FastifyInstance;

beforeAll(async () => {
  testDb = await createTestDatabase();
  collector = await startCollector();
  tracer = createOtlpTracer({ serviceName: 'showroom-api-test', url: collector.url });
  app = await buildApp({ database: testDb.database, tracer });
});

afterAll(async () => {
  await app.close();
  collector.close();
  await testDb.destroy();
});

describe('OTLP span export', () => {
  it("exports the request's server span in the browser's trace", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentSpanId = '00f067aa0ba902b7';
    const res = await app.inject({
      method: 'GET',
      url: '/health',
      headers: { traceparent: `00-${traceId}-${parentSpanId}-01` },
    });
    expect(res.statusCode).toBe(200);
    await tracer.shutdown(); // flushes the batch
    const span = collector.spans.find((candidate) => candidate.traceId === traceId);
    expect(span).toMatchObject({ traceId, parentSpanId, name: 'GET /health' });
  });
});

describe('OTLP export of child spans and recorded errors (decision 010)', () => {
  it('exports the cart query under the server span, and a fault error with its event', async () => {
    await createFlagsRepository(testDb.database.db).syncDefinitions(
      await readFlagDefinitions(DEFAULT_FLAGS_PATH),
    );
    const faultTracer = createOtlpTracer({ serviceName: 'showroom-api-test', url: collector.url });
    const faultApp = await buildApp({ database: testDb.database, tracer: faultTracer });
    try {
      const enabled = await faultApp.inject({
        method: 'PATCH',
        url: '/flags/fault_recommendations_error',
        payload: { enabled: true },
      });
      expect(enabled.statusCode).toBe(200);
      const cartTrace = '4bf92f3577b34da6a3ce929d0e0e4737';
      const failedTrace = '4bf92f3577b34da6a3ce929d0e0e4738';
      const parent = '00f067aa0ba902b7';
      await faultApp.inject({
        method: 'GET',
        url: '/cart',
        headers: { traceparent: `00-${cartTrace}-${parent}-01` },
      });
      const failed = await faultApp.inject({
        method: 'GET',
        url: '/products/1/recommendations',
        headers: { traceparent: `00-${failedTrace}-${parent}-01` },
      });
      expect(failed.statusCode).toBe(503);
      await faultTracer.shutdown();

      const server = collector.spans.find((s) => s.traceId === cartTrace && s.name === 'GET /cart');
      const query = collector.spans.find(
        (s) => s.traceId === cartTrace && s.name === 'SELECT cart_lines',
      );
      expect(query?.parentSpanId).toBe(server?.spanId);

      const errored = collector.spans.find((s) => s.traceId === failedTrace);
      expect(errored?.status).toMatchObject({
        code: 2, // ERROR
        message: 'Recommendations are not available right now',
      });
      const exception = errored?.events?.find((event) => event.name === 'exception');
      expect(exception?.attributes).toEqual(
        expect.arrayContaining([
          { key: 'exception.type', value: { stringValue: 'ApiError' } },
          { key: 'fault.flag', value: { stringValue: 'fault_recommendations_error' } },
        ]),
      );
    } finally {
      await faultApp.close();
    }
  });
});

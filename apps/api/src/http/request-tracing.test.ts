import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { createRecordingTracer } from '../test/recording-tracer.js';

const WEB_ORIGIN = 'http://localhost:3000';
const TRACE_ID = '0000000000000000576cf2ef9de2b2a4';
const PARENT_ID = '5cb2a7e3e1b0a1f4';
/** The headers the browser SDK adds to a traced call (RUM SDK `allowedTracingUrls` with the tracecontext and datadog propagators). */
const TRACING_HEADERS = [
  'traceparent',
  'tracestate',
  'x-datadog-trace-id',
  'x-datadog-parent-id',
  'x-datadog-origin',
  'x-datadog-sampling-priority',
  'baggage',
];

interface LogLine {
  msg?: string;
  reqId?: string;
  trace_id?: string;
  span_id?: string;
  dd?: { trace_id?: string; span_id?: string };
  req?: { url?: string };
}

let testDb: TestDatabase;
let app: FastifyInstance;
const lines: LogLine[] = [];
const { tracer: recordingTracer, ended } = createRecordingTracer();

beforeAll(async () => {
  testDb = await createTestDatabase();
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        lines.push(JSON.parse(line) as LogLine);
      }
      done();
    },
  });
  app = await buildApp({
    database: testDb.database,
    corsOrigins: [WEB_ORIGIN],
    logger: { level: 'info', stream },
    tracer: recordingTracer,
  });
});

afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

describe('tracing: the api continues the browser trace', () => {
  it('allows the tracing headers in a CORS preflight', async () => {
    const res = await app.inject({
      method: 'OPTIONS',
      url: '/monitoring/stats',
      headers: {
        origin: WEB_ORIGIN,
        'access-control-request-method': 'GET',
        'access-control-request-headers': TRACING_HEADERS.join(', '),
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(WEB_ORIGIN);
    const allowed = String(res.headers['access-control-allow-headers'] ?? '')
      .split(',')
      .map((header) => header.trim().toLowerCase());
    expect(allowed).toEqual(expect.arrayContaining(TRACING_HEADERS));
  });

  it("logs the request with the browser's trace id (W3C and Datadog forms)", async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/monitoring/stats',
      headers: {
        origin: WEB_ORIGIN,
        traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`,
        tracestate: 'dd=s:1;o:rum',
      },
    });
    expect(res.statusCode).toBe(200);
    const logged = lines.filter((line) => line.trace_id === TRACE_ID);
    expect(logged.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
    expect(logged[0]).toMatchObject({
      span_id: '00000000000000aa',
      dd: { trace_id: BigInt(`0x${TRACE_ID}`).toString(10), span_id: '170' },
      req: { url: '/monitoring/stats' },
    });
    expect(ended).toContainEqual({
      traceId: TRACE_ID,
      parent: PARENT_ID,
      statusCode: 200,
      route: '/monitoring/stats',
      attributes: {},
      errors: [],
      children: [],
    });
  });

  it('continues x-datadog-* headers when there is no traceparent', async () => {
    await app.inject({
      method: 'GET',
      url: '/health',
      headers: {
        'x-datadog-trace-id': BigInt(`0x${TRACE_ID.slice(16)}`).toString(10),
        'x-datadog-parent-id': BigInt(`0x${PARENT_ID}`).toString(10),
        'x-datadog-origin': 'rum',
        'x-datadog-sampling-priority': '1',
      },
    });
    expect(ended).toContainEqual(
      expect.objectContaining({ traceId: TRACE_ID, parent: PARENT_ID, route: '/health' }),
    );
  });

  it('starts a new trace for a request without (valid) trace headers, and still logs its ids', async () => {
    const before = lines.length;
    await app.inject({ method: 'GET', url: '/health', headers: { traceparent: 'garbage' } });
    const logged = lines.slice(before);
    expect(logged.length).toBeGreaterThan(0);
    for (const line of logged) expect(line.trace_id).toBe('f'.repeat(32));
    expect(ended.at(-1)).toMatchObject({ parent: null, statusCode: 200 });
  });
});

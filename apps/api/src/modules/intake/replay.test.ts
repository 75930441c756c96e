import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { multipartBoundary, parseMultipart } from './multipart.js';

const RECEIVED_AT = Date.UTC(2026, 0, 15, 12);
const REPLAY = '/api/v2/replay?ddsource=browser&dd-api-key=pub&dd-evp-origin=browser';

let testDb: TestDatabase;
let app: FastifyInstance;

beforeAll(async () => {
  testDb = await createTestDatabase();
  app = await buildApp({ database: testDb.database, flags: { now: () => RECEIVED_AT } });
});

afterAll(async () => {
  await app.close();
  await testDb.destroy();
});

function metadata(sessionId: string, overrides: Record<string, unknown> = {}) {
  return {
    application: { id: 'app-1' },
    session: { id: sessionId },
    view: { id: `${sessionId}-view` },
    start: 1_767_225_600_000,
    end: 1_767_225_605_000,
    creation_reason: 'init',
    records_count: 2,
    has_full_snapshot: true,
    index_in_view: 0,
    source: 'browser',
    ...overrides,
  };
}

/** A segment as the SDK's deflate worker writes it: `{"records":[…],<metadata>}\n`, deflated. */
function segment(meta: ReturnType<typeof metadata>, records = [{ type: 4 }, { type: 2 }]) {
  const text = `{"records":[${records.map((r) => JSON.stringify(r)).join(',')}],${JSON.stringify(meta).slice(1)}\n`;
  return zlib.deflateSync(text);
}

/** The body and content-type a browser's FormData makes (the SDK's buildReplayPayload). */
async function replayUpload(segmentBytes: Buffer, event: unknown) {
  const form = new FormData();
  form.append('segment', new Blob([segmentBytes], { type: 'application/octet-stream' }), 'seg');
  form.append('event', new Blob([JSON.stringify(event)], { type: 'application/json' }));
  const response = new Response(form);
  return {
    body: Buffer.from(await response.arrayBuffer()),
    contentType: response.headers.get('content-type') ?? '',
  };
}

const post = (forward: string, body: Buffer, contentType: string) =>
  app.inject({
    method: 'POST',
    url: `/intake?ddforward=${encodeURIComponent(forward)}`,
    headers: { 'content-type': contentType },
    payload: body,
  });

async function rows(sessionId: string) {
  const db = testDb.database.db;
  return {
    session: await db
      .selectFrom('rum_sessions')
      .select(['id', 'has_replay', 'first_seen'])
      .where('id', '=', sessionId)
      .executeTakeFirst(),
    events: await db
      .selectFrom('rum_events')
      .select(['event_type', 'view_id', 'payload'])
      .where('session_id', '=', sessionId)
      .execute(),
  };
}

describe('multipart parsing', () => {
  it('reads the boundary, quoted or not, and refuses a missing one', () => {
    expect(multipartBoundary('multipart/form-data; boundary=----WebKitFormBoundaryA1')).toBe(
      '----WebKitFormBoundaryA1',
    );
    expect(multipartBoundary('multipart/form-data; charset=utf-8; boundary="a b"')).toBe('a b');
    expect(() => multipartBoundary('multipart/form-data')).toThrow(/boundary/);
    expect(() => multipartBoundary(`multipart/form-data; boundary=${'x'.repeat(71)}`)).toThrow();
  });

  it('splits parts with names, file names and types, and keeps binary data intact', async () => {
    const bytes = Buffer.from([0, 13, 10, 45, 45, 255]);
    const { body, contentType } = await replayUpload(bytes, { hello: 'world' });
    const parts = parseMultipart(body, multipartBoundary(contentType));
    expect(
      parts.map(({ name, filename, contentType: type }) => ({ name, filename, type })),
    ).toEqual([
      { name: 'segment', filename: 'seg', type: 'application/octet-stream' },
      { name: 'event', filename: 'blob', type: 'application/json' },
    ]);
    expect(parts[0]?.data.equals(bytes)).toBe(true);
    expect(JSON.parse(parts[1]?.data.toString() ?? '')).toEqual({ hello: 'world' });
  });

  it.each([
    ['no boundary at all', 'hello'],
    ['no closing boundary', '--b\r\ncontent-disposition: form-data; name="x"\r\n\r\ndata'],
    ['a part without a name', '--b\r\ncontent-type: text/plain\r\n\r\ndata\r\n--b--'],
    ['a part without the end of its headers', '--b\r\ncontent-disposition: form-data; name="x"'],
  ])('refuses %s', (_case, text) => {
    expect(() => parseMultipart(Buffer.from(text), 'b')).toThrow(/multipart body/);
  });

  it('refuses more than 16 parts', () => {
    const part = '--b\r\ncontent-disposition: form-data; name="x"\r\n\r\n1\r\n';
    expect(() => parseMultipart(Buffer.from(`${part.repeat(17)}--b--`), 'b')).toThrow(/parts/);
  });
});

describe('POST /intake — replay segments (multipart/form-data)', () => {
  it('decodes the deflated segment and the event part, and marks the session as replayed', async () => {
    const meta = metadata('s-replay');
    const { body, contentType } = await replayUpload(segment(meta), {
      ...meta,
      raw_segment_size: 120,
      compressed_segment_size: 80,
    });
    const res = await post(REPLAY, body, contentType);
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ track: 'replay', accepted: 1 });

    const stored = await rows('s-replay');
    expect(stored.session).toMatchObject({ id: 's-replay', has_replay: 1 });
    expect(Number(stored.session?.first_seen)).toBe(meta.start);
    expect(stored.events).toHaveLength(1);
    expect(stored.events[0]).toMatchObject({ event_type: 'replay', view_id: 's-replay-view' });
    expect(JSON.parse(stored.events[0]?.payload ?? '{}')).toMatchObject({
      records_count: 2,
      decoded: { records: 2 },
    });
  });

  it('reads a segment cut after a sync flush (no final deflate block)', async () => {
    const meta = metadata('s-flush');
    const text = `{"records":[{"type":4}],${JSON.stringify(meta).slice(1)}\n`;
    const deflate = zlib.createDeflate();
    const chunks: Buffer[] = [];
    deflate.on('data', (chunk: Buffer) => chunks.push(chunk));
    deflate.write(text);
    await new Promise<void>((resolve) =>
      deflate.flush(zlib.constants.Z_SYNC_FLUSH, () => resolve()),
    );
    const { body, contentType } = await replayUpload(Buffer.concat(chunks), {
      ...meta,
      records_count: 1,
    });
    expect((await post(REPLAY, body, contentType)).statusCode).toBe(202);
    deflate.destroy();
  });

  it.each([
    ['a segment that is not deflate data', () => Buffer.from('not deflated'), {}, 'body.segment'],
    [
      'a segment that is not JSON',
      () => zlib.deflateSync('{"records":[{"type":'),
      {},
      'body.segment',
    ],
    ['a segment of another session', () => segment(metadata('someone-else')), {}, 'body.segment'],
    [
      'event metadata without a view',
      () => segment(metadata('s-bad')),
      { view: undefined },
      'body.event.view',
    ],
  ])('answers 400 for %s and stores nothing', async (_case, makeSegment, eventOverrides, field) => {
    const meta = metadata('s-bad');
    const { body, contentType } = await replayUpload(makeSegment(), {
      ...meta,
      ...eventOverrides,
    });
    const res = await post(REPLAY, body, contentType);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', field });
    expect(await rows('s-bad')).toEqual({ session: undefined, events: [] });
  });

  it('answers 400 for a multipart body without boundary or with a broken one', async () => {
    const { body } = await replayUpload(segment(metadata('s-x')), metadata('s-x'));
    expect((await post(REPLAY, body, 'multipart/form-data')).statusCode).toBe(400);
    const broken = await post(REPLAY, body, 'multipart/form-data; boundary=not-the-boundary');
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.field).toBe('body');
  });

  it('keeps the event part of another upload (a profile) as an intake event', async () => {
    const form = new FormData();
    form.append('event', new Blob([JSON.stringify({ session: { id: 's-prof' }, format: 'json' })]));
    form.append('wall-time.json', new Blob(['{}']), 'wall-time.json');
    const response = new Response(form);
    const res = await post(
      '/api/v2/profile?ddsource=browser',
      Buffer.from(await response.arrayBuffer()),
      response.headers.get('content-type') ?? '',
    );
    expect(res.statusCode).toBe(202);
    const stored = await testDb.database.db
      .selectFrom('intake_events')
      .select(['track', 'session_id'])
      .where('session_id', '=', 's-prof')
      .execute();
    expect(stored).toEqual([{ track: 'profile', session_id: 's-prof' }]);
  });
});

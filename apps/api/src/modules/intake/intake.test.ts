import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { MAX_INTAKE_BODY_BYTES } from './schemas.js';

const RECEIVED_AT = Date.UTC(2026, 0, 15, 12);

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

/** POST as browser-core's proxy transport does: `?ddforward=<encoded intake path>`, text/plain. */
const send = (forward: string, body: string | Buffer, contentType = 'text/plain;charset=UTF-8') =>
  app.inject({
    method: 'POST',
    url: `/intake?ddforward=${encodeURIComponent(forward)}`,
    headers: { 'content-type': contentType },
    payload: body,
  });

const ndjson = (events: unknown[]) => events.map((event) => JSON.stringify(event)).join('\n');

function exposure(subject: string, variant = 'on') {
  return {
    allocation: { key: 'rollout' },
    flag: { key: 'new_checkout_flow' },
    variant: { key: variant },
    subject: { id: subject, attributes: { team: 'sales', useNewCheckoutFlow: true } },
    service: 'showroom-web',
    rum: { application: { id: 'app' }, view: { url: 'http://localhost:3000/' } },
    timestamp: 1_767_225_600_123,
  };
}

async function storedCounts() {
  const db = testDb.database.db;
  const count = async (table: 'flag_exposures' | 'flag_evaluations' | 'intake_events') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string | number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    exposures: await count('flag_exposures'),
    evaluations: await count('flag_evaluations'),
    events: await count('intake_events'),
  };
}

describe('POST /intake — exposures and flag evaluations', () => {
  it('stores an NDJSON batch of exposures', async () => {
    const res = await send(
      '/api/v2/exposures?ddsource=browser&dd-api-key=pub',
      `${ndjson([exposure('bob'), exposure('eve', 'off')])}\n`,
    );
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ track: 'exposures', accepted: 2 });
    const rows = await testDb.database.db
      .selectFrom('flag_exposures')
      .selectAll()
      .where('subject_id', 'in', ['bob', 'eve'])
      .orderBy('subject_id')
      .execute();
    expect(
      rows.map((row) => ({
        ...row,
        id: undefined,
        timestamp: Number(row.timestamp),
        received_at: Number(row.received_at),
      })),
    ).toEqual([
      {
        id: undefined,
        flag_key: 'new_checkout_flow',
        allocation_key: 'rollout',
        variant_key: 'on',
        subject_id: 'bob',
        subject_attributes: JSON.stringify({ team: 'sales', useNewCheckoutFlow: true }),
        timestamp: 1_767_225_600_123,
        service: 'showroom-web',
        received_at: RECEIVED_AT,
      },
      expect.objectContaining({ subject_id: 'eve', variant_key: 'off' }),
    ]);
  });

  it('stores a deflated batch of flag evaluations', async () => {
    const event = {
      flag: { key: 'show_payments' },
      first_evaluation: 1_767_225_600_000,
      last_evaluation: 1_767_225_601_000,
      evaluation_count: 3,
      runtime_default_used: false,
      timestamp: 1_767_225_602_000,
      targeting_key: 'bob',
      variant: { key: 'on' },
      allocation: { key: 'engineering-team' },
      context: { evaluation: { team: 'engineering' }, dd: { service: 'showroom-web' } },
    };
    const res = await send(
      '/api/v2/flagevaluation?ddsource=browser&dd-evp-encoding=deflate',
      zlib.deflateSync(
        ndjson([
          event,
          {
            ...event,
            flag: { key: 'show_loaf' },
            variant: undefined,
            runtime_default_used: true,
            error: { message: 'FLAG_NOT_FOUND' },
          },
        ]),
      ),
    );
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ track: 'flagevaluation', accepted: 2 });
    const rows = await testDb.database.db
      .selectFrom('flag_evaluations')
      .selectAll()
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      expect.objectContaining({
        flag_key: 'show_payments',
        variant_key: 'on',
        allocation_key: 'engineering-team',
        targeting_key: 'bob',
        evaluation_count: 3,
        runtime_default_used: 0,
        error_message: null,
        context: JSON.stringify(event.context),
      }),
      expect.objectContaining({
        flag_key: 'show_loaf',
        variant_key: null,
        runtime_default_used: 1,
        error_message: 'FLAG_NOT_FOUND',
      }),
    ]);
    expect(Number(rows[0]?.first_evaluation)).toBe(1_767_225_600_000);
  });
});

describe('POST /intake — other tracks', () => {
  it('keeps telemetry from the rum track and logs event by event, with type and session id', async () => {
    const telemetry = {
      type: 'telemetry',
      date: 1,
      session: { id: 'sess-1' },
      telemetry: { type: 'configuration' },
    };
    const rum = await send(
      '/api/v2/rum?ddsource=browser&dd-evp-encoding=deflate',
      zlib.deflateSync(ndjson([telemetry])),
    );
    expect(rum.statusCode).toBe(202);
    expect(rum.json()).toEqual({ track: 'rum', accepted: 1 });
    const logs = await send(
      '/api/v2/logs?ddsource=browser',
      ndjson([{ message: 'hi', status: 'info', session_id: 'sess-2' }]),
    );
    expect(logs.statusCode).toBe(202);

    const rows = await testDb.database.db
      .selectFrom('intake_events')
      .selectAll()
      .orderBy('id')
      .execute();
    expect(
      rows.map(({ track, event_type, session_id }) => ({ track, event_type, session_id })),
    ).toEqual([
      { track: 'rum', event_type: 'telemetry', session_id: 'sess-1' },
      { track: 'logs', event_type: null, session_id: 'sess-2' },
    ]);
    expect(JSON.parse(rows[0]?.payload ?? '')).toEqual(telemetry);
    expect(Number(rows[0]?.received_at)).toBe(RECEIVED_AT);
  });

  it('refuses an event kept whole whose type or session id holds NUL, and keeps NUL elsewhere', async () => {
    const before = await storedCounts();
    const cases: [string, Record<string, unknown>, string][] = [
      ['/api/v2/rum?ddsource=browser', { type: 'tele\u0000metry', date: 1 }, 'body.line.1.type'],
      [
        '/api/v2/rum?ddsource=browser',
        { type: 'telemetry', session: { id: 's\u0000' } },
        'body.line.1.session.id',
      ],
      [
        '/api/v2/logs?ddsource=browser',
        { message: 'x', session_id: '\u0000' },
        'body.line.1.session_id',
      ],
    ];
    for (const [forward, event, field] of cases) {
      const res = await send(forward, ndjson([event]));
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'VALIDATION_ERROR', field });
    }
    expect(await storedCounts()).toEqual(before);
    const message = { message: 'a\u0000b', status: 'info', session_id: 'sess-nul' };
    const kept = await send('/api/v2/logs?ddsource=browser', ndjson([message]));
    expect(kept.statusCode).toBe(202);
    const row = await testDb.database.db
      .selectFrom('intake_events')
      .select('payload')
      .where('session_id', '=', 'sess-nul')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.payload)).toEqual(message);
  });
});

describe('POST /intake — bad batches are rejected whole', () => {
  it.each([
    [
      'a line that is not JSON',
      '/api/v2/exposures',
      `${JSON.stringify(exposure('ok1'))}\n{"flag":`,
      'body.line.2',
    ],
    ['a line that is not an object', '/api/v2/rum', '{"type":"view"}\n[1,2]', 'body.line.2'],
    [
      'an exposure without flag key',
      '/api/v2/exposures',
      ndjson([exposure('ok2'), { ...exposure('bad'), flag: {} }]),
      'body.line.2.flag.key',
    ],
    [
      'an evaluation with a text count',
      '/api/v2/flagevaluation',
      ndjson([
        {
          flag: { key: 'f' },
          first_evaluation: 1,
          last_evaluation: 1,
          evaluation_count: 'two',
          runtime_default_used: false,
          timestamp: 1,
        },
      ]),
      'body.line.1.evaluation_count',
    ],
    ['an empty body', '/api/v2/rum', '\n\n', 'body'],
    ['a forwarded path outside the intake', '/admin/delete', '{}', 'ddforward'],
    ['an unknown encoding', '/api/v2/rum?dd-evp-encoding=gzip', '{}', 'ddforward'],
  ])(
    'answers 400 naming the field for %s, and stores nothing',
    async (_case, forward, body, field) => {
      const before = await storedCounts();
      const res = await send(forward, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        error: { code: 'VALIDATION_ERROR', message: expect.any(String), field },
      });
      expect(await storedCounts()).toEqual(before);
    },
  );

  it('names the line and field in the message', async () => {
    const res = await send(
      '/api/v2/exposures',
      ndjson([exposure('ok'), { ...exposure('bad'), subject: {} }]),
    );
    expect(res.json().error.message).toBe('body line 2 (exposure): subject.id is required');
  });

  it('rejects a body flagged deflate that is not', async () => {
    const before = await storedCounts();
    const res = await send('/api/v2/rum?dd-evp-encoding=deflate', ndjson([{ type: 'view' }]));
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      field: 'body',
      message: expect.stringMatching(/deflate/),
    });
    expect(await storedCounts()).toEqual(before);
  });

  it('requires ddforward', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/intake',
      headers: { 'content-type': 'text/plain' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.field).toBe('ddforward');
  });

  it('rejects a JSON body (the SDKs send text/plain)', async () => {
    const res = await send('/api/v2/rum', '{"type":"view"}', 'application/json');
    expect(res.statusCode).toBe(400);
    expect(res.json().error.field).toBe('body');
  });

  it(`refuses a body over ${MAX_INTAKE_BODY_BYTES} bytes with 413`, async () => {
    const before = await storedCounts();
    const line = JSON.stringify({ type: 'view', pad: 'x'.repeat(1000) });
    const body = Array.from(
      { length: Math.ceil(MAX_INTAKE_BODY_BYTES / line.length) + 1 },
      () => line,
    ).join('\n');
    const res = await send('/api/v2/rum', body);
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(await storedCounts()).toEqual(before);
  });
});

import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TrafficControlState } from '@showroom/contracts/traffic';
import { buildApp } from '../../app.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';

// The traffic generators' control in the database (README "Traffic generator"): what one api
// replica stores, every replica answers.
let testDb: TestDatabase;
let replicas: FastifyInstance[];

beforeAll(async () => {
  testDb = await createTestDatabase();
  replicas = [
    await buildApp({ database: testDb.database }),
    await buildApp({ database: testDb.database }),
  ];
});

afterAll(async () => {
  await Promise.all(replicas.map((replica) => replica.close()));
  await testDb.destroy();
});

const state = async (replica: FastifyInstance) => {
  const res = await replica.inject({ method: 'GET', url: '/traffic/control' });
  expect(res.statusCode).toBe(200);
  return res.json<TrafficControlState>();
};

describe('traffic control', () => {
  it('is empty until set; a change through one replica is what the other answers', async () => {
    expect(await state(replicas[1]!)).toEqual({ control: null, updatedAt: null, updatedBy: null });
    const put = await replicas[0]!.inject({
      method: 'PUT',
      url: '/traffic/control',
      headers: { 'x-operator': 'presenter' },
      payload: { rateScale: 3, journeys: { checkout: 2, browse: 1 }, paused: false },
    });
    expect(put.statusCode, put.body).toBe(200);
    const stored = await state(replicas[1]!);
    expect(stored).toMatchObject({
      control: { rateScale: 3, journeys: { checkout: 2, browse: 1 }, paused: false },
      updatedBy: 'presenter',
    });
    expect(stored.updatedAt).toBeGreaterThan(0);

    const paused = await replicas[1]!.inject({
      method: 'PUT',
      url: '/traffic/control',
      payload: { paused: true },
    });
    expect(paused.json<TrafficControlState>().control).toEqual({ paused: true });
    expect((await state(replicas[0]!)).control).toEqual({ paused: true });

    const cleared = await replicas[0]!.inject({ method: 'DELETE', url: '/traffic/control' });
    expect(cleared.statusCode).toBe(200);
    expect((await state(replicas[1]!)).control).toBeNull();
  });

  it('refuses a bad field with a 400 that names it, and keeps the control it had', async () => {
    await replicas[0]!.inject({
      method: 'PUT',
      url: '/traffic/control',
      payload: { rateScale: 2 },
    });
    for (const [payload, field] of [
      [{ rateScale: -1 }, 'rateScale'],
      [{ journeys: { checkout: -2 } }, 'journeys'],
      [{ dropOff: { cart: 2 } }, 'dropOff'],
      [{ concurrency: 'two' }, 'concurrency'],
    ] as const) {
      const res = await replicas[1]!.inject({ method: 'PUT', url: '/traffic/control', payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.message, JSON.stringify(payload)).toContain(field);
    }
    expect((await state(replicas[1]!)).control).toEqual({ rateScale: 2 });
    await replicas[0]!.inject({ method: 'DELETE', url: '/traffic/control' });
  });
});

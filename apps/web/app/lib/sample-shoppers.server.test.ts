import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loader } from '../routes/sample-shopper';
import { lookUpSampleShopper } from './sample-shoppers.server';
import { createShopperList } from '../startup/test-support/shoppers';

const committed = (kind: string) =>
  JSON.parse(
    fs.readFileSync(new URL(`../../../../data/shoppers/${kind}.json`, import.meta.url), 'utf8'),
  ) as { id: string }[];

/** The route's loader as React Router calls it for these segments. */
async function get(kind: string, day: string, index: string) {
  const response = (await loader({ params: { kind, day, index } } as never)) as Response;
  return { status: response.status, headers: response.headers, body: await response.json() };
}

describe('GET /shoppers/{kind}/{day}/{index} (routes/sample-shopper.ts)', () => {
  it('R-4.12 answers entry index of the day’s slice of the committed list', async () => {
    for (const [kind, day, index] of [
      ['standard', 0, 0],
      ['standard', 3, 25],
      ['loyalty', 6, 49],
    ] as const) {
      const answer = await get(kind, String(day), String(index));
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual(committed(kind)[day * 50 + index]);
      expect(answer.headers.get('cache-control')).toBe('public, max-age=3600');
    }
  });

  it('a bad segment answers 404 naming it, in the api’s error shape', async () => {
    const cases: [[string, string, string], string][] = [
      [['demo', '0', '0'], 'kind'],
      [['standard', '7', '0'], 'day'],
      [['standard', '-1', '0'], 'day'],
      [['standard', '1e0', '0'], 'day'],
      [['loyalty', '2', '50'], 'index'],
      [['loyalty', '2', '0x1'], 'index'],
      [['loyalty', '2', ''], 'index'],
    ];
    for (const [segments, field] of cases) {
      const answer = await get(...segments);
      expect(answer.status, segments.join('/')).toBe(404);
      expect(answer.body.error).toMatchObject({ code: 'NOT_FOUND', field });
      expect(answer.body.error.message).toMatch(new RegExp(`^${field} must be`));
    }
  });

  it('R-4.12 a list that does not divide by seven: positions past floor(length / 7) are refused', () => {
    const fifteen = createShopperList(15);
    const lists = { standard: fifteen, loyalty: fifteen };
    expect(lookUpSampleShopper({ kind: 'standard', day: '6', index: '1' }, lists)).toEqual({
      shopper: fifteen[13],
    });
    expect(lookUpSampleShopper({ kind: 'standard', day: '6', index: '2' }, lists)).toMatchObject({
      field: 'index',
      message: "index must be 0–1: a day's slice of the standard list holds 2",
    });
  });
});

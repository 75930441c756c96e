import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppLoadContext } from 'react-router';
import { DEPARTMENTS_TTL_MS, loadDepartments } from './departments.server';

const chairs = { slug: 'chairs', name: 'Chairs', description: 'Seats', productCount: 12 };

function answering(...bodies: (object | Error)[]) {
  const fetchMock = vi.fn(async () => {
    const body = bodies.shift();
    if (body instanceof Error) throw body;
    return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

const context = () => ({}) as AppLoadContext;

describe('loadDepartments', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks the api once per page load and shares the answer with page loads that follow soon after', async () => {
    const start = 1_000_000_000;
    const fetchMock = answering({ departments: [chairs] }, { departments: [] });
    const page = context();
    expect(await loadDepartments(page, start)).toEqual([chairs]);
    expect(await loadDepartments(page, start + 1)).toEqual([chairs]);
    expect(await loadDepartments(context(), start + DEPARTMENTS_TTL_MS - 1)).toEqual([chairs]);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(await loadDepartments(context(), start + DEPARTMENTS_TTL_MS)).toEqual([]);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('does not reuse a failed answer', async () => {
    const start = 2_000_000_000;
    const fetchMock = answering(new Error('connection refused'), { departments: [chairs] });
    await expect(loadDepartments(context(), start)).rejects.toBeDefined();
    expect(await loadDepartments(context(), start + 1)).toEqual([chairs]);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });
});

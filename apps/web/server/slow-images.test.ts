import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import express from 'express';
import { listenOnLoopback } from './loopback.test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slowImages } from './slow-images';

// The web server honours the slow image URLs the api names (docs/decisions/010-fault-flags.md).
const MAX_MS = 400;
let server: { base: string; close(): Promise<void> };
let base: string;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-slow-images-'));
  fs.mkdirSync(path.join(dir, 'products', '1'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'products', '1', 'std-0-400.jpg'), 'jpeg bytes');
  const app = express();
  app.use('/img-slow', slowImages(dir, { maxMs: MAX_MS }));
  server = await listenOnLoopback(app);
  base = server.base;
});

afterAll(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function timedGet(url: string) {
  const started = performance.now();
  const response = await fetch(`${base}${url}`);
  const body = await response.text();
  return { response, body, ms: performance.now() - started };
}

describe('/img-slow/<ms>/…', () => {
  it('serves the image after the delay, uncached', async () => {
    const { response, body, ms } = await timedGet('/img-slow/150/products/1/std-0-400.jpg');
    expect(response.status).toBe(200);
    expect(body).toBe('jpeg bytes');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(ms).toBeGreaterThanOrEqual(150);
  });

  it('waits at most its cap', async () => {
    const { response, ms } = await timedGet('/img-slow/60000/products/1/std-0-400.jpg');
    expect(response.status).toBe(200);
    expect(ms).toBeGreaterThanOrEqual(MAX_MS);
    expect(ms).toBeLessThan(10_000);
  });

  it('answers 404 for a missing file (a broken image) after the delay', async () => {
    const { response, ms } = await timedGet('/img-slow/100/missing/products/1/std-0-400.jpg');
    expect(response.status).toBe(404);
    expect(ms).toBeGreaterThanOrEqual(100);
  });

  it('answers 404 at once for a delay that is not a whole number of milliseconds', async () => {
    for (const ms of ['0', '-5', '1.5', 'abc', '0100']) {
      const { response } = await timedGet(`/img-slow/${ms}/products/1/std-0-400.jpg`);
      expect(response.status, ms).toBe(404);
    }
  });
});

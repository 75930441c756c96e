import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIDEO_FAULT_PLAN } from '@showroom/contracts/video';
import { videoFaults } from './video-faults';

let server: Server;
let base: string;

beforeAll(async () => {
  const app = express();
  app.use('/video', videoFaults(), (request, response) => {
    response.setHeader('Cache-Control', response.getHeader('Cache-Control') ?? 'max-age=604800');
    response.send(`segment ${request.path}`);
  });
  server = app.listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/video`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('video faults on segment requests', () => {
  it('serves segments untouched without a fault', async () => {
    const response = await fetch(`${base}/360p/${VIDEO_FAULT_PLAN.missingSegment}.webm`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('max-age=604800');
  });

  it('answers 404 for the missing segment under segment-404, never cached', async () => {
    const missing = await fetch(
      `${base}/720p/${VIDEO_FAULT_PLAN.missingSegment}.webm?video_fault=segment-404`,
    );
    expect(missing.status).toBe(404);
    expect(missing.headers.get('cache-control')).toBe('no-store');
    const other = await fetch(`${base}/720p/1.webm?video_fault=segment-404`);
    expect(other.status).toBe(200);
    expect(other.headers.get('cache-control')).toBe('no-store');
  });

  it('holds the first segment under slow-start', async () => {
    const started = performance.now();
    const response = await fetch(`${base}/360p/1.webm?video_fault=slow-start`);
    expect(response.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(
      VIDEO_FAULT_PLAN.slowStartDelayMs - 50,
    );
  });

  it('ignores an unknown fault', async () => {
    const response = await fetch(`${base}/360p/4.webm?video_fault=everything`);
    expect(response.status).toBe(200);
  });
});

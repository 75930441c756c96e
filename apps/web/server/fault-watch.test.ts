import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createFaultWatch } from './fault-watch';

let server: Server | undefined;
afterEach(async () => {
  await new Promise((done) => (server ? server.close(done) : done(undefined)));
  server = undefined;
});

/** A stand-in flag list on a real port; `answer` decides each reply, `asked` counts them. */
async function flagService(answer: () => { status: number; body: unknown }) {
  let asked = 0;
  server = http.createServer((_request, response) => {
    asked += 1;
    const { status, body } = answer();
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked: () => asked,
  };
}

const list = (...flags: [string, boolean][]) => ({
  status: 200,
  body: {
    createdAt: 1,
    environment: 'test',
    flags: flags.map(([key, enabled]) => ({ key, enabled })),
  },
});

describe('createFaultWatch (decision 010)', () => {
  it('is true while any fault flag is enabled, and asks at most once per TTL', async () => {
    let reply = list(['show_payments', true], ['fault_recommendations_error', false]);
    const service = await flagService(() => reply);
    let clock = 0;
    const active = createFaultWatch(service.url, { ttlMs: 2_000, now: () => clock });
    expect(await active()).toBe(false);
    reply = list(['fault_recommendations_error', true]);
    clock = 1_000;
    expect(await active()).toBe(false); // still the answer of t=0
    expect(service.asked()).toBe(1);
    clock = 2_500;
    expect(await active()).toBe(true);
    expect(service.asked()).toBe(2);
  });

  it('is true when the flag service cannot say: render per request rather than serve a wrong page', async () => {
    const service = await flagService(() => ({ status: 500, body: {} }));
    expect(await createFaultWatch(service.url)()).toBe(true);
    expect(await createFaultWatch('http://127.0.0.1:9')()).toBe(true);
  });
});

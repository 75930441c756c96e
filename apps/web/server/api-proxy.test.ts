import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';
import compression from 'compression';
import express from 'express';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isErrorCode } from '@showroom/contracts/errors';
import { API_MOUNT_PATH, API_UNREACHABLE, createApiProxy } from './api-proxy';
import { apiTarget } from './api-target';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/** A stand-in api: records what reached it and answers per path. */
function startFakeApi() {
  const seen: Seen[] = [];
  let releaseStream: (() => void) | undefined;
  const server = http.createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      });
      if (req.url === '/ofrep/v1/evaluate/flags') {
        // OFREP's bulk evaluation: 304 to the current ETag, else 429 with Retry-After.
        if (req.headers['if-none-match'] === '"v1"') {
          res.writeHead(304, { etag: '"v1"' });
          res.end();
        } else {
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '17' });
          res.end(JSON.stringify({ errorCode: 'GENERAL' }));
        }
        return;
      }
      if (req.url === '/stream') {
        // An event stream: the first event now, the end only when the test says so.
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.write('data: first\n\n');
        releaseStream = () => res.end('data: last\n\n');
        return;
      }
      res.writeHead(Number(req.headers['x-answer-status'] ?? 201), {
        'content-type': 'application/vnd.api+json',
        'set-cookie': ['sid=abc; Path=/; HttpOnly; SameSite=Lax', 'other=1; Path=/'],
      });
      res.end(JSON.stringify({ data: { received: chunks.length > 0 } }));
    });
  });
  return {
    seen,
    release: () => releaseStream?.(),
    listen: () =>
      new Promise<string>((resolve) =>
        server.listen(0, '127.0.0.1', () =>
          resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
        ),
      ),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The web server's arrangement: the proxy first, then compression and everything else. */
async function startWeb(target: string, onOrderPlaced?: () => void) {
  const app = express();
  app.use(API_MOUNT_PATH, createApiProxy(target, { onOrderPlaced }));
  app.use(compression());
  app.get('/page', (_req, res) => {
    res.send('page');
  });
  const server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('the /api proxy', () => {
  const api = startFakeApi();
  let web: Awaited<ReturnType<typeof startWeb>>;

  beforeAll(async () => {
    web = await startWeb(await api.listen());
  });
  afterEach(() => {
    api.seen.length = 0;
  });
  afterAll(async () => {
    await web.close();
    await api.close();
  });

  it('forwards under the api path without the /api prefix, query and body intact', async () => {
    const batch = deflateSync(Buffer.from('{"type":"view"}\n{"type":"action"}'));
    const response = await fetch(`${web.url}/api/intake?ddforward=%2Fapi%2Fv2%2Frum%3Fa%3D1`, {
      method: 'POST',
      headers: {
        'content-type': 'text/plain;charset=UTF-8',
        'content-encoding': 'deflate',
        cookie: 'sid=abc; isJohnDoe=1',
        traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
        'x-datadog-trace-id': '1234567890',
        'x-datadog-parent-id': '987',
        'x-datadog-origin': 'rum',
        'x-datadog-sampling-priority': '1',
        'x-forwarded-for': '203.0.113.7',
      },
      body: batch,
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('content-type')).toBe('application/vnd.api+json');
    expect(response.headers.getSetCookie()).toEqual([
      'sid=abc; Path=/; HttpOnly; SameSite=Lax',
      'other=1; Path=/',
    ]);
    const [request] = api.seen;
    expect(request).toMatchObject({
      method: 'POST',
      url: '/intake?ddforward=%2Fapi%2Fv2%2Frum%3Fa%3D1',
    });
    expect(request?.body.equals(batch)).toBe(true);
    expect(request?.headers).toMatchObject({
      'content-encoding': 'deflate',
      cookie: 'sid=abc; isJohnDoe=1',
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      'x-datadog-trace-id': '1234567890',
      'x-datadog-parent-id': '987',
      'x-datadog-origin': 'rum',
      'x-datadog-sampling-priority': '1',
      'x-forwarded-for': '203.0.113.7, 127.0.0.1',
      'x-forwarded-proto': 'http',
      'x-forwarded-host': new URL(web.url).host,
    });
  });

  it("passes OFREP's headers both ways: keys and If-None-Match up, ETag and Retry-After down", async () => {
    const ask = (headers: Record<string, string>) =>
      fetch(`${web.url}/api/ofrep/v1/evaluate/flags`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{"context":{"targetingKey":"a1"}}',
      });
    const notModified = await ask({
      'if-none-match': '"v1"',
      'x-api-key': 'key-one',
      authorization: 'Bearer key-two',
    });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get('etag')).toBe('"v1"');
    expect(api.seen[0]?.headers).toMatchObject({
      'if-none-match': '"v1"',
      'x-api-key': 'key-one',
      authorization: 'Bearer key-two',
    });
    const limited = await ask({});
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('17');
  });

  it('streams a multipart body through byte for byte', async () => {
    const form = new FormData();
    const segment = new Uint8Array(64 * 1024).map((_, i) => (i * 31) % 256);
    form.append('segment', new Blob([segment]), 'segment');
    form.append('event', new Blob(['{"records_count":3}'], { type: 'application/json' }));
    const sent = new Request('http://x/', { method: 'POST', body: form });
    const body = Buffer.from(await sent.arrayBuffer());
    const response = await fetch(`${web.url}/api/intake?ddforward=%2Fapi%2Fv2%2Freplay`, {
      method: 'POST',
      headers: { 'content-type': sent.headers.get('content-type') ?? '' },
      body,
    });
    expect(response.status).toBe(201);
    const [request] = api.seen;
    expect(request?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(request?.body.equals(body)).toBe(true);
  });

  it('passes an event stream on as it comes, uncompressed', async () => {
    const response = await fetch(`${web.url}/api/stream`, {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(response.headers.get('content-encoding')).toBeNull();
    const reader = response.body!.getReader();
    const first = await reader.read();
    // The api has not ended the answer yet: this chunk travelled on its own.
    expect(new TextDecoder().decode(first.value)).toBe('data: first\n\n');
    api.release();
    let rest = '';
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      rest += new TextDecoder().decode(chunk.value);
    }
    expect(rest).toBe('data: last\n\n');
  });

  it('keeps the browser connection and the api connection open for the next call', async () => {
    const response = await fetch(`${web.url}/api/departments`);
    await response.arrayBuffer();
    expect(response.headers.get('connection')).not.toBe('close');
    expect(api.seen[0]?.headers.connection).toBe('keep-alive');
  });

  it('leaves other paths to the rest of the server', async () => {
    const response = await fetch(`${web.url}/page`);
    expect(await response.text()).toBe('page');
    const apiLike = await fetch(`${web.url}/apiary`);
    expect(apiLike.status).toBe(404);
    expect(api.seen).toEqual([]);
  });
});

describe('orders through the /api proxy', () => {
  it('are told once the api answers 2xx to POST /checkout/orders, never for anything else', async () => {
    const api = startFakeApi();
    let told = 0;
    const web = await startWeb(await api.listen(), () => (told += 1));
    try {
      const send = async (method: string, path: string, status = 201) => {
        const response = await fetch(`${web.url}${path}`, {
          method,
          headers: { 'x-answer-status': String(status), 'content-type': 'application/json' },
          ...(method === 'GET' ? {} : { body: '{}' }),
        });
        // The browser still gets the whole answer.
        expect(await response.json()).toEqual({ data: { received: method !== 'GET' } });
        expect(response.status).toBe(status);
        return told;
      };
      expect(await send('POST', '/api/checkout/orders')).toBe(1);
      expect(await send('POST', '/api/checkout/orders?from=test', 200)).toBe(2);
      expect(await send('POST', '/api/checkout/orders', 409)).toBe(2);
      expect(await send('POST', '/api/checkout/orders', 402)).toBe(2);
      expect(await send('GET', '/api/checkout/orders', 200)).toBe(2);
      expect(await send('POST', '/api/cart/items')).toBe(2);
      expect(await send('POST', '/api/checkout/orders/x')).toBe(2);
    } finally {
      await web.close();
      await api.close();
    }
  });
});

describe('the /api proxy without an api', () => {
  it('answers 502 with the contract error API_UNREACHABLE', async () => {
    // Port 9 (discard) is closed on loopback: the connection is refused.
    const web = await startWeb('http://127.0.0.1:9');
    try {
      const response = await fetch(`${web.url}/api/departments`);
      expect(response.status).toBe(502);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body).toEqual({
        error: { code: API_UNREACHABLE, message: 'The shop api could not be reached' },
      });
      expect(isErrorCode(body.error.code)).toBe(true);
    } finally {
      await web.close();
    }
  });
});

describe('the api address', () => {
  it('is API_URL, else the api port on this machine', () => {
    expect(apiTarget({ API_URL: 'http://api.internal:8080' })).toBe('http://api.internal:8080');
    expect(apiTarget({ API_URL: 'http://api.internal:8080/' })).toBe('http://api.internal:8080');
    expect(apiTarget({ API_PORT: '4001' })).toBe('http://127.0.0.1:4001');
    expect(apiTarget({})).toBe('http://127.0.0.1:3001');
  });
});

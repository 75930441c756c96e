import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { RequestHandler } from 'express';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { PLACE_ORDER_PATH } from '@showroom/contracts/checkout-constants';
import type { ErrorCode } from '@showroom/contracts/errors';
import { operatorAuthorization, operatorTokenOfCookies } from '@showroom/contracts/security';
import { apiTarget } from './api-target.js';

/** Where the api is mounted on the web origin; the prefix is stripped before forwarding. */
export const API_MOUNT_PATH = '/api';

/** The error code of the answer when the api cannot be reached, in the contract's error shape. */
export const API_UNREACHABLE: ErrorCode = 'API_UNREACHABLE';

/**
 * Serves the api under the web origin: mounted at API_MOUNT_PATH, so `/api/cart` reaches the
 * api as `/cart`. Request and response bodies stream through untouched (the monitoring intake
 * takes deflate and multipart bodies; the flag service answers application/vnd.api+json), and
 * so do cookies, Set-Cookie and the trace headers (traceparent, x-datadog-*). The api learns the
 * client's address, protocol and host from X-Forwarded-For/-Proto/-Host. An api that cannot be
 * reached answers 502 with the contract's error body, code API_UNREACHABLE.
 *
 * Register it before compression and before the page handler: it answers everything under the
 * mount path itself. `onOrderPlaced` is called when the api answers 2xx to an order (`POST`
 * PLACE_ORDER_PATH), as the answer starts: the web server's page cache then forgets the stock
 * its product pages showed.
 */
export function createApiProxy(
  target: string = apiTarget(),
  { onOrderPlaced }: { onOrderPlaced?: () => void } = {},
): RequestHandler {
  // Connections to the api are reused (without an agent every call would open and close one,
  // and the browser's connection would be told to close too).
  const agentOptions = { keepAlive: true, maxSockets: 64 };
  const agent = target.startsWith('https:')
    ? new https.Agent(agentOptions)
    : new http.Agent(agentOptions);
  return createProxyMiddleware<IncomingMessage, ServerResponse>({
    target,
    agent,
    // The api sees its own host in Host; the page's host travels in X-Forwarded-Host.
    changeOrigin: true,
    on: {
      proxyRes: (proxyRes, req) => {
        const status = proxyRes.statusCode ?? 0;
        if (!onOrderPlaced || status < 200 || status >= 300 || !isPlaceOrder(req)) return;
        try {
          onOrderPlaced();
        } catch (error) {
          console.error(`Showroom web: after an order: ${String(error)}`);
        }
      },
      proxyReq: (proxyReq, req) => {
        for (const [name, value] of Object.entries(forwardedHeaders(req))) {
          proxyReq.setHeader(name, value);
        }
      },
      error: (error, req, res) => {
        console.error(
          `Showroom web: the api at ${target} could not be reached for ${req.method ?? 'GET'} ${req.url ?? ''}: ${(error as NodeJS.ErrnoException).code ?? error.message}`,
        );
        if (!isResponse(res)) {
          res.destroy();
          return;
        }
        if (res.headersSent) {
          // The answer had begun: cut it, so the client sees an incomplete response.
          res.destroy();
          return;
        }
        const body = JSON.stringify({
          error: { code: API_UNREACHABLE, message: 'The shop api could not be reached' },
        });
        res.writeHead(502, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(body),
          'cache-control': 'no-store',
        });
        res.end(body);
      },
    },
  });
}

/**
 * X-Forwarded-* for the api: the client's address is appended to any X-Forwarded-For a proxy
 * in front of this server set; protocol and host set by such a proxy are kept (they describe
 * what the browser used), else they are this request's own. The operator cookie's token
 * (server/security.ts) becomes `Authorization: Bearer <token>` unless the request has one.
 */
export function forwardedHeaders(req: IncomingMessage): Record<string, string> {
  const remote = req.socket.remoteAddress ?? '';
  const priorFor = header(req, 'x-forwarded-for');
  const encrypted = (req.socket as TLSSocket).encrypted === true;
  const operatorToken = header(req, 'authorization')
    ? undefined
    : operatorTokenOfCookies(header(req, 'cookie'));
  return {
    'x-forwarded-for': priorFor ? `${priorFor}, ${remote}` : remote,
    'x-forwarded-proto': header(req, 'x-forwarded-proto') ?? (encrypted ? 'https' : 'http'),
    'x-forwarded-host': header(req, 'x-forwarded-host') ?? header(req, 'host') ?? '',
    ...(operatorToken ? { authorization: operatorAuthorization(operatorToken) } : {}),
  };
}

/** Whether a request is an order (the mount path already stripped from its URL). */
function isPlaceOrder(req: IncomingMessage): boolean {
  return req.method === 'POST' && (req.url ?? '').split('?')[0] === PLACE_ORDER_PATH;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  const joined = Array.isArray(value) ? value.join(', ') : value;
  return joined === undefined || joined === '' ? undefined : joined;
}

function isResponse(res: ServerResponse | Socket): res is ServerResponse {
  return 'writeHead' in res;
}

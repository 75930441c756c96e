import type { FastifyRequest } from 'fastify';
import { detectBrowserFamily, type BrowserFamily } from '@showroom/contracts/browser-family';

/** The browser family of the request's User-Agent, as the browser puts it in its flag subject. */
export function requestBrowserFamily(request: FastifyRequest): BrowserFamily {
  return detectBrowserFamily(request.headers['user-agent'] ?? '');
}

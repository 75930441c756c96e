import type { AddressInfo } from 'node:net';
import type { RequestListener } from 'node:http';
import http from 'node:http';

/** A server of the web server's tests on a free loopback port: its base URL, and how to close it. */
export async function listenOnLoopback(
  handler: RequestListener,
): Promise<{ base: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

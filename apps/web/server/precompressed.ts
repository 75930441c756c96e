import fs from 'node:fs';
import path from 'node:path';
import type { RequestHandler } from 'express';

/** The copies scripts/precompress.mjs writes beside a file, smallest first. */
const COPIES = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

/**
 * Sends the build's precompressed copy of a file (scripts/precompress.mjs: brotli, or gzip made
 * with zopfli) to a client that accepts its encoding, by pointing the request at the copy before
 * `express.static(dir)`, which must follow. Other clients and files fall through to the
 * compression middleware as before. The folder is listed once: a build's assets do not change
 * while it is served. docs/architecture.md "Performance".
 */
export function precompressed(dir: string): RequestHandler {
  const files = new Set(fs.existsSync(dir) ? fs.readdirSync(dir) : []);
  return (request, response, next) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return next();
    const name = request.path.slice(1);
    if (!/^[\w.-]+$/.test(name) || !files.has(name)) return next();
    const copies = COPIES.filter((copy) => files.has(name + copy.suffix));
    if (copies.length === 0) return next();
    response.vary('Accept-Encoding');
    const copy = copies.find((candidate) => request.acceptsEncodings(candidate.encoding));
    if (!copy) return next();
    response.setHeader('Content-Encoding', copy.encoding);
    // The original's type: express.static would name the copy's own (.br, .gz).
    response.type(path.extname(name));
    const query = request.url.indexOf('?');
    request.url = `/${name}${copy.suffix}${query === -1 ? '' : request.url.slice(query)}`;
    next();
  };
}

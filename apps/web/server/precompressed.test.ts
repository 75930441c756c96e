import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import http from 'node:http';
import express from 'express';
import { listenOnLoopback } from './loopback.test-support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precompress } from '../scripts/precompress.mjs';
import { precompressed } from './precompressed';

// Scripts and stylesheets go out as the build compressed them (docs/architecture.md
// "Performance"): scripts/precompress.mjs writes the copies, server/precompressed.ts picks one.
let server: { base: string; close(): Promise<void> };
let base: string;
let dir: string;
/** A script big enough to be compressed, with enough variety that the encodings differ. */
const script = Array.from(
  { length: 400 },
  (_, i) => `export const value${i} = ${i * 7919} + "item ${i % 37}";`,
).join('\n');
const small = 'export const tiny = 1;';
/** A script of a few hundred bytes, like most of a page's route chunks. */
const short = Array.from({ length: 12 }, (_, i) => `export const item${i} = "item ${i}";`).join(
  '\n',
);

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-precompressed-'));
  fs.writeFileSync(path.join(dir, 'entry-abc.js'), script);
  fs.writeFileSync(path.join(dir, 'tiny-abc.js'), small);
  fs.writeFileSync(path.join(dir, 'short-abc.js'), short);
  fs.writeFileSync(path.join(dir, 'photo-abc.png'), Buffer.alloc(4096, 7));
  fs.writeFileSync(
    path.join(dir, 'style-abc.css'),
    `body{color:red}\n${'.a{margin:0}\n'.repeat(200)}`,
  );
  await precompress(dir);
  const app = express();
  app.use('/assets', precompressed(dir));
  app.use('/assets', express.static(dir, { immutable: true, maxAge: '1y' }));
  server = await listenOnLoopback(app);
  base = server.base;
});

afterAll(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A raw request (fetch would decode the body and send its own accept-encoding). */
function get(url: string, acceptEncoding?: string, method = 'GET') {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      const headers = acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding };
      http
        .request(`${base}${url}`, { method, headers }, (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks),
            }),
          );
        })
        .on('error', reject)
        .end();
    },
  );
}

describe('precompress (the build step)', () => {
  it('writes a gzip and a brotli copy of each script and stylesheet that decode to the file', () => {
    for (const name of ['entry-abc.js', 'style-abc.css']) {
      const original = fs.readFileSync(path.join(dir, name));
      expect(zlib.gunzipSync(fs.readFileSync(path.join(dir, `${name}.gz`)))).toEqual(original);
      expect(zlib.brotliDecompressSync(fs.readFileSync(path.join(dir, `${name}.br`)))).toEqual(
        original,
      );
    }
  });

  it('writes copies of a script under 1 KB when they are smaller than it', () => {
    expect(short.length).toBeLessThan(1024);
    for (const suffix of ['.gz', '.br']) {
      const copy = fs.statSync(path.join(dir, `short-abc.js${suffix}`)).size;
      expect(copy).toBeLessThan(short.length * 0.7);
    }
    expect(zlib.gunzipSync(fs.readFileSync(path.join(dir, 'short-abc.js.gz'))).toString()).toBe(
      short,
    );
  });

  it('leaves out files whose copies would be larger, and files of other kinds', () => {
    expect(zlib.gzipSync(small, { level: 9 }).length).toBeGreaterThan(small.length);
    const names = fs.readdirSync(dir);
    expect(names.filter((name) => name.startsWith('tiny-abc.js'))).toEqual(['tiny-abc.js']);
    expect(names.filter((name) => name.startsWith('photo-abc.png'))).toEqual(['photo-abc.png']);
  });

  it('makes a gzip copy smaller than zlib at its best level', () => {
    const zopfli = fs.statSync(path.join(dir, 'entry-abc.js.gz')).size;
    expect(zopfli).toBeLessThan(zlib.gzipSync(script, { level: 9 }).length);
  });
});

describe('precompressed (the web server)', () => {
  it('sends the brotli copy to a browser that accepts it, typed as the script', async () => {
    const response = await get('/assets/entry-abc.js', 'gzip, deflate, br, zstd');
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/^text\/javascript/);
    expect(response.headers.vary).toMatch(/accept-encoding/i);
    expect(response.headers['cache-control']).toContain('immutable');
    expect(zlib.brotliDecompressSync(response.body).toString()).toBe(script);
  });

  it('sends the gzip copy when brotli is not accepted', async () => {
    for (const accept of ['gzip', 'br;q=0, gzip']) {
      const response = await get('/assets/entry-abc.js', accept);
      expect(response.headers['content-encoding']).toBe('gzip');
      expect(Number(response.headers['content-length'])).toBe(response.body.length);
      expect(zlib.gunzipSync(response.body).toString()).toBe(script);
    }
  });

  it('sends the file itself to a client that accepts no encoding, still varying on it', async () => {
    for (const accept of [undefined, 'identity']) {
      const response = await get('/assets/entry-abc.js', accept);
      expect(response.headers['content-encoding']).toBeUndefined();
      expect(response.headers['content-type']).toMatch(/^text\/javascript/);
      expect(response.headers.vary).toMatch(/accept-encoding/i);
      expect(response.body.toString()).toBe(script);
    }
  });

  it('keeps a query string and answers HEAD with the copy’s headers', async () => {
    const withQuery = await get('/assets/style-abc.css?v=2', 'br');
    expect(withQuery.headers['content-encoding']).toBe('br');
    expect(withQuery.headers['content-type']).toMatch(/^text\/css/);
    const head = await get('/assets/entry-abc.js', 'gzip', 'HEAD');
    expect(head.headers['content-encoding']).toBe('gzip');
    expect(Number(head.headers['content-length'])).toBe(
      fs.statSync(path.join(dir, 'entry-abc.js.gz')).size,
    );
  });

  it('leaves files without copies, and unknown files, to the next handlers', async () => {
    const tiny = await get('/assets/tiny-abc.js', 'br');
    expect(tiny.headers['content-encoding']).toBeUndefined();
    expect(tiny.body.toString()).toBe(small);
    expect((await get('/assets/missing.js', 'br')).status).toBe(404);
    expect((await get('/assets/..%2Fentry-abc.js', 'br')).status).toBe(404);
  });
});

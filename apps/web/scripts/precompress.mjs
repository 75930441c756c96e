// A step of `npm run build -w apps/web`, after the client build: each script and stylesheet in
// build/client/assets gets a gzip copy (zopfli, about 4 % smaller than zlib's best) and a brotli
// copy (quality 11) beside it, which the web server sends to a browser that accepts them
// (server/precompressed.ts) instead of compressing the file on every request.
// docs/architecture.md "Performance".
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { gzipAsync } from '@gfx/zopfli';

const PRECOMPRESSED_EXTENSIONS = ['.js', '.css', '.svg', '.json'];

/**
 * Writes `<file>.gz` and `<file>.br` for every compressible file of `dir`, each only where it is
 * smaller than the file: a script of a few hundred bytes still loses about a third, while the
 * compression middleware sends anything under 1 KB as it is. Returns the count of files with a
 * copy.
 */
export async function precompress(dir) {
  let count = 0;
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    if (!PRECOMPRESSED_EXTENSIONS.includes(path.extname(name))) continue;
    const body = fs.readFileSync(file);
    const gzip = Buffer.from(await gzipAsync(body, { numiterations: 5 }));
    const brotli = zlib.brotliCompressSync(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
    if (gzip.length < body.length) fs.writeFileSync(`${file}.gz`, gzip);
    if (brotli.length < body.length) fs.writeFileSync(`${file}.br`, brotli);
    if (gzip.length < body.length || brotli.length < body.length) count += 1;
  }
  return count;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const assets = path.resolve(
    path.dirname(fileURLToPath(import.meta.url)),
    '..',
    'build',
    'client',
    'assets',
  );
  const started = Date.now();
  const count = await precompress(assets);
  console.log(
    `Showroom web: ${count} assets precompressed (gzip, brotli) in ${Date.now() - started} ms`,
  );
}

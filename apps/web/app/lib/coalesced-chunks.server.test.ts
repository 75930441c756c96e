import { PassThrough } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { coalescedChunks } from './coalesced-chunks.server';

/** What comes out of the stream, chunk by chunk, while `write` feeds it. */
async function chunksOut(write: (into: PassThrough) => Promise<void>): Promise<string[]> {
  const source = new PassThrough();
  const out: string[] = [];
  const ended = new Promise<void>((resolve, reject) => {
    source
      .pipe(coalescedChunks())
      .on('data', (chunk: Buffer) => out.push(chunk.toString()))
      .on('end', resolve)
      .on('error', reject);
  });
  await write(source);
  source.end();
  await ended;
  return out;
}

describe('coalescedChunks', () => {
  it('sends the pieces written in one turn as one chunk, in order', async () => {
    const out = await chunksOut(async (into) => {
      for (const piece of ['<html>', '<head></head>', '<body>', '<p>Chairs</p>']) into.write(piece);
      await nextTurn();
    });
    expect(out).toEqual(['<html><head></head><body><p>Chairs</p>']);
  });

  it('keeps what comes in later turns apart: the shell, then each part that resolves', async () => {
    const out = await chunksOut(async (into) => {
      into.write('<body>');
      into.write('<div id="S:0">');
      await nextTurn();
      await nextTurn();
      into.write('<template>recommendations</template>');
      into.write('<script>$RC()</script>');
      await nextTurn();
      await nextTurn();
      into.write('</body>');
    });
    expect(out).toEqual([
      '<body><div id="S:0">',
      '<template>recommendations</template><script>$RC()</script>',
      '</body>',
    ]);
  });

  it('sends what is pending when the stream ends, multi-byte characters whole', async () => {
    const bytes = Buffer.from('<p>Sofa – 3 seats</p>');
    const cut = bytes.indexOf(Buffer.from('–')) + 1;
    const out = await chunksOut(async (into) => {
      into.write(bytes.subarray(0, cut));
      into.write(bytes.subarray(cut));
    });
    expect(out).toEqual(['<p>Sofa – 3 seats</p>']);
  });
});

import type { ReactNode } from 'react';
import { PassThrough } from 'node:stream';
import { renderToPipeableStream } from 'react-dom/server';
import { prerenderToNodeStream } from 'react-dom/static';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { ProductSummary } from '@showroom/contracts/catalog';
import { Recommendations } from './recommendations';

const SOFA = { id: 30, materials: ['boucle'] };

function summary(id: number, name: string): ProductSummary {
  return {
    id,
    department: 'sofas',
    name,
    kind: 'sofa',
    priceCents: 10_000 + id,
    stock: 3,
    colour: 'sand',
    materials: ['linen'],
    specialEdition: { priceCents: 20_000, badge: 'Special edition', stock: 1 },
  };
}

function page(candidates: Promise<ProductSummary[] | null>): ReactNode {
  return (
    <MemoryRouter>
      <main>
        <Recommendations product={SOFA} candidates={candidates} />
      </main>
    </MemoryRouter>
  );
}

/** The first bytes a streaming render sends: the shell, before anything suspended resolves. */
function shell(node: ReactNode): Promise<string> {
  return new Promise((resolve, reject) => {
    const { pipe, abort } = renderToPipeableStream(node, {
      onShellReady() {
        const out = new PassThrough();
        // The first bytes are the shell; the suspended part could only come after them.
        out.once('data', (chunk: Buffer) => {
          abort();
          resolve(chunk.toString());
        });
        pipe(out);
      },
      onShellError: reject,
    });
  });
}

/** The whole page once everything it waits for has settled. */
async function settled(node: ReactNode): Promise<string> {
  const { prelude } = await prerenderToNodeStream(node);
  let html = '';
  for await (const chunk of prelude) html += String(chunk);
  return html;
}

describe('recommendations (deferred)', () => {
  it('the shell shows a placeholder while the candidates are on their way', async () => {
    const html = await shell(page(new Promise(() => {})));
    expect(html).toContain('data-testid="recommendations-pending"');
    expect(html).not.toContain('You may also like');
  });

  it('shows the recommendations once the candidates arrive', async () => {
    const html = await settled(
      page(Promise.resolve([summary(31, 'Camden Chesterfield Sofa'), summary(32, 'Pia')])),
    );
    expect(html).toContain('You may also like');
    expect(html).toContain('Camden Chesterfield Sofa');
    expect(html).not.toContain('recommendations-pending');
  });

  it('a failed load shows a quiet note instead, not an error', async () => {
    const html = await settled(page(Promise.reject(new Error('api down'))));
    expect(html).toContain('data-testid="recommendations-unavailable"');
    expect(html).not.toContain('api down');
    expect(html).not.toContain('You may also like');
  });

  it('candidates the api could not answer (null) show the same note', async () => {
    const html = await settled(page(Promise.resolve(null)));
    expect(html).toContain('data-testid="recommendations-unavailable"');
    expect(html).not.toContain('You may also like');
  });
});

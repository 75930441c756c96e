import { describe, expect, it } from 'vitest';
import type { ProductSummary } from '@showroom/contracts/catalog';
import { recommend } from './recommendations';

function product(id: number, priceCents: number, materials: string[]): ProductSummary {
  return {
    id,
    department: 'chairs',
    name: `Chair ${id}`,
    kind: 'dining-chair',
    priceCents,
    stock: 5,
    colour: '#000000',
    materials,
    specialEdition: { priceCents: priceCents * 2, badge: 'Limited edition', stock: 2 },
  };
}

const current = { id: 1, materials: ['oak', 'linen'] };
const candidates = [
  product(1, 100, ['oak', 'linen']),
  product(2, 900, ['steel']),
  product(3, 300, ['oak', 'linen']),
  product(4, 200, ['oak']),
  product(5, 50, ['walnut']),
];

describe('recommendations by strategy (recommendations_strategy flag)', () => {
  it('bestsellers keeps the featured order and leaves out the product itself', () => {
    expect(recommend(current, candidates, 'bestsellers').map((p) => p.id)).toEqual([2, 3, 4, 5]);
  });

  it('price-low puts the cheapest first', () => {
    expect(recommend(current, candidates, 'price-low').map((p) => p.id)).toEqual([5, 4, 3, 2]);
  });

  it('similar-materials puts products sharing most materials first', () => {
    expect(recommend(current, candidates, 'similar-materials', 2).map((p) => p.id)).toEqual([3, 4]);
  });
});

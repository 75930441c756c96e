import type { CatalogSeed } from '@showroom/contracts/catalog';

type SeedProduct = CatalogSeed['products'][number];

export function createSeedProduct(overrides: Partial<SeedProduct> & { id: number }): SeedProduct {
  return {
    department: 'tables',
    name: `Test product ${overrides.id}`,
    kind: 'dining-table',
    description: 'A sturdy test product.',
    priceCents: 10_000 + overrides.id,
    stock: 10,
    materials: ['oak', 'steel'],
    colour: '#a47551',
    dimensions: { widthCm: 120, depthCm: 80, heightCm: 75 },
    specialEdition: {
      name: `Test product ${overrides.id} — Special`,
      description: 'Limited run.',
      priceCents: 20_000 + overrides.id,
      badge: 'Limited edition',
      stock: 3,
      colour: '#2f3e34',
    },
    ...overrides,
  };
}

/** A small catalog: two departments with a handful of products each. */
export function createCatalogSeed(): CatalogSeed {
  return {
    departments: [
      { slug: 'tables', name: 'Tables', description: 'Tables for every room.' },
      { slug: 'chairs', name: 'Chairs', description: 'Seats for every table.' },
      { slug: 'empty', name: 'Empty', description: 'A department with nothing in it yet.' },
    ],
    products: [
      createSeedProduct({ id: 1, name: 'Birch Desk', priceCents: 30_000 }),
      createSeedProduct({ id: 2, name: 'Alder Table', priceCents: 50_000 }),
      createSeedProduct({ id: 3, name: 'Cedar Console', priceCents: 10_000 }),
      createSeedProduct({ id: 10, name: 'Oak Dining Table', priceCents: 90_000 }),
      createSeedProduct({ id: 20, name: 'Lounge Chair', department: 'chairs', kind: 'armchair' }),
    ],
  };
}

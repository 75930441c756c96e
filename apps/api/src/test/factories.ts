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

/**
 * A catalog for search and filters: four departments whose products differ in name,
 * description, colour (grey, blue, brown, natural, beige, red), materials, price and stock.
 * "sofa" is in two names, one description of a sofa and one of a lamp; "oak" in a name, a
 * material and one description only.
 */
export function createSearchCatalogSeed(): CatalogSeed {
  // id | department | name | kind | colour | materials | price | stock | description
  const rows = [
    '1|sofas|Haven Three-Seater Sofa|sofa|#7d8a96|linen blend,hardwood frame|129900|5|Deep cushions for long evenings with the family.',
    '2|sofas|Nook Velvet Loveseat|loveseat|#3d4a66|cotton velvet,beech frame|79900|0|A compact two-seater that sits beside any sofa.',
    '3|sofas|Camden Chesterfield Sofa|sofa|#5a2e1f|full-grain leather,hardwood frame|249900|2|Buttoned leather on a deep frame.',
    '4|tables|Fjord Oak Dining Table|dining-table|#a47551|solid oak,matte lacquer|89900|14|Seats six around a generous top.',
    '5|tables|Harbour Writing Desk|desk|#7a5236|walnut veneer,steel|54900|9|Built from oak offcuts, with a cable tray.',
    '6|chairs|Tove Bouclé Armchair|armchair|#efe8dc|wool bouclé,oak legs|59900|4|A rounded armchair wrapped in textured yarn.',
    '7|lighting|Pivot Desk Lamp|desk-lamp|#c0392b|lacquered steel,aluminium|12900|30|An adjustable lamp that clamps to any surface.',
    '8|lighting|Arc Brass Floor Lamp|floor-lamp|#e8dcc4|brushed brass,linen shade|34900|0|A warm glow over the sofa.',
  ];
  return {
    departments: ['tables', 'chairs', 'sofas', 'lighting'].map((slug) => ({
      slug,
      name: `${slug.charAt(0).toUpperCase()}${slug.slice(1)}`,
      description: `${slug}.`,
    })),
    products: rows.map((row) => {
      const [id, department, name, kind, colour, materials, price, stock, description] = row.split(
        '|',
      ) as [string, string, string, string, string, string, string, string, string];
      return createSeedProduct({
        id: Number(id),
        department,
        name,
        kind,
        colour,
        materials: materials.split(','),
        priceCents: Number(price),
        stock: Number(stock),
        description,
      });
    }),
  };
}

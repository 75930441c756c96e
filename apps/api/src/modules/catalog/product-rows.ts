import { sql } from 'kysely';
import type { ProductSummary } from '@showroom/contracts/catalog';

/** The columns of a product summary (alias `p` for products, `se` for its special edition). */
export interface ProductSummaryRow {
  id: number;
  department_slug: string;
  name: string;
  kind: string;
  price_cents: number;
  stock: number;
  colour: string;
  materials: string;
  se_price_cents: number;
  se_badge: string;
  se_stock: number;
}

export const SUMMARY_COLUMNS = sql.raw(
  [
    'p.id',
    'p.department_slug',
    'p.name',
    'p.kind',
    'p.price_cents',
    'p.stock',
    'p.colour',
    'p.materials',
    'se.price_cents as se_price_cents',
    'se.badge as se_badge',
    'se.stock as se_stock',
  ].join(', '),
);

export function toSummary(row: ProductSummaryRow): ProductSummary {
  return {
    id: row.id,
    department: row.department_slug,
    name: row.name,
    kind: row.kind,
    priceCents: row.price_cents,
    stock: row.stock,
    colour: row.colour,
    materials: JSON.parse(row.materials) as string[],
    specialEdition: { priceCents: row.se_price_cents, badge: row.se_badge, stock: row.se_stock },
  };
}

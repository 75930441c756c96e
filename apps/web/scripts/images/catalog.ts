/** Types and loading for data/catalog.json (the generator's only input). */
import { readFileSync } from 'node:fs';

export interface CatalogDepartment {
  slug: string;
  name: string;
  description: string;
}

export interface CatalogSpecialEdition {
  name: string;
  description: string;
  priceCents: number;
  badge: string;
  stock: number;
  colour: string;
}

export interface CatalogProduct {
  id: number;
  department: string;
  name: string;
  kind: string;
  description: string;
  priceCents: number;
  stock: number;
  materials: string[];
  colour: string;
  dimensions: { widthCm: number; depthCm: number; heightCm: number };
  specialEdition?: CatalogSpecialEdition;
}

export interface Catalog {
  departments: CatalogDepartment[];
  products: CatalogProduct[];
}

export function parseCatalog(text: string): Catalog {
  const data = JSON.parse(text) as Catalog;
  if (!Array.isArray(data.departments) || !Array.isArray(data.products)) {
    throw new Error('catalog.json must contain "departments" and "products" arrays');
  }
  return data;
}

export function loadCatalog(path: string): { catalog: Catalog; text: string } {
  const text = readFileSync(path, 'utf8');
  return { catalog: parseCatalog(text), text };
}

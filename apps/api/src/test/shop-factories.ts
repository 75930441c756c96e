import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { buildApp, type AppOptions } from '../app.js';
import type { DatabaseHandle } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { seedCatalog } from '../modules/catalog/seed.js';
import { SESSION_COOKIE } from '@showroom/contracts/security';
import type { SampleShopper } from '@showroom/contracts/shopper';
import { createShopperDirectory, type ShopperDirectory } from '../modules/session/shoppers.js';
import { createCatalogSeed } from './factories.js';
import { createTestDatabase } from './test-database.js';

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  /** Closes the app, then removes the test database. */
  close(): Promise<void>;
}

/**
 * The api over a fresh test database (see createTestDatabase) seeded with createCatalogSeed(),
 * for one test file's beforeAll; `options` go to buildApp as given.
 */
export async function createTestApp(options: Omit<AppOptions, 'database'> = {}): Promise<TestApp> {
  const testDb = await createTestDatabase();
  await seedCatalog(testDb.database.db, createCatalogSeed());
  const app = await buildApp({ ...options, database: testDb.database });
  return {
    app,
    database: testDb.database,
    async close() {
      await app.close();
      await testDb.destroy();
    },
  };
}

/**
 * A browser stand-in: keeps the session cookie the api sets and sends it back, the way a
 * browser with `credentials: 'include'` (or the web server forwarding Cookie) does.
 */
export interface ShopperAgent {
  readonly cookie: string | undefined;
  request(options: InjectOptions): Promise<LightMyRequestResponse>;
  get(url: string): Promise<LightMyRequestResponse>;
  post(
    url: string,
    payload?: object,
    headers?: Record<string, string>,
  ): Promise<LightMyRequestResponse>;
  patch(url: string, payload: object): Promise<LightMyRequestResponse>;
  put(url: string, payload: object): Promise<LightMyRequestResponse>;
  delete(url: string): Promise<LightMyRequestResponse>;
}

export function createShopperAgent(app: FastifyInstance): ShopperAgent {
  let cookie: string | undefined;
  const request = async (options: InjectOptions) => {
    const headers = { ...(options.headers ?? {}) } as Record<string, string>;
    if (cookie && headers.cookie === undefined) headers.cookie = `${SESSION_COOKIE}=${cookie}`;
    const res = await app.inject({ ...options, headers });
    const set = res.cookies.find((c) => c.name === SESSION_COOKIE);
    if (set) cookie = set.value;
    return res;
  };
  return {
    get cookie() {
      return cookie;
    },
    request,
    get: (url) => request({ method: 'GET', url }),
    post: (url, payload, headers) =>
      request({ method: 'POST', url, payload: payload ?? {}, headers: headers ?? {} }),
    patch: (url, payload) => request({ method: 'PATCH', url, payload }),
    put: (url, payload) => request({ method: 'PUT', url, payload }),
    delete: (url) => request({ method: 'DELETE', url }),
  };
}

export function createSampleShopper(
  overrides: Partial<SampleShopper> & { id: string },
): SampleShopper {
  return {
    name: `Shopper ${overrides.id}`,
    email: `shopper.${overrides.id}@example.com`,
    team: 'design',
    useDiscount: false,
    useNewCheckoutFlow: false,
    ...overrides,
  };
}

/** A directory over small in-memory lists: one plain shopper and one with the discount. */
export function createTestShopperDirectory(
  lists: { standard?: SampleShopper[]; loyalty?: SampleShopper[] } = {},
): ShopperDirectory {
  return createShopperDirectory(() =>
    Promise.resolve({
      standard: lists.standard ?? [createSampleShopper({ id: 'aaaa0001' })],
      loyalty: lists.loyalty ?? [createSampleShopper({ id: 'bbbb0001', useDiscount: true })],
    }),
  );
}

export function createShippingAddress(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    address1: '12 Workshop Lane',
    city: 'Springfield',
    postalCode: 'AB1 2CD',
    country: 'US',
    ...overrides,
  };
}

/** Card expiry a few years ahead of today, so tests do not age. */
export function futureExpiry(): { expMonth: number; expYear: number } {
  return { expMonth: 12, expYear: new Date().getUTCFullYear() + 3 };
}

export function createCardPayment(cardOverrides: Record<string, unknown> = {}) {
  return {
    type: 'card' as const,
    card: { number: '4242 4242 4242 4242', cvc: '123', ...futureExpiry(), ...cardOverrides },
  };
}

export function createOrderRequest(overrides: Record<string, unknown> = {}) {
  return { shipping: createShippingAddress(), payment: createCardPayment(), ...overrides };
}

export async function setStock(
  db: Kysely<Database>,
  productId: number,
  edition: 'standard' | 'special',
  stock: number,
): Promise<void> {
  if (edition === 'special') {
    await db
      .updateTable('special_editions')
      .set({ stock })
      .where('product_id', '=', productId)
      .execute();
  } else {
    await db.updateTable('products').set({ stock }).where('id', '=', productId).execute();
  }
}

export async function getStock(
  db: Kysely<Database>,
  productId: number,
  edition: 'standard' | 'special',
): Promise<number> {
  const row =
    edition === 'special'
      ? await db
          .selectFrom('special_editions')
          .select('stock')
          .where('product_id', '=', productId)
          .executeTakeFirstOrThrow()
      : await db
          .selectFrom('products')
          .select('stock')
          .where('id', '=', productId)
          .executeTakeFirstOrThrow();
  return row.stock;
}

export async function countRows(
  db: Kysely<Database>,
  table:
    | 'orders'
    | 'order_lines'
    | 'payments'
    | 'payment_methods'
    | 'cart_lines'
    | 'sessions'
    | 'idempotency_keys',
): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

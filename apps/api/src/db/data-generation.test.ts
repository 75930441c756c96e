import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { seedCatalog } from '../modules/catalog/seed.js';
import { createFlagsRepository } from '../modules/flags/repository.js';
import { createCatalogSeed } from '../test/factories.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';
import { createCatalogRepository } from '../modules/catalog/repository.js';
import {
  createGenerationCache,
  dataGenerationOf,
  sqliteDataGenerations,
  writtenTables,
  type DataGeneration,
} from './data-generation.js';
import { Sqlite } from './sqlite-driver.js';

/** Waits for the next turn of the event loop (its check phase). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('createGenerationCache', () => {
  const counter = () => {
    const state = { value: 0 };
    const generation: DataGeneration = () => state.value;
    return { state, generation };
  };

  it('answers a kept value until the generation moves', async () => {
    const { state, generation } = counter();
    const cache = createGenerationCache<string, number>(generation, 10);
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.get('a', load)).toBe(1);
    expect(await cache.get('a', load)).toBe(1);
    expect(await cache.get('b', load)).toBe(2);
    state.value += 1;
    expect(await cache.get('a', load)).toBe(3);
    expect(await cache.get('b', load)).toBe(4);
    expect(loads).toBe(4);
  });

  it('drops a value read across a write at the next get', async () => {
    const { state, generation } = counter();
    const cache = createGenerationCache<string, string>(generation, 10);
    const during = await cache.get('a', async () => {
      state.value += 1;
      return 'read across a write';
    });
    expect(during).toBe('read across a write');
    expect(await cache.get('a', async () => 'read after')).toBe('read after');
    expect(await cache.get('a', async () => 'not asked')).toBe('read after');
  });

  it('loads every time without a generation (PostgreSQL)', async () => {
    const cache = createGenerationCache<string, number>(undefined, 10);
    let loads = 0;
    await cache.get('a', async () => ++loads);
    await cache.get('a', async () => ++loads);
    expect(loads).toBe(2);
  });

  it('keeps at most maxEntries values', async () => {
    const { generation } = counter();
    const cache = createGenerationCache<number, number>(generation, 2);
    let loads = 0;
    const load = async () => ++loads;
    for (const key of [1, 2, 3, 1]) await cache.get(key, load);
    // The third value found the cache full and started it again; 1 was read again.
    expect(loads).toBe(4);
  });
});

describe('sqliteDataGenerations', () => {
  /** A database file, a connection whose data_version reads are counted, and a second one. */
  const openPair = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-generation-'));
    const file = path.join(dir, 'data.db');
    const here = new Sqlite(file);
    here.pragma('journal_mode = WAL');
    here.exec('create table items (id integer primary key)');
    const reads = { count: 0 };
    const counted = {
      prepare(source: string) {
        const statement = here.prepare(source);
        if (!source.includes('data_version')) return statement;
        return {
          pluck: () => {
            const plucked = statement.pluck();
            return {
              get: () => {
                reads.count += 1;
                return plucked.get();
              },
            };
          },
        };
      },
      get inTransaction() {
        return here.inTransaction;
      },
    } as unknown as Parameters<typeof sqliteDataGenerations>[0];
    const other = new Sqlite(file);
    return {
      generations: sqliteDataGenerations(counted),
      reads,
      writeElsewhere: () => other.exec('insert into items default values'),
      close() {
        other.close();
        here.close();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  };

  it('reads data_version once per turn of the event loop, however many reads ask', async () => {
    const pair = openPair();
    try {
      const generation = pair.generations.of(['items']);
      const after = pair.reads.count;
      for (let i = 0; i < 50; i++) generation();
      expect(pair.reads.count).toBe(after + 1);
      await nextTurn();
      const before = pair.reads.count;
      generation();
      generation();
      expect(pair.reads.count).toBe(before + 1);
    } finally {
      pair.close();
    }
  });

  it("moves at the next turn after another connection's commit, and holds within a turn", async () => {
    const pair = openPair();
    try {
      const generation = pair.generations.of(['items']);
      await nextTurn();
      const first = generation();
      pair.writeElsewhere();
      // The same turn answers what its first read saw.
      expect(generation()).toBe(first);
      await nextTurn();
      expect(generation()).toBeGreaterThan(first);
    } finally {
      pair.close();
    }
  });
});

describe('writtenTables', () => {
  it('names the table an insert, update or delete writes, and nothing for raw SQL', async () => {
    const testDb = await createTestDatabase();
    try {
      const { db } = testDb.database;
      const node = (query: { compile(): { query: unknown } }) =>
        query.compile().query as Parameters<typeof writtenTables>[0];
      expect(
        writtenTables(
          node(
            db
              .insertInto('departments')
              .values({ slug: 's', name: 'n', description: 'd', position: 1 }),
          ),
        ),
      ).toEqual(['departments']);
      expect(
        writtenTables(
          node(db.updateTable('products as p').set({ stock: 1 }).where('p.id', '=', 1)),
        ),
      ).toEqual(['products']);
      expect(
        writtenTables(node(db.deleteFrom('cart_lines').where('session_id', '=', 'x'))),
      ).toEqual(['cart_lines']);
      expect(writtenTables(sql`update products set stock = 1`.compile(db).query)).toBeUndefined();
    } finally {
      await testDb.destroy();
    }
  });
});

describe('the data generation and the api caches over a real database', () => {
  let testDb: TestDatabase;
  let app: FastifyInstance;
  const sqliteFile = () => testDb.database.location;

  /**
   * A write from another connection to the same database, as another process makes it; then
   * the next turn of the event loop, from which the api sees it (it reads SQLite's
   * data_version once per turn, db/data-generation.ts).
   */
  const writeElsewhere = async (statement: string) => {
    if (testDb.database.kind === 'sqlite') {
      const other = new Sqlite(sqliteFile());
      try {
        other.exec(statement);
      } finally {
        other.close();
      }
      await nextTurn();
      return;
    }
    const client = new pg.Client({ connectionString: testDb.serverEnv.DATABASE_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };

  const stockOf = async (id: number) => {
    const res = await app.inject({ method: 'GET', url: `/products/${id}` });
    expect(res.statusCode).toBe(200);
    return (res.json() as { stock: number }).stock;
  };

  beforeAll(async () => {
    testDb = await createTestDatabase();
    await seedCatalog(testDb.database.db, createCatalogSeed());
    await createFlagsRepository(testDb.database.db).syncDefinitions({
      environment: 'test',
      flags: [],
      sources: ['data-generation.test.ts'],
      warnings: [],
    });
    app = await buildApp({ database: testDb.database });
  });

  afterAll(async () => {
    await app.close();
    await testDb.destroy();
  });

  it('is known on SQLite only', () => {
    const generation = dataGenerationOf(testDb.database.db, ['products']);
    if (testDb.database.kind === 'sqlite') expect(generation).toBeTypeOf('function');
    else expect(generation).toBeUndefined();
  });

  // SQLite only: PostgreSQL has no generation (every read goes to the database), which the test
  // above checks; the requests below check both databases serve a change at once.
  it.runIf(!process.env.TEST_DATABASE_URL)(
    "stands still for reads and other tables' writes; moves for its tables, unknown writes and commits elsewhere",
    async () => {
      const { db } = testDb.database;
      const products = dataGenerationOf(db, ['products'])!;
      const start = products();
      await sql`select count(*) from products`.execute(db);
      await db.selectFrom('products').select('id').execute();
      await db
        .updateTable('departments')
        .set({ position: 5 })
        .where('slug', '=', 'empty')
        .execute();
      expect(products()).toBe(start);

      await db.updateTable('products').set({ stock: 10 }).where('id', '=', 1).execute();
      const afterOwnWrite = products();
      expect(afterOwnWrite).toBeGreaterThan(start);

      // Raw SQL names no table to Kysely: every generation moves.
      await sql`update departments set position = 6 where slug = 'empty'`.execute(db);
      const afterRaw = products();
      expect(afterRaw).toBeGreaterThan(afterOwnWrite);

      // Another process's commit is seen from the next turn of the event loop (writeElsewhere
      // waits for it): one read of SQLite's data_version serves the rest of a turn.
      await writeElsewhere("update departments set position = 7 where slug = 'empty'");
      expect(products()).toBeGreaterThan(afterRaw);
    },
  );

  it('shows a product changed by this api and by another process on the next read', async () => {
    expect(await stockOf(1)).toBe(10);
    expect(await stockOf(1)).toBe(10);
    await testDb.database.db
      .updateTable('products')
      .set({ stock: 7 })
      .where('id', '=', 1)
      .execute();
    expect(await stockOf(1)).toBe(7);
    await writeElsewhere('update products set stock = 4 where id = 1');
    expect(await stockOf(1)).toBe(4);
  });

  it("shows a special edition's stock and a department's product count changed by this api", async () => {
    const { db } = testDb.database;
    const specialStock = async () => {
      const res = await app.inject({ method: 'GET', url: '/products/2' });
      return (res.json() as { specialEdition: { stock: number } }).specialEdition.stock;
    };
    expect(await specialStock()).toBe(3);
    expect(await specialStock()).toBe(3);
    await db
      .updateTable('special_editions')
      .set({ stock: 1 })
      .where('product_id', '=', 2)
      .execute();
    expect(await specialStock()).toBe(1);

    const chairs = async () => {
      const res = await app.inject({ method: 'GET', url: '/departments' });
      const { departments } = res.json() as {
        departments: { slug: string; productCount: number }[];
      };
      return departments.find((department) => department.slug === 'chairs')?.productCount;
    };
    expect(await chairs()).toBe(1);
    await db
      .insertInto('products')
      .values({
        id: 21,
        department_slug: 'chairs',
        name: 'Second Chair',
        kind: 'armchair',
        description: 'Another seat.',
        price_cents: 9_900,
        stock: 2,
        materials: 'oak',
        colour: '#a47551',
        width_cm: 60,
        depth_cm: 60,
        height_cm: 90,
      })
      .execute();
    expect(await chairs()).toBe(2);
  });

  it("serves another process's commit to a request that arrives while a transaction here is open", async () => {
    const { db } = testDb.database;
    expect(await stockOf(3)).toBe(10);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let began!: () => void;
    const begun = new Promise<void>((resolve) => (began = resolve));
    // A transaction that has read, then waits (as an order waits for the payment gateway).
    const transaction = db.transaction().execute(async (trx) => {
      await trx.selectFrom('orders').select('id').limit(1).execute();
      began();
      await held;
    });
    await begun;
    await writeElsewhere('update products set stock = 99 where id = 3');
    // On SQLite the request waits for the connection, then reads the committed stock; the
    // transaction's snapshot is not the request's.
    const answered = stockOf(3);
    release();
    await transaction;
    expect(await answered).toBe(99);
  });

  it('lets a transaction here write after another process committed while it waited', async () => {
    const { db } = testDb.database;
    const catalog = createCatalogRepository(db);
    expect((await catalog.findProduct(10))?.stock).toBe(10);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let began!: () => void;
    const begun = new Promise<void>((resolve) => (began = resolve));
    // A transaction that has begun and not yet run a statement; a kept read meanwhile must not
    // open its snapshot, or its first write would fail (SQLITE_BUSY_SNAPSHOT).
    const transaction = db.transaction().execute(async (trx) => {
      began();
      await held;
      await trx.updateTable('products').set({ stock: 5 }).where('id', '=', 10).execute();
    });
    await begun;
    await nextTurn();
    const read = catalog.findProduct(10);
    await writeElsewhere('update products set stock = 8 where id = 1');
    release();
    await transaction;
    const product = await read;
    // SQLite: the read waited for the one connection. PostgreSQL's pool reads beside it.
    if (testDb.database.kind === 'sqlite') expect(product?.stock).toBe(5);
    expect(await stockOf(10)).toBe(5);
  });

  it('lists a department added by another process', async () => {
    const slugs = async () => {
      const res = await app.inject({ method: 'GET', url: '/departments' });
      const { departments } = res.json() as { departments: { slug: string }[] };
      return departments.map((department) => department.slug);
    };
    expect(await slugs()).not.toContain('lamps');
    await writeElsewhere(
      "insert into departments (slug, name, description, position) values ('lamps', 'Lamps', 'Light.', 9)",
    );
    expect(await slugs()).toContain('lamps');
  });

  it('serves a flag configuration changed by another process on the next read', async () => {
    const flags = createFlagsRepository(testDb.database.db);
    const before = (await flags.getConfiguration())?.createdAt ?? 0;
    expect((await flags.getConfiguration())?.createdAt).toBe(before);
    await writeElsewhere(
      `update flag_configurations set created_at = ${before + 1000} where id = 'current'`,
    );
    expect((await flags.getConfiguration())?.createdAt).toBe(before + 1000);
  });
});

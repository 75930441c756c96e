import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Kysely, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';
import { migrateToLatest } from './migrate.js';
import { createSqliteDialect } from './sqlite-dialect.js';
import { Sqlite } from './sqlite-driver.js';

// Transactions committed in groups (decision 026): what a caller of Kysely sees.

interface Tables {
  items: { id: number; label: string };
  parents: { id: number };
  children: { id: number; parent_id: number };
}

let dir: string;
let file: string;
let writes: (readonly string[] | undefined)[];
let database: InstanceType<typeof Sqlite>;
let db: Kysely<Tables>;
/** A second connection, as another process would read the file. */
let other: InstanceType<typeof Sqlite>;

const storedIds = () =>
  (other.prepare('select id from items order by id').all() as { id: number }[]).map((r) => r.id);

const insert = (executor: Kysely<Tables>, id: number) =>
  executor
    .insertInto('items')
    .values({ id, label: `item ${id}` })
    .execute();

/**
 * After a failed group: nothing of it is stored, the kept reads were told every table may have
 * changed, and the next transaction starts a group of its own.
 */
async function expectGroupGoneThenNextStored() {
  expect(storedIds()).toEqual([]);
  expect(writes.at(-1)).toBeUndefined();
  await db.transaction().execute((trx) => insert(trx, 3));
  expect(storedIds()).toEqual([3]);
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-dialect-'));
  file = path.join(dir, 'test.db');
  database = new Sqlite(file);
  database.pragma('journal_mode = WAL');
  database.pragma('foreign_keys = ON');
  database.exec(`
    create table items (id integer primary key, label text not null);
    create table parents (id integer primary key);
    create table children (
      id integer primary key,
      parent_id integer not null references parents (id) deferrable initially deferred
    );`);
  writes = [];
  db = new Kysely<Tables>({
    dialect: createSqliteDialect(database, (tables) => writes.push(tables)),
  });
  other = new Sqlite(file, { readonly: true });
});

afterEach(async () => {
  other.close();
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('transactions on SQLite, committed in groups', () => {
  it('commits transactions begun together at once, and answers each once it is stored', async () => {
    const seenInside: number[][] = [];
    const seenAtAnswer: number[][] = [];
    await Promise.all(
      [1, 2, 3, 4, 5].map((id) =>
        db
          .transaction()
          .execute(async (trx) => {
            await insert(trx, id);
            seenInside.push(storedIds());
          })
          .then(() => seenAtAnswer.push(storedIds())),
      ),
    );
    // Nothing was committed while the group's transactions ran, one after the other…
    expect(seenInside).toEqual([[], [], [], [], []]);
    // …and each caller was answered after the one COMMIT of all five.
    expect(seenAtAnswer).toEqual(Array.from({ length: 5 }, () => [1, 2, 3, 4, 5]));
  });

  it('rolls back a failing transaction alone; the others of its group are stored', async () => {
    const results = await Promise.allSettled(
      // The first opens the group (no savepoint of its own); the others are in savepoints.
      [1, 2, 3, 4].map((id) =>
        db.transaction().execute(async (trx) => {
          await insert(trx, id);
          if (id % 2 === 1) throw new Error(`out of stock ${id}`);
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual([
      'rejected',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect((results[0] as PromiseRejectedResult).reason).toEqual(new Error('out of stock 1'));
    expect((results[2] as PromiseRejectedResult).reason).toEqual(new Error('out of stock 3'));
    expect(storedIds()).toEqual([2, 4]);
  });

  it('commits an open group before a write outside a transaction, which is stored when it answers', async () => {
    const grouped = db.transaction().execute((trx) => insert(trx, 1));
    await insert(db, 2);
    expect(storedIds()).toEqual([1, 2]);
    await grouped;
  });

  it('answers a read outside a transaction that sees an open group once that group is stored', async () => {
    const grouped = db.transaction().execute((trx) => insert(trx, 1));
    const rows = await db.selectFrom('items').select('id').execute();
    expect(rows).toEqual([{ id: 1 }]);
    expect(storedIds()).toEqual([1]);
    await grouped;
  });

  it('fails every transaction of a group whose COMMIT fails, and stores none of them', async () => {
    await db.insertInto('parents').values({ id: 1 }).execute();
    const results = await Promise.allSettled([
      db.transaction().execute((trx) => insert(trx, 1)),
      // A deferred foreign key is checked at COMMIT: this one makes the group's COMMIT fail.
      db
        .transaction()
        .execute((trx) => trx.insertInto('children').values({ id: 1, parent_id: 99 }).execute()),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    for (const result of results) {
      expect(String((result as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    }
    await expectGroupGoneThenNextStored();
  });

  it('fails the transactions already committed into a group that SQLite rolled back', async () => {
    const first = db.transaction().execute((trx) => insert(trx, 1));
    const second = db.transaction().execute(async (trx) => {
      await insert(trx, 2);
      // What SQLite does itself on a full disk or an I/O error: the whole transaction ends.
      await sql`rollback`.execute(trx);
    });
    const [a, b] = await Promise.allSettled([first, second]);
    expect(a.status).toBe('rejected');
    expect(b.status).toBe('rejected');
    expect(String((a as PromiseRejectedResult).reason)).toMatch(/nothing of it was stored/);
    await expectGroupGoneThenNextStored();
  });

  it('keeps the connection for the next statements of a turn after a read that waited', async () => {
    const grouped = db.transaction().execute((trx) => insert(trx, 1));
    const seen = await db.connection().execute(async (connection) => {
      const before = await connection.selectFrom('items').select('id').execute();
      await insert(connection, 2);
      await connection.transaction().execute((trx) => insert(trx, 3));
      const after = await connection.selectFrom('items').select('id').execute();
      return [before.map((r) => r.id), after.map((r) => r.id)];
    });
    expect(seen).toEqual([[1], [1, 2, 3]]);
    expect(storedIds()).toEqual([1, 2, 3]);
    await grouped;
  });

  it('streams rows outside a transaction only once an open group is stored', async () => {
    const grouped = db.transaction().execute((trx) => insert(trx, 1));
    const streamed: number[] = [];
    for await (const row of db.selectFrom('items').select('id').stream()) {
      streamed.push(row.id);
      expect(storedIds()).toEqual([1]);
    }
    expect(streamed).toEqual([1]);
    await grouped;
  });
});

describe('the schema', () => {
  it('has no deferred constraint, which would fail every transaction of its group at COMMIT', async () => {
    const migrated = openDatabase({ sqliteFile: path.join(dir, 'migrated.db') });
    try {
      await migrateToLatest(migrated.db);
      const { rows } = await sql<{
        name: string;
        sql: string;
      }>`select name, sql from sqlite_master where sql is not null`.execute(migrated.db);
      expect(rows.length).toBeGreaterThan(10);
      expect(rows.filter((row) => /deferr/i.test(row.sql)).map((row) => row.name)).toEqual([]);
    } finally {
      await migrated.close();
    }
  });
});

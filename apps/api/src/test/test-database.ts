import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, type DatabaseHandle } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';

export interface TestDatabase {
  database: DatabaseHandle;
  /**
   * The environment that points an api process (server.ts) at this database: DATA_DIR holding
   * the SQLite file under the name server.ts opens, or DATABASE_URL (with a DATA_DIR of its own).
   */
  serverEnv: { DATA_DIR: string; DATABASE_URL: string };
  /** Closes the connection and removes the file or drops the database. */
  destroy(): Promise<void>;
}

/**
 * A fresh, migrated database for one test file: a SQLite file in a temp folder, or — when
 * TEST_DATABASE_URL points at a PostgreSQL server — a database created for this file and dropped after.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) return createPostgresTestDatabase(serverUrl);

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-test-'));
  // showroom.db: the file server.ts opens in DATA_DIR, so a spawned api can share it.
  const database = openDatabase({ sqliteFile: path.join(dir, 'showroom.db') });
  await migrateToLatest(database.db);
  return {
    database,
    serverEnv: { DATA_DIR: dir, DATABASE_URL: '' },
    async destroy() {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function createPostgresTestDatabase(serverUrl: string): Promise<TestDatabase> {
  const name = `showroom_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();

  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = openDatabase({ databaseUrl: url.toString(), poolSize: 20 });
  await migrateToLatest(database.db);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-test-'));
  return {
    database,
    serverEnv: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    async destroy() {
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      // The pool's clients finish closing asynchronously; forcing the drop while they do makes
      // the server kill them mid-close. Wait (bounded) until they are gone, then drop.
      const deadline = Date.now() + 5_000;
      while (Date.now() < deadline) {
        const { rows } = await cleanup.query<{ n: string }>(
          'SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1',
          [name],
        );
        if (Number(rows[0]?.n ?? 0) === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

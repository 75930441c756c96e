// The built api for the api, flags and scale parts: built when its sources changed, started as
// `node apps/api/dist/server.js` (production, LOG_LEVEL=warn) over a fresh DATA_DIR, with a
// database the part may prepare first (a bigger catalog, more stock) through the api's own
// migrations. A Fastify hello-world (bench/fixtures/hello.mjs) is the ceiling beside it.
//
// Ports: BENCH_PORT_BASE (default 3300) and up, away from the shop's 3200/3201:
//   base + 0  the hello-world fixture
//   base + 1… the api processes of a part (one at a time)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isStale } from '../../scripts/build-state.mjs';
import { startNode } from './processes.mjs';

export const PORT_BASE = Number(process.env.BENCH_PORT_BASE ?? 3300);
export const HELLO_PORT = PORT_BASE;
export const API_PORT = PORT_BASE + 1;

/** Builds packages/contracts and apps/api when dist is missing or older than their sources. */
export function ensureApiBuilt(root, log = () => {}) {
  const outputs = ['apps/api/dist/server.js', 'packages/contracts/dist/catalog.js'];
  const sources = ['apps/api/src', 'apps/api/tsconfig.json', 'packages/contracts/src'];
  if (!isStale(root, outputs, sources)) return;
  log('building packages/contracts and apps/api (dist missing or stale)…');
  for (const workspace of ['packages/contracts', 'apps/api']) {
    const result = spawnSync('npm', ['run', 'build', '-w', workspace], {
      cwd: root,
      stdio: 'inherit',
    });
    if (result.status !== 0) throw new Error(`npm run build -w ${workspace} failed`);
  }
}

/** `require` as the api resolves packages (fastify, the SQLite driver, @datadog/flagging-core). */
export function apiRequire(root) {
  return createRequire(path.join(root, 'apps/api/package.json'));
}

/**
 * better-sqlite3's Database class as the api loads it: the package that runs on this Node
 * (docs/decisions/014-node-versions-and-sqlite-driver.md; apps/api/src/db/sqlite-driver.ts).
 */
export function sqliteDriver(root) {
  return apiRequire(root)(sqliteDriverPackage());
}

/** The package name of the SQLite driver the api uses on this Node (SHOWROOM_SQLITE_DRIVER overrides). */
export function sqliteDriverPackage() {
  const override = process.env.SHOWROOM_SQLITE_DRIVER;
  if (override) return override;
  return Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3' : 'better-sqlite3-12';
}

/** Imports a module of the built api, e.g. `db/migrate.js`. */
export function importApiDist(root, file) {
  return import(pathToFileURL(path.join(root, 'apps/api/dist', file)).href);
}

/** Imports a module of the built contracts, e.g. `colours.js`. */
export function importContractsDist(root, file) {
  return import(pathToFileURL(path.join(root, 'packages/contracts/dist', file)).href);
}

export function tempDir(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), `showroom-bench-${prefix}-`));
}

/** The shop's catalog seed (data/catalog.json). */
export function readCatalog(root) {
  return JSON.parse(fs.readFileSync(path.join(root, 'data/catalog.json'), 'utf8'));
}

/**
 * Creates the api's SQLite database in `dataDir` before the api starts: the api's migrations,
 * then the catalog `times` over (copies get new ids and names, in the same departments) with
 * every edition's stock set to `stock`; the search index follows by the api's triggers. The api
 * then finds a catalog and does not seed its own.
 * Answers the product ids.
 */
export async function prepareDatabase(root, dataDir, { times = 1, stock } = {}) {
  const { openDatabase } = await importApiDist(root, 'db/database.js');
  const { migrateToLatest } = await importApiDist(root, 'db/migrate.js');
  const { colourName } = await importContractsDist(root, 'colours.js');
  const database = openDatabase({ sqliteFile: path.join(dataDir, 'showroom.db') });
  await migrateToLatest(database.db);
  await database.close();

  const Database = sqliteDriver(root);
  const sqlite = new Database(path.join(dataDir, 'showroom.db'));
  const catalog = readCatalog(root);
  const insertDepartment = sqlite.prepare(
    'insert into departments (slug, name, description, position) values (?, ?, ?, ?)',
  );
  const insertProduct = sqlite.prepare(
    `insert into products (id, department_slug, name, kind, description, price_cents, stock,
       materials, colour, colour_name, width_cm, depth_cm, height_cm)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertEdition = sqlite.prepare(
    `insert into special_editions (product_id, name, description, price_cents, badge, stock)
       values (?, ?, ?, ?, ?, ?)`,
  );
  const ids = [];
  const maxId = Math.max(...catalog.products.map((p) => p.id));
  sqlite.transaction(() => {
    catalog.departments.forEach((d, position) =>
      insertDepartment.run(d.slug, d.name, d.description, position),
    );
    for (let copy = 0; copy < times; copy++) {
      for (const p of catalog.products) {
        const id = p.id + copy * maxId;
        const suffix = copy === 0 ? '' : ` ${copy + 1}`;
        const se = p.specialEdition;
        insertProduct.run(
          id,
          p.department,
          p.name + suffix,
          p.kind,
          p.description,
          p.priceCents,
          stock ?? p.stock,
          JSON.stringify(p.materials),
          p.colour,
          colourName(p.colour),
          p.dimensions.widthCm,
          p.dimensions.depthCm,
          p.dimensions.heightCm,
        );
        insertEdition.run(
          id,
          se.name + suffix,
          se.description,
          se.priceCents,
          se.badge,
          stock ?? se.stock,
        );
        ids.push(id);
      }
    }
  })();
  sqlite.close();
  return { ids, departments: catalog.departments.map((d) => d.slug) };
}

/** Opens the api's SQLite file beside the running api (WAL: reads do not block it). */
export function openSqlite(root, dataDir, options = {}) {
  const Database = sqliteDriver(root);
  return new Database(path.join(dataDir, 'showroom.db'), options);
}

/** Starts the built api on `port` over `dataDir`; `env` adds FLAGS_PATH and the like. */
export async function startApi(root, { port = API_PORT, dataDir, env = {} }) {
  const url = `http://127.0.0.1:${port}`;
  const process_ = await startNode(['apps/api/dist/server.js'], {
    cwd: root,
    name: 'the api (apps/api/dist/server.js)',
    env: {
      API_HOST: '127.0.0.1',
      API_PORT: String(port),
      DATA_DIR: dataDir,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      OTEL_EXPORTER_OTLP_ENDPOINT: '',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: '',
      DATABASE_URL: '',
      // No purge of old rows (apps/api retention) during a load: the scale part's 1M stored
      // events are dated January 2026, and a purge running beside the intake load would be
      // counted in its figures (it once made the stored count negative).
      RETENTION_INTERVAL_MINUTES: '0',
      ...env,
    },
    readyUrl: `${url}/health`,
    timeoutMs: 120_000,
  });
  return { url, dataDir, output: process_.output, stop: () => process_.stop() };
}

/** Starts the Fastify hello-world fixture (the same Fastify as the api) on `port`. */
export async function startHello(root, { port = HELLO_PORT } = {}) {
  const url = `http://127.0.0.1:${port}`;
  const process_ = await startNode(['bench/fixtures/hello.mjs'], {
    cwd: root,
    name: 'the Fastify hello fixture',
    env: { HELLO_PORT: String(port), NODE_ENV: 'production' },
    readyUrl: `${url}/`,
    timeoutMs: 30_000,
  });
  return { url, stop: () => process_.stop() };
}

import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * The SQLite driver for the Node running the api (docs/decisions/014-node-versions-and-sqlite-driver.md):
 * better-sqlite3 13 (Node-API, prebuilt, ABI-stable) on Node 22 and later; on Node 20, where
 * 13 crashes, better-sqlite3 12 installed under the alias `better-sqlite3-12`. Both are
 * optional dependencies whose `engines` make npm install only the one(s) this Node can run.
 */
export const SQLITE_DRIVER_PACKAGE = chooseDriver(process.env.SHOWROOM_SQLITE_DRIVER);

/**
 * SHOWROOM_SQLITE_DRIVER (better-sqlite3 or better-sqlite3-12) overrides the choice, for
 * measuring one driver against the other on the same Node (the decision's figures, the soak).
 */
function chooseDriver(override: string | undefined): string {
  if (override === 'better-sqlite3' || override === 'better-sqlite3-12') return override;
  if (override) {
    throw new Error(
      `SHOWROOM_SQLITE_DRIVER must be better-sqlite3 or better-sqlite3-12, not ${override}`,
    );
  }
  return Number(process.versions.node.split('.')[0]) >= 22 ? 'better-sqlite3' : 'better-sqlite3-12';
}

function loadDriver(): typeof BetterSqlite3 {
  const require = createRequire(import.meta.url);
  try {
    return require(SQLITE_DRIVER_PACKAGE) as typeof BetterSqlite3;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'MODULE_NOT_FOUND') throw error;
    throw new Error(
      `${SQLITE_DRIVER_PACKAGE} (the SQLite driver for Node ${process.versions.node}) is not ` +
        'installed: node_modules was installed with another Node major version. ' +
        'Run `npm install` with this Node.',
      { cause: error },
    );
  }
}

/** better-sqlite3's Database class, from the package that runs on this Node. */
export const Sqlite: typeof BetterSqlite3 = loadDriver();

import path from 'node:path';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { readCatalogSeed, seedCatalog } from './modules/catalog/seed.js';
import {
  DEFAULT_FLAGS_PATH,
  logFlagDefinitions,
  readFlagDefinitions,
} from './modules/flags/definitions.js';
import { createFlagsRepository } from './modules/flags/repository.js';

/** Listens and shuts down; everything else lives in app.ts. */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = openDatabase({
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, 'showroom.db'),
  });
  await migrateToLatest(database.db);
  const seeded = await seedCatalog(database.db, await readCatalogSeed());
  const flagDefinitions = await readFlagDefinitions(config.flagsPath ?? DEFAULT_FLAGS_PATH);
  const flagsLoaded = await createFlagsRepository(database.db).syncDefinitions(flagDefinitions);

  // Spans are exported only when an OTLP endpoint is configured; otherwise ids are only logged.
  const tracer = config.otlpEndpoint
    ? (await import('./http/otlp-tracer.js')).createOtlpTracer({
        serviceName: config.otelServiceName,
      })
    : undefined;
  const app = await buildApp({
    database,
    tracer,
    corsOrigins: config.corsOrigins,
    logger: { level: config.logLevel },
    sessionSecret: config.sessionSecret,
    trustProxy: config.trustProxy,
  });
  app.log.info({ database: database.location, seeded }, 'database ready');
  logFlagDefinitions(app.log, flagDefinitions, flagsLoaded);

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    try {
      await app.close();
      await tracer?.shutdown();
      await database.close();
      process.exit(0);
    } catch (err) {
      app.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: config.host, port: config.port });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

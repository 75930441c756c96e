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
import { createSmtpMailer } from './modules/accounts/mailer.js';
import { readScenarioCatalogue } from './modules/scenarios/catalogue.js';
import { openOperatorRoutesWarning } from '@showroom/contracts/security';

/** Listens and shuts down; everything else lives in app.ts. */
async function main(): Promise<void> {
  const config = loadConfig();
  // A pooled connection lost while idle (PostgreSQL restarted) is logged, never fatal: the next
  // query opens a new one, and requests answer 503 DATABASE_UNAVAILABLE until it succeeds.
  const logTo: { log?: { warn(object: object, message: string): void } } = {};
  const database = openDatabase({
    databaseUrl: config.databaseUrl,
    sqliteFile: path.join(config.dataDir, 'showroom.db'),
    onConnectionError: (err) => {
      if (logTo.log) logTo.log.warn({ err }, 'database: a connection failed');
      else console.error(`database: a connection failed: ${err.message}`);
    },
    // SQLite: WAL checkpoints off the request path; if that process ends, the api's own
    // connection checkpoints again, as SQLite does by default.
    walCheckpointer: {
      onExit: (detail) => {
        const message = `database: the WAL checkpointer ${detail}; the api checkpoints by itself`;
        if (logTo.log) logTo.log.warn({ checkpointer: detail }, message);
        else console.error(message);
      },
    },
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
    operatorToken: config.operatorToken,
    logger: { level: config.logLevel },
    sessionSecret: config.sessionSecret,
    trustProxy: config.trustProxy,
    authRateLimitPerMinute: config.authRateLimitPerMinute,
    ofrep: { apiKeys: config.ofrepApiKeys, rateLimitPerMinute: config.ofrepRateLimitPerMinute },
    scenarios: readScenarioCatalogue(config.scenariosPath),
    ...(config.retentionIntervalMinutes > 0
      ? {
          retention: {
            settings: config.retention,
            intervalMs: config.retentionIntervalMinutes * 60_000,
          },
        }
      : {}),
    ...(config.guardCheckIntervalMs > 0
      ? { guards: { intervalMs: config.guardCheckIntervalMs } }
      : {}),
    // Mail goes through SMTP when SMTP_URL is set, else into the database outbox (/outbox).
    ...(config.smtpUrl ? { mailer: createSmtpMailer(config.smtpUrl, config.mailFrom) } : {}),
  });
  logTo.log = app.log;
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
  const openOperatorRoutes = openOperatorRoutesWarning(
    'Showroom api',
    config.host,
    config.operatorToken,
  );
  if (openOperatorRoutes) app.log.warn(openOperatorRoutes);
  else if (config.operatorToken) app.log.info('operator routes need the operator token');
  else app.log.info('operator routes are open (listening on loopback only)');
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

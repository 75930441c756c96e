import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: this file lives in apps/api/src (or apps/api/dist once built). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface ApiConfig {
  host: string;
  port: number;
  /** Folder for the embedded SQLite file and other runtime data. */
  dataDir: string;
  /** PostgreSQL connection string; SQLite under dataDir when absent. */
  databaseUrl: string | undefined;
  /** Origins allowed to call the api from a browser (the web app). */
  corsOrigins: string[];
  logLevel: string;
  production: boolean;
  /** Signs the session cookie (and keys idempotency fingerprints). See SESSION_SECRET below. */
  sessionSecret: string;
  /** TRUST_PROXY=true behind a TLS-terminating proxy: X-Forwarded-Proto decides cookie Secure. */
  trustProxy: boolean;
  /** OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_ENDPOINT): export request spans over OTLP/HTTP. */
  otlpEndpoint: string | undefined;
  /** OTEL_SERVICE_NAME, default showroom-api. */
  otelServiceName: string;
  /** FLAGS_PATH: a UFC JSON file or a folder of them replacing the default flag definitions (apps/api/flags). */
  flagsPath: string | undefined;
}

/**
 * SESSION_SECRET signs session cookies. This default is for development and tests only:
 * anyone who reads it can forge a session cookie, so production MUST set SESSION_SECRET
 * (32+ random characters, e.g. `openssl rand -base64 48`), or let loadConfig keep one in DATA_DIR.
 */
export const DEVELOPMENT_SESSION_SECRET = 'showroom-development-session-secret-not-for-production';
const MIN_SESSION_SECRET_LENGTH = 32;

/**
 * Without SESSION_SECRET, a production start (`npm start`) keeps a random secret in the data
 * folder, created on first start: one machine stays usable with two commands. Replicas that share
 * a database must share SESSION_SECRET instead.
 */
function dataDirSessionSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(48).toString('base64url');
    try {
      fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
      return secret;
    } catch {
      // Another process created it first: use theirs.
      return fs.readFileSync(file, 'utf8').trim();
    }
  }
}

function parseSessionSecret(env: NodeJS.ProcessEnv, production: boolean, dataDir: string): string {
  const secret = env.SESSION_SECRET;
  if (secret === undefined || secret === '') {
    return production ? dataDirSessionSecret(dataDir) : DEVELOPMENT_SESSION_SECRET;
  }
  if (secret.length < MIN_SESSION_SECRET_LENGTH) {
    throw new Error(`SESSION_SECRET must be at least ${MIN_SESSION_SECRET_LENGTH} characters`);
  }
  return secret;
}

function parsePort(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`${name} must be a port number from 0 to 65535, got "${raw}"`);
  }
  return port;
}

/** Reads the api's environment once, at start-up. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const webPort = parsePort('PORT', env.PORT, 3000);
  const dataDir = path.resolve(REPO_ROOT, env.DATA_DIR ?? 'data');
  const corsOrigins = (
    env.CORS_ORIGINS ?? `http://localhost:${webPort},http://127.0.0.1:${webPort}`
  )
    .split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  return {
    host: env.API_HOST ?? '0.0.0.0',
    port: parsePort('API_PORT', env.API_PORT, 3001),
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    corsOrigins,
    logLevel: env.LOG_LEVEL ?? 'info',
    production: env.NODE_ENV === 'production',
    sessionSecret: parseSessionSecret(env, env.NODE_ENV === 'production', dataDir),
    trustProxy: env.TRUST_PROXY === 'true',
    otlpEndpoint:
      env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined,
    otelServiceName: env.OTEL_SERVICE_NAME || 'showroom-api',
    flagsPath: env.FLAGS_PATH ? path.resolve(REPO_ROOT, env.FLAGS_PATH) : undefined,
  };
}

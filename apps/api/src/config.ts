import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AUTH_RATE_LIMIT_PER_MINUTE } from '@showroom/contracts/accounts';
import {
  OFREP_API_KEYS_ENV,
  OFREP_RATE_LIMIT_ENV,
  OFREP_RATE_LIMIT_PER_MINUTE,
  parseOfrepApiKeys,
} from '@showroom/contracts/ofrep';
import {
  ALLOWED_ORIGINS_ENV,
  OPERATOR_TOKEN_ENV,
  parseAllowedOrigins,
} from '@showroom/contracts/security';
import {
  DEFAULT_RETENTION,
  DEFAULT_RETENTION_INTERVAL_MINUTES,
  type RetentionSettings,
} from './modules/retention/retention.js';

/** The repository root: this file lives in apps/api/src (or apps/api/dist once built). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface ApiConfig {
  host: string;
  port: number;
  /** Folder for the embedded SQLite file and other runtime data. */
  dataDir: string;
  /** PostgreSQL connection string; SQLite under dataDir when absent. */
  databaseUrl: string | undefined;
  /**
   * Origins allowed to call the api from a browser (the web app): CORS_ORIGINS (default the web
   * app on localhost and 127.0.0.1) plus ALLOWED_ORIGINS; they may send writes too.
   */
  corsOrigins: string[];
  /** OPERATOR_TOKEN: the operator routes' bearer token; undefined leaves them open. */
  operatorToken: string | undefined;
  logLevel: string;
  production: boolean;
  /** Signs the session cookie (and keys idempotency fingerprints). See SESSION_SECRET below. */
  sessionSecret: string;
  /**
   * Whose X-Forwarded-For/-Proto the api believes (client address for rate limits, https for the
   * cookie's Secure). TRUST_PROXY: unset → `loopback` (the web server's own /api proxy on this
   * machine), `true` → every proxy (behind a TLS-terminating load balancer), `false` → none, or
   * Fastify's list of addresses/CIDRs.
   */
  trustProxy: boolean | string;
  /** OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_ENDPOINT): export request spans over OTLP/HTTP. */
  otlpEndpoint: string | undefined;
  /** OTEL_SERVICE_NAME, default showroom-api. */
  otelServiceName: string;
  /** FLAGS_PATH: a UFC JSON file or a folder of them replacing the default flag definitions (apps/api/flags). */
  flagsPath: string | undefined;
  /** SCENARIOS_PATH: another scenario catalogue file; default data/scenarios.json. */
  scenariosPath: string | undefined;
  /** SMTP_URL (e.g. smtp://user:pass@mail.example.com:587): send mail there instead of the outbox. */
  smtpUrl: string | undefined;
  /** MAIL_FROM: the sender of the shop's mail. */
  mailFrom: string | undefined;
  /** AUTH_RATE_LIMIT_PER_MINUTE: sign-up, sign-in and code requests a minute per client. */
  authRateLimitPerMinute: number;
  /** OFREP_API_KEYS: keys OFREP requests must present (X-API-Key or Bearer); empty leaves OFREP open. */
  ofrepApiKeys: string[];
  /** OFREP_RATE_LIMIT_PER_MINUTE: OFREP requests a minute per route and client address. */
  ofrepRateLimitPerMinute: number;
  /** RETENTION_*: how long sessions, idempotency keys, outbox mail and monitoring data are kept. */
  retention: RetentionSettings;
  /** RETENTION_INTERVAL_MINUTES: how often the purge runs (and once at start); 0 turns it off. */
  retentionIntervalMinutes: number;
  /**
   * GUARD_CHECK_INTERVAL_MS: how often the api looks for guarded rollouts due a check (each
   * guard's own checkEveryMs decides when it is due); 0 turns the checker off.
   */
  guardCheckIntervalMs: number;
}

export const DEFAULT_GUARD_CHECK_INTERVAL_MS = 1_000;

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

function parsePositiveInteger(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new Error(`${name} must be a whole number of at least 1, got "${raw}"`);
  }
  return value;
}

/** A positive number (fractions allowed: `RETENTION_MONITORING_DAYS=0.5` is twelve hours). */
function parsePositiveNumber(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) {
    throw new Error(`${name} must be a number above 0, got "${raw}"`);
  }
  return value;
}

function parseRetention(env: NodeJS.ProcessEnv): RetentionSettings {
  const d = DEFAULT_RETENTION;
  return {
    sessionsDays: parsePositiveNumber(
      'RETENTION_SESSIONS_DAYS',
      env.RETENTION_SESSIONS_DAYS,
      d.sessionsDays,
    ),
    idempotencyHours: parsePositiveNumber(
      'RETENTION_IDEMPOTENCY_HOURS',
      env.RETENTION_IDEMPOTENCY_HOURS,
      d.idempotencyHours,
    ),
    outboxDays: parsePositiveNumber(
      'RETENTION_OUTBOX_DAYS',
      env.RETENTION_OUTBOX_DAYS,
      d.outboxDays,
    ),
    monitoringDays: parsePositiveNumber(
      'RETENTION_MONITORING_DAYS',
      env.RETENTION_MONITORING_DAYS,
      d.monitoringDays,
    ),
    batchSize: parsePositiveInteger('RETENTION_BATCH_SIZE', env.RETENTION_BATCH_SIZE, d.batchSize),
  };
}

function parseTrustProxy(raw: string | undefined): boolean | string {
  if (raw === undefined || raw === '') return 'loopback';
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  return raw;
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
  for (const origin of parseAllowedOrigins(env[ALLOWED_ORIGINS_ENV])) {
    if (!corsOrigins.includes(origin)) corsOrigins.push(origin);
  }
  return {
    host: env.API_HOST ?? '0.0.0.0',
    port: parsePort('API_PORT', env.API_PORT, 3001),
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    corsOrigins,
    operatorToken: env[OPERATOR_TOKEN_ENV] || undefined,
    logLevel: env.LOG_LEVEL ?? 'info',
    production: env.NODE_ENV === 'production',
    sessionSecret: parseSessionSecret(env, env.NODE_ENV === 'production', dataDir),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    otlpEndpoint:
      env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined,
    otelServiceName: env.OTEL_SERVICE_NAME || 'showroom-api',
    flagsPath: env.FLAGS_PATH ? path.resolve(REPO_ROOT, env.FLAGS_PATH) : undefined,
    scenariosPath: env.SCENARIOS_PATH ? path.resolve(REPO_ROOT, env.SCENARIOS_PATH) : undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM || undefined,
    authRateLimitPerMinute: parsePositiveInteger(
      'AUTH_RATE_LIMIT_PER_MINUTE',
      env.AUTH_RATE_LIMIT_PER_MINUTE,
      AUTH_RATE_LIMIT_PER_MINUTE,
    ),
    ofrepApiKeys: parseOfrepApiKeys(env[OFREP_API_KEYS_ENV]),
    ofrepRateLimitPerMinute: parsePositiveInteger(
      OFREP_RATE_LIMIT_ENV,
      env[OFREP_RATE_LIMIT_ENV],
      OFREP_RATE_LIMIT_PER_MINUTE,
    ),
    retention: parseRetention(env),
    guardCheckIntervalMs:
      env.GUARD_CHECK_INTERVAL_MS === '0'
        ? 0
        : parsePositiveInteger(
            'GUARD_CHECK_INTERVAL_MS',
            env.GUARD_CHECK_INTERVAL_MS,
            DEFAULT_GUARD_CHECK_INTERVAL_MS,
          ),
    retentionIntervalMinutes:
      env.RETENTION_INTERVAL_MINUTES === '0'
        ? 0
        : parsePositiveNumber(
            'RETENTION_INTERVAL_MINUTES',
            env.RETENTION_INTERVAL_MINUTES,
            DEFAULT_RETENTION_INTERVAL_MINUTES,
          ),
  };
}

import { createHash } from 'node:crypto';
import zlib from 'node:zlib';
import AjvCompiler from '@fastify/ajv-compiler';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { Compile } from 'typebox/compile';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '@showroom/contracts/errors';
import { AJV_OPTIONS, buildApp } from '../app.js';
import { seedCatalog } from '../modules/catalog/seed.js';
import {
  ExposureEventSchema,
  FlagEvaluationEventSchema,
  MAX_INTAKE_BODY_BYTES,
} from '../modules/intake/schemas.js';
import { RumEventSchema, RumViewEventSchema } from '../modules/monitoring/rum-events.js';
import { SESSION_COOKIE } from '@showroom/contracts/security';
import { createCatalogSeed } from '../test/factories.js';
import { createRumAction, createRumError, createRumView, ndjson } from '../test/rum-factories.js';
import { createTestDatabase, type TestDatabase } from '../test/test-database.js';

/**
 * Malformed requests against every route of the OpenAPI document (docs/requirements.md R-5.5:
 * the api checks every request against a schema and names the field at fault; docs/architecture.md
 * "Errors": one error envelope, 5xx details stay in the log). Every request the generators build
 * carries at least one defect the api must refuse — a field that fails the route's own schema
 * (judged by the same Ajv options the api uses), broken JSON, a content type the route does not
 * read, a body over the limit, a path that names no route — plus, at random, noise that must not
 * matter: forged or garbage cookies, odd headers, extra fields. Each must get a 4xx JSON error
 * without stack traces or SQL, the server must keep answering, and the database must not change.
 *
 * Routes that read no input at all (a GET of the session, the flags list…) cannot be sent a
 * malformed field: they get junk paths and, one request in five, the envelope noise alone, which
 * may answer 2xx and is counted apart. Extra fields are noise, not a defect: no request schema
 * sets `additionalProperties: false` (and Ajv would remove them), so the api ignores them.
 *
 * Reproduce a run with BAD_INPUT_SEED=<seed>; the seed is printed with the figures.
 */

/** The error codes OFREP's answers use (open-feature/protocol, service/openapi.yaml). */
const OFREP_ERROR_CODES = [
  'PARSE_ERROR',
  'INVALID_CONTEXT',
  'TARGETING_KEY_MISSING',
  'FLAG_NOT_FOUND',
  'GENERAL',
];

const SEED = Number(process.env.BAD_INPUT_SEED ?? 4242);
/** Requests over all routes: enough that at least 10,000 of them are refused malformed ones. */
const TARGET_REQUESTS = 10_600;
/** Fastify's default body limit; the intake reads up to its own. */
const DEFAULT_BODY_LIMIT = 1024 * 1024;
const BODY_LIMITS: Record<string, number> = { 'POST /intake': MAX_INTAKE_BODY_BYTES };
const DATABASE = process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'SQLite';

type Json = Record<string, unknown>;
interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}
type Part = 'params' | 'querystring' | 'headers' | 'body';
const PARTS: Part[] = ['params', 'querystring', 'headers', 'body'];

interface RouteModel {
  key: string;
  method: string;
  path: string;
  parts: Partial<Record<Part, JsonSchema>>;
  bodyTypes: string[];
  bodyLimit: number;
  /** Valid values of each declared part, built from the schema and checked by the validator. */
  baseline: Partial<Record<Part, Json>>;
  validators: Partial<Record<Part, (value: unknown) => boolean>>;
}

/** One generated request: what is sent and what the test knows about it. */
interface Attempt {
  /** The defect: `body.field`, `broken-json`, `oversized`… or `noise-only`. */
  defect: string;
  /** The part whose schema the defect breaks, when it is a schema defect. */
  part?: Part;
  /** A defect of the whole part (the body is an array): no field to name. */
  wholePart?: boolean;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
}

// ---------------------------------------------------------------------------------------------
// The validator the api uses (same Ajv compiler, same options), as the oracle for "invalid".

const buildCompiler = AjvCompiler();
const compileValidator = buildCompiler({}, { customOptions: { ...AJV_OPTIONS } });

function validatorOf(schema: JsonSchema, part: Part, route: string) {
  const validate = compileValidator({
    schema,
    method: 'GET',
    url: route,
    httpPart: part,
  }) as (value: unknown) => boolean;
  // Ajv coerces and fills in defaults in place: judge a copy.
  return (value: unknown) => validate(structuredClone(value));
}

// ---------------------------------------------------------------------------------------------
// Routes from the OpenAPI document.

interface OpenApiOperation {
  parameters?: { in: string; name: string; required?: boolean; schema: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

function routeModels(doc: { paths: Record<string, Record<string, OpenApiOperation>> }) {
  const models: RouteModel[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [lower, operation] of Object.entries(operations)) {
      const method = lower.toUpperCase();
      const key = `${method} ${path}`;
      const parts: Partial<Record<Part, JsonSchema>> = {};
      const where = { params: 'path', querystring: 'query', headers: 'header' } as const;
      for (const part of ['params', 'querystring', 'headers'] as const) {
        const declared = (operation.parameters ?? []).filter((p) => p.in === where[part]);
        if (declared.length === 0) continue;
        parts[part] = {
          type: 'object',
          properties: Object.fromEntries(declared.map((p) => [p.name, p.schema])),
          required: declared.filter((p) => p.required).map((p) => p.name),
        };
      }
      const content = operation.requestBody?.content ?? {};
      const bodyTypes = Object.keys(content);
      const bodySchema = bodyTypes.map((type) => content[type]?.schema).find(Boolean);
      if (bodySchema) parts.body = bodySchema;
      const validators: RouteModel['validators'] = {};
      const baseline: RouteModel['baseline'] = {};
      for (const part of PARTS) {
        const schema = parts[part];
        if (!schema) continue;
        validators[part] = validatorOf(schema, part, path);
        baseline[part] = exampleOf(schema) as Json;
      }
      models.push({
        key,
        method,
        path,
        parts,
        bodyTypes: bodyTypes.length > 0 ? bodyTypes : ['application/json'],
        bodyLimit: BODY_LIMITS[key] ?? DEFAULT_BODY_LIMIT,
        baseline,
        validators,
      });
    }
  }
  return models;
}

/** A value the schema accepts: required fields only, smallest allowed numbers, matching strings. */
function exampleOf(schema: JsonSchema): unknown {
  if (schema.default !== undefined) return schema.default;
  if (schema.enum) return schema.enum[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.anyOf?.[0]) return exampleOf(schema.anyOf[0]);
  switch (schema.type) {
    case 'boolean':
      return true;
    case 'integer':
    case 'number':
      return Math.min(Math.max(schema.minimum ?? 1, 1), schema.maximum ?? Infinity);
    case 'array':
      return schema.items && (schema.minItems ?? 0) > 0 ? [exampleOf(schema.items)] : [];
    case 'object':
      return Object.fromEntries(
        (schema.required ?? []).map((name) => [name, exampleOf(schema.properties?.[name] ?? {})]),
      );
    default: {
      const min = schema.minLength ?? 1;
      const max = schema.maxLength ?? 64;
      if (!schema.pattern) return 'x'.repeat(min);
      const pattern = new RegExp(schema.pattern);
      const [value] = fc.sample(
        fc
          .stringMatching(pattern)
          .filter((s) => [...s].length >= min && [...s].length <= max && !/\s/.test(s)),
        { seed: 1, numRuns: 1 },
      );
      return value;
    }
  }
}

/** Every field path of a schema (`shipping.email`, `rules.0.conditions.0.value`). */
function fieldPaths(
  schema: JsonSchema,
  prefix: string[] = [],
): { path: string[]; schema: JsonSchema; required: boolean }[] {
  const out: { path: string[]; schema: JsonSchema; required: boolean }[] = [];
  for (const [name, child] of Object.entries(schema.properties ?? {})) {
    const path = [...prefix, name];
    out.push({ path, schema: child, required: (schema.required ?? []).includes(name) });
    if (child.properties) out.push(...fieldPaths(child, path));
    if (child.items?.properties) out.push(...fieldPaths(child.items, [...path, '0']));
  }
  return out;
}

function setPath(target: Json, path: readonly string[], value: unknown): void {
  let node: Record<string, unknown> = target;
  path.slice(0, -1).forEach((segment, index) => {
    const next = path[index + 1] ?? '';
    if (typeof node[segment] !== 'object' || node[segment] === null) {
      node[segment] = /^\d+$/.test(next) ? [] : {};
    }
    node = node[segment] as Record<string, unknown>;
  });
  node[path[path.length - 1] ?? ''] = value;
}

function deletePath(target: Json, path: readonly string[]): void {
  let node: unknown = target;
  for (const segment of path.slice(0, -1)) {
    node = (node as Record<string, unknown> | undefined)?.[segment];
  }
  if (node && typeof node === 'object')
    delete (node as Record<string, unknown>)[path[path.length - 1] ?? ''];
}

// ---------------------------------------------------------------------------------------------
// Arbitraries: odd text, bad numbers, wrong types.

const ODD_PIECES = [
  '\uD800', // lone high surrogate
  '\uDFFF', // lone low surrogate
  '\u202E', // right-to-left override
  '\u200F', // right-to-left mark
  '\u200B', // zero-width space
  '\uFEFF', // byte order mark
  '\u0000', // NUL
  '\u2028', // line separator
  '\u0301', // combining accent
  '🪑',
  '👨‍👩‍👧',
  'שלום',
  'ß',
  '\\',
  '"',
  "'",
  '<b>',
  '%00',
  '${x}',
  ' ',
  '\t',
  'a',
];
const oddText = fc
  .array(fc.constantFrom(...ODD_PIECES), { minLength: 1, maxLength: 12 })
  .map((pieces) => pieces.join(''));
const longOddText = (over: number) =>
  fc
    .tuple(oddText, fc.integer({ min: over + 1, max: over + 4000 }))
    .map(([text, length]) => text.repeat(Math.ceil(length / text.length) + 1).slice(0, length * 2));
const wrongType = fc.constantFrom<unknown>({}, { a: 1 }, [1, 2], [[], []], [{}, {}], null);
const badNumber = fc.oneof(
  fc.constantFrom<unknown>(
    -1,
    -0.5,
    0.5,
    1.5,
    2 ** 31,
    2 ** 53 + 2,
    1e21,
    1e308,
    -1e308,
    Number.MIN_VALUE,
    'NaN',
    'Infinity',
    '-Infinity',
    '1e999',
    '٣',
    '1_000',
    '--1',
    '1.2.3',
    '',
  ),
  fc.integer({ min: -(2 ** 53), max: 2 ** 53 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** Values the field's schema refuses (mostly: the validator decides, per request). */
function invalidValueFor(schema: JsonSchema): fc.Arbitrary<unknown> {
  if (schema.enum || schema.anyOf || schema.const !== undefined) {
    const first = String(exampleOf(schema));
    return fc.oneof(
      oddText,
      wrongType,
      fc.constantFrom(first.toUpperCase() + 'X', ` ${first}`, `${first}\u200B`, `${first}\u0000`),
    );
  }
  switch (schema.type) {
    case 'integer':
    case 'number':
      return fc.oneof(
        badNumber,
        wrongType,
        oddText,
        fc.constantFrom(
          (schema.maximum ?? 2 ** 60) + 1,
          (schema.minimum ?? -(2 ** 60)) - 1,
          -(10 ** 300),
          10 ** 300,
        ),
      );
    case 'boolean':
      return fc.oneof(fc.constantFrom<unknown>('yes', 'TRUE', 2, -1, 'on', ''), wrongType, oddText);
    case 'object':
      return fc.oneof(fc.constantFrom<unknown>('x', 1, true, [1, 2]), wrongType);
    case 'array':
      return fc.oneof(
        fc.constantFrom<unknown>({ a: 1 }, 'x', [[1], [2]]),
        schema.items
          ? fc.array(invalidValueFor(schema.items), { minLength: 1, maxLength: 3 })
          : wrongType,
        fc.constant(
          Array.from({ length: (schema.maxItems ?? 50) + 1 }, () => exampleOf(schema.items ?? {})),
        ),
      );
    default:
      return fc.oneof(
        wrongType,
        oddText,
        longOddText(schema.maxLength ?? 10_000),
        fc.constant(''),
        badNumber,
      );
  }
}

// ---------------------------------------------------------------------------------------------
// Wire forms: what Fastify sees after parsing is what the validator judges.

/** Lone surrogates become U+FFFD, as any UTF-8 encoder (the URL's, the header's) makes them. */
function wellFormed(text: string): string {
  return text.replace(
    /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
    '\uFFFD',
  );
}

/** Header values travel as latin1 without CR, LF or NUL (Node's parser refuses those). */
function headerText(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return Buffer.from(wellFormed(text), 'utf8')
    .toString('latin1')
    .replace(/[\r\n\0]/g, '?');
}

function paramText(value: unknown): string {
  if (typeof value === 'string') return wellFormed(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return '';
  return JSON.stringify(value);
}

function queryValue(value: unknown): string | string[] {
  return Array.isArray(value) ? value.map(paramText) : paramText(value);
}

function wireOf(part: Part, value: Json): Json {
  if (part === 'body') return value;
  const out: Json = {};
  for (const [key, field] of Object.entries(value)) {
    if (field === undefined) continue;
    out[key] =
      part === 'headers'
        ? headerText(field)
        : part === 'querystring'
          ? queryValue(field)
          : paramText(field);
  }
  return out;
}

function urlOf(
  route: RouteModel,
  params: Json,
  query: Json,
  rawParam?: { name: string; raw: string },
) {
  const path = route.path.replace(/\{([^}]+)\}/g, (_match, name: string) =>
    rawParam?.name === name ? rawParam.raw : encodeURIComponent(String(params[name] ?? '')),
  );
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    for (const one of Array.isArray(value) ? value : [value]) {
      pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(String(one))}`);
    }
  }
  return pairs.length > 0 ? `${path}?${pairs.join('&')}` : path;
}

// ---------------------------------------------------------------------------------------------
// Noise that must not matter: cookies, headers, extra fields.

const forgedCookie = fc.oneof(
  fc.constantFrom(
    `${SESSION_COOKIE}=s%3Ases_${'A'.repeat(22)}.forgedSignatureAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`,
    `${SESSION_COOKIE}=ses_${'A'.repeat(22)}`,
    `${SESSION_COOKIE}=`,
    `${SESSION_COOKIE}=%E0%A4%A`,
    `${SESSION_COOKIE}="unterminated`,
    `${SESSION_COOKIE}=s:..; ${SESSION_COOKIE}=s:x.y`,
    '=;=;;==',
    `a=${'b'.repeat(8000)}`,
  ),
  oddText.map((text) => `${SESSION_COOKIE}=s:${headerText(text)}`),
);
const NOISE_HEADERS = [
  'user-agent',
  'accept',
  'accept-language',
  'x-forwarded-for',
  'traceparent',
  'tracestate',
  'x-datadog-trace-id',
  'x-datadog-parent-id',
  'origin',
  'referer',
  'x-request-id',
];
const noiseHeaders = fc.dictionary(
  fc.constantFrom(...NOISE_HEADERS),
  fc.oneof(
    oddText.map(headerText),
    fc.constantFrom('-1', '00-zz-zz-01', '*/*; q=abc', '18446744073709551616', '', 'null'),
  ),
  { maxKeys: 3 },
);
interface Noise {
  cookie?: string;
  headers: Record<string, string>;
  extraQuery?: string;
  extraField?: unknown;
}
const noise: fc.Arbitrary<Noise> = fc.record(
  {
    cookie: forgedCookie,
    headers: noiseHeaders,
    extraQuery: oddText,
    extraField: fc.oneof(oddText, badNumber, wrongType),
  },
  { requiredKeys: ['headers'] },
);

// ---------------------------------------------------------------------------------------------
// One route's malformed requests.

const BROKEN_JSON = [
  '',
  '{',
  '{"a":',
  "{'a':1}",
  '{"a":1,}',
  '{"a":NaN}',
  'NaN',
  '{"a":"\\x"}',
  '{"a":1}{"b":2}',
  '\u0000',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '[' + '['.repeat(20_000),
];
const UNREAD_TYPES = [
  'application/xml',
  'application/x-www-form-urlencoded',
  'application/octet-stream',
  'image/png',
  'multipart/form-data; boundary=x',
  'application/jsonx',
  'text/html; charset=utf-8',
];
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

function readsInput(route: RouteModel): boolean {
  return PARTS.some((part) => route.parts[part]) || BODY_METHODS.has(route.method);
}

function attemptsFor(route: RouteModel): fc.Arbitrary<Attempt> {
  const options: fc.Arbitrary<Attempt>[] = [];
  let oversizedAt = -1;
  let noiseOnlyAt = -1;
  const declared = PARTS.filter((part) => route.parts[part]);
  const contentType = route.bodyTypes[0] ?? 'application/json';

  const build = (
    defect: string,
    values: Partial<Record<Part, Json>>,
    extra: Partial<Attempt> & { rawParam?: { name: string; raw: string } } = {},
  ): Attempt => {
    const params = wireOf('params', values.params ?? {});
    const query = wireOf('querystring', values.querystring ?? {});
    const headers = wireOf('headers', values.headers ?? {}) as Record<string, string>;
    const hasBody = values.body !== undefined;
    return {
      defect,
      method: route.method,
      url: urlOf(route, params, query, extra.rawParam),
      headers: hasBody ? { 'content-type': contentType, ...headers } : headers,
      ...(hasBody ? { payload: JSON.stringify(values.body) } : {}),
      ...extra,
    };
  };
  const baseline = () => structuredClone(route.baseline);

  // A field of a declared part breaks its schema, or a required one is missing.
  for (const part of declared) {
    const schema = route.parts[part] ?? {};
    for (const field of fieldPaths(schema)) {
      options.push(
        invalidValueFor(field.schema).map((value) => {
          const values = baseline();
          setPath((values[part] ??= {}), field.path, value);
          return build(`${part}.${field.path.join('.')}`, values, { part });
        }),
      );
      if (field.required) {
        options.push(
          fc.constant(null).map(() => {
            const values = baseline();
            deletePath((values[part] ??= {}), field.path);
            return build(`${part}.${field.path.join('.')} missing`, values, { part });
          }),
        );
      }
      if (part === 'params' && field.schema.pattern) {
        options.push(
          fc
            .constantFrom('%', '%Z', '%ZZ', '%E0%A4%A', '%C0%AF', '%ED%A0%80', '%00', '%FF%FE')
            .map((raw) =>
              build('params.broken-encoding', baseline(), {
                rawParam: { name: field.path[0] ?? '', raw },
              }),
            ),
        );
      }
    }
  }
  if (route.parts.body) {
    // The whole body is of the wrong kind, or absent.
    options.push(
      fc.constantFrom<unknown>([], [{}], 'text', 42, null, true).map((body) => {
        const values = baseline();
        values.body = body as Json;
        return build('body.whole', values, { part: 'body', wholePart: true });
      }),
      fc.constant(null).map(() => {
        const values = baseline();
        delete values.body;
        return build('body missing', values, { part: 'body', wholePart: true });
      }),
      // The right JSON as text/plain: a string where an object belongs.
      fc.constant(null).map(() => {
        const attempt = build('body as text/plain', baseline(), { part: 'body', wholePart: true });
        return { ...attempt, headers: { ...attempt.headers, 'content-type': 'text/plain' } };
      }),
    );
  }
  if (BODY_METHODS.has(route.method)) {
    const envelope = (defect: string, type: string | undefined, payload: string | Buffer) => {
      const attempt = build(defect, { ...baseline(), body: undefined });
      const headers = { ...attempt.headers };
      if (type === undefined) delete headers['content-type'];
      else headers['content-type'] = type;
      return { ...attempt, headers, payload };
    };
    // The intake reads any type as bytes and judges them itself (the batch tests below).
    if (route.key !== 'POST /intake') {
      options.push(
        fc.constantFrom(...BROKEN_JSON).map((text) => envelope('broken-json', contentType, text)),
        fc
          .constantFrom(...UNREAD_TYPES)
          .map((type) =>
            envelope('unread-content-type', type, JSON.stringify(route.baseline.body ?? {})),
          ),
      );
    }
    oversizedAt = options.length;
    options.push(
      fc.integer({ min: 1, max: 4096 }).map((over) => {
        const filler = 'x'.repeat(route.bodyLimit + over);
        const type = route.key === 'POST /intake' ? 'text/plain' : contentType;
        return envelope('oversized', type, `{"a":"${filler}"}`);
      }),
    );
  }
  if (!readsInput(route)) {
    // Nothing to malform but the envelope: it must still never fail or leak.
    noiseOnlyAt = options.length;
    options.push(fc.constant(null).map(() => build('noise-only', baseline())));
  }
  // A path next to the route's that names no route.
  const junkPathAt = options.length;
  options.push(
    fc
      .constantFrom('/', '%', '%ZZ', '%00', '/..%2F..', ';x', '/%E0%A4%A', '//', '%F0%9F%AA%91')
      .map((suffix) => {
        const attempt = build('junk-path', baseline());
        const [path, query] = attempt.url.split('?');
        return { ...attempt, url: `${path}${suffix}${query ? `?${query}` : ''}` };
      }),
  );

  // Bodies over the limit are costly to build, and a junk path never reaches the route: one
  // weight against four for the route's own defects. On input-less routes noise alone (no
  // defect) is one request in five, the rest junk paths.
  const light = new Set([oversizedAt, noiseOnlyAt, ...(readsInput(route) ? [junkPathAt] : [])]);
  const weighted = options.map((arbitrary, index) => ({
    arbitrary,
    weight: light.has(index) ? 1 : 4,
  }));
  return fc
    .tuple(fc.oneof(...weighted), fc.option(noise, { freq: 2 }))
    .map(([attempt, extra]) => withNoise(route, attempt, extra))
    .filter((attempt) => isDefinitelyRefusable(route, attempt));
}

function withNoise(route: RouteModel, attempt: Attempt, extra: Noise | null): Attempt {
  if (!extra) return attempt;
  const headers = { ...attempt.headers };
  for (const [name, value] of Object.entries(extra.headers)) {
    if (!route.parts.headers?.properties?.[name]) headers[name] = value;
  }
  if (extra.cookie) headers.cookie = extra.cookie;
  let url = attempt.url;
  if (extra.extraQuery !== undefined) {
    url += `${url.includes('?') ? '&' : '?'}zz_extra=${encodeURIComponent(wellFormed(extra.extraQuery))}`;
  }
  let payload = attempt.payload;
  if (
    extra.extraField !== undefined &&
    typeof payload === 'string' &&
    payload.startsWith('{"') &&
    headers['content-type'] === (route.bodyTypes[0] ?? 'application/json') &&
    attempt.defect !== 'oversized'
  ) {
    payload = `{"zz_extra":${JSON.stringify(extra.extraField)},${payload.slice(1)}`;
  }
  return { ...attempt, headers, url, payload };
}

/**
 * True when the api has to refuse the attempt: its schema defect really breaks the schema (as
 * the api's validator judges the wire form), or its defect is one of the envelope.
 */
function isDefinitelyRefusable(route: RouteModel, attempt: Attempt): boolean {
  if (attempt.defect === 'noise-only') return true;
  if (!attempt.part) return true;
  const url = new URL(attempt.url, 'http://api.invalid');
  const wire: Partial<Record<Part, unknown>> = {};
  if (route.parts.querystring) {
    const query: Record<string, string | string[]> = {};
    for (const [key, value] of url.searchParams) {
      const seen = query[key];
      query[key] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
    }
    wire.querystring = query;
  }
  if (route.parts.params) {
    const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? '');
    const pattern = new RegExp(`^${route.path.replace(/\{[^}]+\}/g, '([^/]*)')}$`);
    const values = pattern.exec(url.pathname);
    if (!values) return true; // an empty or slash-holding param names no route: 404
    wire.params = Object.fromEntries(
      names.map((name, i) => [name, decodeURIComponent(values[i + 1] ?? '')]),
    );
  }
  if (route.parts.headers) wire.headers = attempt.headers;
  if (route.parts.body) {
    if (attempt.payload === undefined) wire.body = undefined;
    else if (attempt.headers['content-type'] === 'text/plain') wire.body = attempt.payload;
    else wire.body = JSON.parse(String(attempt.payload));
  }
  return PARTS.some((part) => route.validators[part] && !route.validators[part](wire[part]));
}

// ---------------------------------------------------------------------------------------------
// Judging one answer.

const STACK_OR_PATH =
  /\bat [\w.<>]+ \(|\bat .+:\d+:\d+|node_modules|\/src\/|\.[cm]?[jt]s:\d+|file:\/\//;
const SQL_TEXT =
  /SQLITE_|sqlite3?\b|postgres|\bSELECT\b.+\bFROM\b|\bINSERT INTO\b|\bUPDATE\b.+\bSET\b|\bDELETE FROM\b|syntax error at|relation "|violates .* constraint|duplicate key|no such (table|column)|kysely/i;

interface Figures {
  requests: number;
  refused: number;
  answered2xx: number;
  fiveXx: number;
  leaks: number;
  byRoute: Map<string, number>;
  byDefect: Map<string, number>;
  /** Per route, the schema fields (`body.shipping.email`) whose defects were refused. */
  fieldsRefused: Map<string, Set<string>>;
  sessionsCreated: number;
}

function judge(
  route: RouteModel,
  attempt: Attempt,
  res: LightMyRequestResponse,
  figures: Figures,
): string | null {
  figures.requests += 1;
  figures.byRoute.set(route.key, (figures.byRoute.get(route.key) ?? 0) + 1);
  const defectKind = attempt.defect.replace(/^(params|querystring|headers|body)\..*$/, '$1 field');
  figures.byDefect.set(defectKind, (figures.byDefect.get(defectKind) ?? 0) + 1);
  const status = res.statusCode;
  const body = res.body;
  if (status >= 500) figures.fiveXx += 1;
  // Error answers carry no stack, path or SQL; a 2xx may name its database (GET /health).
  const leak = STACK_OR_PATH.test(body) || (status >= 400 && SQL_TEXT.test(body));
  if (leak) figures.leaks += 1;
  const setsSession = res.cookies.some((c) => c.name === SESSION_COOKIE);
  const where = `${attempt.defect}: ${attempt.method} ${attempt.url.slice(0, 200)} → ${status} ${body.slice(0, 300)}`;

  if (status >= 500) return `5xx for ${where}`;
  if (STACK_OR_PATH.test(body)) return `stack trace or file path in ${where}`;
  if (leak) return `SQL text in ${where}`;
  if (!/json/.test(String(res.headers['content-type']))) return `not JSON: ${where}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `unparseable JSON: ${where}`;
  }
  if (attempt.defect === 'noise-only') {
    if (status >= 200 && status < 300) {
      figures.answered2xx += 1;
      if (setsSession) figures.sessionsCreated += 1;
      return null;
    }
  }
  // OFREP's request body is optional (docs/decisions/016-ofrep.md): none is an empty context.
  if (attempt.defect === 'body missing' && route.key.startsWith('POST /ofrep/') && status === 200)
    return null;
  if (status < 400) return `not refused: ${where}`;
  figures.refused += 1;
  if (attempt.part && !attempt.wholePart) {
    const fields = figures.fieldsRefused.get(route.key) ?? new Set();
    fields.add(attempt.defect.replace(/ missing$/, ''));
    figures.fieldsRefused.set(route.key, fields);
  }
  if (setsSession) return `a refused request created a session: ${where}`;

  // The precompute route answers the flag service's JSON:API error shape (decision 002).
  const jsonApi = (parsed as { errors?: { detail?: string }[] }).errors?.[0];
  if (route.key === 'POST /flags/precompute-assignments' && jsonApi) {
    if (typeof jsonApi.detail !== 'string' || jsonApi.detail === '') return `no detail: ${where}`;
    return null;
  }
  // The OFREP routes answer OFREP's error shape (docs/decisions/016-ofrep.md); what Fastify
  // refuses before routing (a URL too long, a path reaching no route) keeps the api's envelope.
  const ofrep = parsed as { error?: unknown; errorCode?: unknown; errorDetails?: unknown };
  if (route.key.startsWith('POST /ofrep/') && ofrep.error === undefined) {
    if (!OFREP_ERROR_CODES.includes(String(ofrep.errorCode))) return `no OFREP errorCode: ${where}`;
    if (typeof ofrep.errorDetails !== 'string' || ofrep.errorDetails === '')
      return `no errorDetails: ${where}`;
    return null;
  }
  const error = (parsed as { error?: { code?: string; message?: string; field?: string } }).error;
  if (!error || typeof error.message !== 'string' || !error.code)
    return `not the error envelope: ${where}`;
  if (!(ERROR_CODES as readonly string[]).includes(error.code))
    return `code outside the contract: ${where}`;
  if (error.code === 'VALIDATION_ERROR') {
    const field = error.field;
    if (field === undefined) {
      if (!attempt.wholePart && attempt.defect !== 'params.broken-encoding')
        return `no field named: ${where}`;
    } else {
      if (!error.message.includes(field)) return `message does not name ${field}: ${where}`;
      const part = attempt.part;
      const schema = part ? route.parts[part] : undefined;
      const known = new Set(
        PARTS.flatMap((p) => (route.parts[p] ? fieldPaths(route.parts[p]) : [])).map((f) =>
          f.path.join('.'),
        ),
      );
      const normalised = field.replace(/\.\d+(?=\.|$)/g, '.0');
      const stem = normalised.replace(/(\.0)+$/, '');
      // zz_extra is the noise's own field: it may be named when it holds a NUL.
      if (schema && !known.has(normalised) && !known.has(stem) && stem !== 'zz_extra')
        return `field ${field} is not a field of the route: ${where}`;
    }
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// The database, table by table.

async function snapshot(testDb: TestDatabase, only?: string[]) {
  const db = testDb.database.db;
  const tables = (await db.introspection.getTables()).map((t) => t.name).sort();
  const out = new Map<
    string,
    { rows: number; hash: string; ids?: Set<string>; lines?: string[] }
  >();
  for (const table of tables) {
    if (only && !only.includes(table)) continue;
    // Attempt counters, not data: a refused request still counts against its client's limit
    // (the limit is checked before the body is).
    if (table === 'rate_limits') continue;
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(
      db,
    );
    const lines = rows
      .map((row) =>
        JSON.stringify(row, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v)),
      )
      .sort();
    out.set(table, {
      rows: rows.length,
      hash: createHash('sha256').update(lines.join('\n')).digest('hex'),
      ...(table === 'sessions' ? { ids: new Set(rows.map((r) => String(r.id))), lines } : {}),
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

let testDb: TestDatabase;
let app: FastifyInstance;
let routes: RouteModel[];

beforeAll(async () => {
  testDb = await createTestDatabase();
  await seedCatalog(testDb.database.db, createCatalogSeed());
  app = await buildApp({
    database: testDb.database,
    // The sign-up and sign-in limiter would answer 429 before the schema is read; its own
    // tests are in accounts.test.ts. Here every request must reach validation.
    authRateLimitPerMinute: 1_000_000,
  });
  await app.ready();
  routes = routeModels(app.swagger() as Parameters<typeof routeModels>[0]);
});

afterAll(async () => {
  await app?.close();
  await testDb?.destroy();
});

describe(`bad input on every route (${DATABASE})`, () => {
  it('refuses malformed requests with a 4xx JSON error, never a 5xx, and changes nothing', async () => {
    const started = Date.now();
    // Every declared part of every route has a valid baseline, so each request's defect is its own.
    const noBaseline = routes.flatMap((route) =>
      PARTS.filter(
        (part) =>
          route.validators[part] &&
          !route.validators[part](wireOf(part, route.baseline[part] ?? {})),
      ).map((part) => `${route.key} ${part}`),
    );
    expect(noBaseline).toEqual([]);

    const before = await snapshot(testDb);
    const figures: Figures = {
      requests: 0,
      refused: 0,
      answered2xx: 0,
      fiveXx: 0,
      leaks: 0,
      byRoute: new Map(),
      byDefect: new Map(),
      fieldsRefused: new Map(),
      sessionsCreated: 0,
    };
    const runsPerRoute = Math.ceil(TARGET_REQUESTS / routes.length);
    for (const [index, route] of routes.entries()) {
      await fc.assert(
        fc.asyncProperty(attemptsFor(route), async (attempt) => {
          const res = await app.inject({
            method: attempt.method as InjectOptions['method'],
            url: attempt.url,
            headers: attempt.headers,
            ...(attempt.payload === undefined ? {} : { payload: attempt.payload }),
          });
          const problem = judge(route, attempt, res, figures);
          if (problem) throw new Error(problem);
        }),
        { seed: SEED + index, numRuns: runsPerRoute, endOnFailure: true },
      );
    }

    // Coverage: every route of the document got its share; a new route cannot be skipped.
    const uncovered = routes
      .filter((route) => (figures.byRoute.get(route.key) ?? 0) < runsPerRoute)
      .map((r) => r.key);
    expect(uncovered).toEqual([]);
    expect(figures.refused).toBeGreaterThanOrEqual(10_000);
    // …and every route that declares a field had malformed fields refused, most of its fields.
    const declaredFields = (route: RouteModel) =>
      PARTS.flatMap((part) =>
        route.parts[part]
          ? fieldPaths(route.parts[part]).map((f) => `${part}.${f.path.join('.')}`)
          : [],
      );
    const fieldCoverage = routes
      .filter((route) => declaredFields(route).length > 0)
      .map((route) => ({
        route: route.key,
        share: (figures.fieldsRefused.get(route.key)?.size ?? 0) / declaredFields(route).length,
      }));
    expect(fieldCoverage.filter((c) => c.share < 0.5)).toEqual([]);
    const fieldsTried = routes.reduce(
      (n, r) => n + (figures.fieldsRefused.get(r.key)?.size ?? 0),
      0,
    );
    const fieldsDeclared = routes.reduce((n, r) => n + declaredFields(r).length, 0);

    // The server still answers.
    const health = await app.inject({ method: 'GET', url: '/health' });
    expect(health.statusCode).toBe(200);

    // Nothing changed, except the sessions that input-less session reads (GET /cart with a
    // forged cookie) hand out by design: every browser gets a server session, and a cookie the
    // api did not sign names none (docs/decisions/003-sessions-money-idempotency.md). Those
    // answered 2xx and are counted; no refused request created one (judge).
    const after = await snapshot(testDb);
    const changed = [...after.keys()].filter(
      (table) => table !== 'sessions' && after.get(table)?.hash !== before.get(table)?.hash,
    );
    expect(changed).toEqual([]);
    const sessionsBefore = before.get('sessions');
    const sessionsAfter = after.get('sessions') as { rows: number; lines?: string[] } | undefined;
    expect((sessionsAfter?.rows ?? 0) - (sessionsBefore?.rows ?? 0)).toBe(figures.sessionsCreated);
    const kept = (sessionsAfter?.lines ?? []).filter((line) =>
      sessionsBefore?.ids?.has(String((JSON.parse(line) as { id: unknown }).id)),
    );
    expect(kept).toEqual((sessionsBefore as { lines?: string[] } | undefined)?.lines ?? []);

    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const defects = [...figures.byDefect.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([d, n]) => `${d} ${n}`);
    console.log(
      `bad input (${DATABASE}): ${figures.requests.toLocaleString('en-US')} requests over ${routes.length} routes, ` +
        `${figures.fiveXx} × 5xx, ${figures.leaks} leaks, ${figures.refused.toLocaleString('en-US')} refused (4xx), ` +
        `${figures.answered2xx} answered 2xx (input-less routes, noise only; ${figures.sessionsCreated} new sessions), ` +
        `database unchanged, seed ${SEED}, ${seconds} s\n  schema fields refused malformed: ${fieldsTried} of ${fieldsDeclared}` +
        `\n  by defect: ${defects.join(', ')}\n  by route: ` +
        [...figures.byRoute.entries()].map(([r, n]) => `${r} ${n}`).join(', '),
    );
  }, 240_000);
});

// ---------------------------------------------------------------------------------------------
// Batches: a bad one is refused whole, the next good one is stored.

const INTAKE_TABLES = [
  'flag_exposures',
  'flag_evaluations',
  'intake_events',
  'rum_sessions',
  'rum_views',
  'rum_events',
  'rum_session_flags',
];

const exposure = (id: string) => ({
  allocation: { key: 'rollout' },
  flag: { key: 'new_checkout_flow' },
  variant: { key: 'on' },
  subject: { id, attributes: { team: 'sales' } },
  service: 'showroom-web',
  timestamp: 1_767_225_600_123,
});
const flagEvaluation = (id: string) => ({
  flag: { key: 'new_checkout_flow' },
  first_evaluation: 1_767_225_600_000,
  last_evaluation: 1_767_225_601_000,
  evaluation_count: 2,
  runtime_default_used: false,
  timestamp: 1_767_225_601_000,
  targeting_key: id,
  variant: { key: 'on' },
  allocation: { key: 'rollout' },
});
const rumEvents = (id: string) => [
  createRumView({ sessionId: id, viewId: `${id}-v` }),
  createRumAction('add to cart', { sessionId: id, viewId: `${id}-v`, id: `${id}-a` }),
  createRumError('boom', { sessionId: id, viewId: `${id}-v`, id: `${id}-e` }),
];

const TRACKS = {
  exposures: { events: (id: string) => [exposure(id)], checks: [Compile(ExposureEventSchema)] },
  flagevaluation: {
    events: (id: string) => [flagEvaluation(id)],
    checks: [Compile(FlagEvaluationEventSchema)],
  },
  rum: {
    events: rumEvents,
    checks: [Compile(RumViewEventSchema), Compile(RumEventSchema), Compile(RumEventSchema)],
  },
} as const;
type Track = keyof typeof TRACKS;

/** A line made bad: not JSON, not an object, a field the event schema refuses, bad bytes. */
type LineDefect =
  | { kind: 'text'; text: string }
  | { kind: 'field'; path: readonly string[]; value: unknown }
  | { kind: 'drop'; path: readonly string[] }
  | { kind: 'nul'; path: readonly string[] };
const lineDefect: fc.Arbitrary<LineDefect> = fc.oneof(
  fc
    .constantFrom('{', '[1,2]', '"text"', '42', 'null', '{"a":1,}', '\u0000', 'NaN')
    .map((text) => ({ kind: 'text' as const, text })),
  fc.record({
    kind: fc.constant('field' as const),
    path: fc.constantFrom(
      ['session', 'id'],
      ['view', 'id'],
      ['date'],
      ['_dd', 'document_version'],
      ['flag', 'key'],
      ['subject', 'id'],
      ['timestamp'],
      ['evaluation_count'],
      ['allocation', 'key'],
      ['variant'],
    ),
    value: fc.oneof(wrongType, badNumber, longOddText(1024), fc.constant('')),
  }),
  // A NUL inside a string the schema accepts: PostgreSQL text cannot hold it.
  fc.record({
    kind: fc.constant('nul' as const),
    path: fc.constantFrom(['session', 'id'], ['view', 'url'], ['flag', 'key'], ['subject', 'id']),
  }),
  fc.record({
    kind: fc.constant('drop' as const),
    path: fc.constantFrom(
      ['session'],
      ['view'],
      ['date'],
      ['flag'],
      ['timestamp'],
      ['subject'],
      ['_dd'],
    ),
  }),
);

function badLine(
  event: Json,
  defect: LineDefect,
  check: { Check(v: unknown): boolean } | undefined,
) {
  if (defect.kind === 'text') return defect.text;
  const copy = structuredClone(event);
  if (defect.kind === 'nul') {
    const parent = defect.path
      .slice(0, -1)
      .reduce<unknown>((node, key) => (node as Json | undefined)?.[key], copy);
    const name = defect.path[defect.path.length - 1] ?? '';
    const value = (parent as Json | undefined)?.[name];
    if (typeof value !== 'string') return null;
    (parent as Json)[name] = `${value}\u0000`;
    return JSON.stringify(copy);
  }
  if (defect.kind === 'field') setPath(copy, defect.path, defect.value);
  else deletePath(copy, defect.path);
  // A change the event's schema still accepts (or a field it does not read) is no defect.
  return check && !check.Check(copy) ? JSON.stringify(copy) : null;
}

describe(`malformed batches (${DATABASE})`, () => {
  const post = (
    forward: string,
    payload: string | Buffer,
    contentType: string | undefined = 'text/plain',
  ) =>
    app.inject({
      method: 'POST',
      url: `/intake?ddforward=${encodeURIComponent(forward)}`,
      headers: contentType ? { 'content-type': contentType } : {},
      payload,
    });
  let batchId = 0;

  it.each(Object.keys(TRACKS) as Track[])(
    '%s: a bad batch is refused whole, the next good one is stored',
    async (track) => {
      const { events, checks } = TRACKS[track];
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 1, max: 4 }),
          fc.nat(),
          lineDefect,
          fc.constantFrom('plain', 'deflate', 'bad-utf8', 'bad-deflate'),
          async (size, at, defect, encoding) => {
            const good = Array.from({ length: size }, () =>
              events(`batch-${track}-${(batchId += 1)}`),
            ).flat();
            const lines = good.map((event) => JSON.stringify(event));
            const index = at % lines.length;
            const bad = badLine(good[index] as Json, defect, checks[index % checks.length]);
            fc.pre(bad !== null || encoding === 'bad-utf8' || encoding === 'bad-deflate');
            const badLines = [...lines];
            if (bad !== null) badLines[index] = bad;
            let body: Buffer = Buffer.from(badLines.join('\n'));
            let forward = `/api/v2/${track}?ddsource=browser`;
            if (encoding === 'bad-utf8')
              body = Buffer.concat([body, Buffer.from([0xc3, 0x28, 0xff])]);
            if (encoding === 'deflate' || encoding === 'bad-deflate')
              forward += '&dd-evp-encoding=deflate';
            if (encoding === 'deflate') body = zlib.deflateSync(body);
            if (encoding === 'bad-deflate')
              body = Buffer.concat([zlib.deflateSync(body).subarray(0, 8), Buffer.from('junk')]);

            const before = await snapshot(testDb, INTAKE_TABLES);
            const refused = await post(
              forward,
              body,
              encoding === 'deflate' ? undefined : 'text/plain',
            );
            expect(refused.statusCode, refused.body).toBe(400);
            const error = (refused.json() as { error: { code: string; field?: string } }).error;
            expect(error.code).toBe('VALIDATION_ERROR');
            expect(error.field ?? '').toMatch(/^body/);
            expect(STACK_OR_PATH.test(refused.body) || SQL_TEXT.test(refused.body)).toBe(false);
            expect(await snapshot(testDb, INTAKE_TABLES)).toEqual(before);

            const stored = await post(`/api/v2/${track}?ddsource=browser`, ndjson(good));
            expect(stored.statusCode, stored.body).toBe(202);
            expect(stored.json()).toEqual({ track, accepted: good.length });
            const after = await snapshot(testDb, INTAKE_TABLES);
            expect([...after.values()].reduce((n, t) => n + t.rows, 0)).toBeGreaterThan(
              [...before.values()].reduce((n, t) => n + t.rows, 0),
            );
          },
        ),
        { seed: SEED, numRuns: 12, endOnFailure: true },
      );
    },
    120_000,
  );

  it('replay: a bad upload is refused whole, the next good one is stored', async () => {
    const meta = (sessionId: string) => ({
      application: { id: 'app-1' },
      session: { id: sessionId },
      view: { id: `${sessionId}-view` },
      start: 1_767_225_600_000,
      end: 1_767_225_605_000,
      creation_reason: 'init',
      records_count: 2,
      has_full_snapshot: true,
      index_in_view: 0,
      source: 'browser',
    });
    const segment = (m: Json, records = '[{"type":4},{"type":2}]') =>
      zlib.deflateSync(`{"records":${records},${JSON.stringify(m).slice(1)}\n`);
    const upload = async (parts: { name: string; data: Buffer | string; file?: string }[]) => {
      const form = new FormData();
      for (const part of parts) {
        form.append(part.name, new Blob([part.data]), part.file ?? 'blob');
      }
      const response = new Response(form);
      return {
        body: Buffer.from(await response.arrayBuffer()),
        type: response.headers.get('content-type') ?? '',
      };
    };
    type Defect = (id: string) => Promise<{ body: Buffer; type: string }>;
    const defects: Record<string, Defect> = {
      'event not JSON': (id) =>
        upload([
          { name: 'segment', data: segment(meta(id)) },
          { name: 'event', data: '{' },
        ]),
      'event without session': async (id) => {
        const m: Json = meta(id);
        delete m.session;
        return upload([
          { name: 'segment', data: segment(meta(id)) },
          { name: 'event', data: JSON.stringify(m) },
        ]);
      },
      'event with a bad start': (id) =>
        upload([
          { name: 'segment', data: segment(meta(id)) },
          { name: 'event', data: JSON.stringify({ ...meta(id), start: 'soon' }) },
        ]),
      'event with a NUL in its view id': (id) =>
        upload([
          { name: 'segment', data: segment(meta(id)) },
          { name: 'event', data: JSON.stringify({ ...meta(id), view: { id: `${id}\u0000` } }) },
        ]),
      'segment not deflate': (id) =>
        upload([
          { name: 'segment', data: 'plain text' },
          { name: 'event', data: JSON.stringify(meta(id)) },
        ]),
      'segment of another session': (id) =>
        upload([
          { name: 'segment', data: segment(meta(`${id}-other`)) },
          { name: 'event', data: JSON.stringify(meta(id)) },
        ]),
      'segment without records': (id) =>
        upload([
          { name: 'segment', data: segment(meta(id), '"none"') },
          { name: 'event', data: JSON.stringify(meta(id)) },
        ]),
      'no event part': (id) => upload([{ name: 'segment', data: segment(meta(id)) }]),
      'truncated body': async (id) => {
        const { body, type } = await upload([
          { name: 'segment', data: segment(meta(id)) },
          { name: 'event', data: JSON.stringify(meta(id)) },
        ]);
        return { body: body.subarray(0, body.length - 10), type };
      },
      'no boundary': async (id) => {
        const { body } = await upload([
          { name: 'segment', data: segment(meta(id)) },
          { name: 'event', data: JSON.stringify(meta(id)) },
        ]);
        return { body, type: 'multipart/form-data' };
      },
    };
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...Object.keys(defects)), async (name) => {
        const id = `replay-${(batchId += 1)}`;
        const before = await snapshot(testDb, INTAKE_TABLES);
        const bad = await defects[name]?.(id);
        if (!bad) throw new Error(name);
        const refused = await post('/api/v2/replay?ddsource=browser', bad.body, bad.type);
        expect(refused.statusCode, `${name}: ${refused.body}`).toBe(400);
        expect(STACK_OR_PATH.test(refused.body) || SQL_TEXT.test(refused.body)).toBe(false);
        expect(await snapshot(testDb, INTAKE_TABLES)).toEqual(before);

        const good = await upload([
          { name: 'segment', data: segment(meta(id)) },
          { name: 'event', data: JSON.stringify(meta(id)) },
        ]);
        const stored = await post('/api/v2/replay?ddsource=browser', good.body, good.type);
        expect(stored.statusCode, stored.body).toBe(202);
        const rows = await testDb.database.db
          .selectFrom('rum_events')
          .select('session_id')
          .where('session_id', '=', id)
          .execute();
        expect(rows).toHaveLength(1);
      }),
      { seed: SEED, numRuns: 20, endOnFailure: true },
    );
  }, 120_000);
});

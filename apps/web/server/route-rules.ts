import fs from 'node:fs';
import path from 'node:path';
import {
  DEFAULT_REDIRECT_STATUS,
  REDIRECT_STATUS_CODES,
  isExternalTarget,
  type RedirectStatusCode,
  type RouteRule,
  type RouteRules,
} from './route-rule-shape.js';

export {
  DEFAULT_REDIRECT_STATUS,
  REDIRECT_STATUS_CODES,
  isExternalTarget,
  type RedirectRule,
  type RedirectStatusCode,
  type RouteRule,
  type RouteRules,
} from './route-rule-shape.js';

/**
 * Route rules (docs/requirements.md ): a path of the shop whose visitor is sent
 * elsewhere. They live in one small JSON file (`apps/web/route-rules.json`, or the file named by
 * ROUTE_RULES_PATH), are read once when the web server starts, answered to browsers in the build
 * manifest (`GET /builds/meta/{buildId}.json`) and applied by the server to document and data
 * requests for the rule's path (server/builds.ts).
 */

/** Paths the web server answers itself: a rule there would never apply or would break the shop. */
const RESERVED_PREFIXES = ['/api', '/assets', '/img', '/builds', '/profiles', '/__manifest'];

export type Warn = (message: string) => void;

/** The rules file this server reads: ROUTE_RULES_PATH, else `route-rules.json` in apps/web. */
export function routeRulesFile(webRoot: string, env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.ROUTE_RULES_PATH?.trim();
  return configured ? path.resolve(configured) : path.join(webRoot, 'route-rules.json');
}

/** What is wrong with a rule's path, or undefined when it can carry a rule. */
function pathProblem(rulePath: string): string | undefined {
  if (!rulePath.startsWith('/') || rulePath.startsWith('//'))
    return 'the path must start with one /';
  if (/[\s?#\\]/.test(rulePath)) return 'the path must have no query, fragment or spaces';
  if (rulePath.length > 200) return 'the path is longer than 200 characters';
  if (rulePath.endsWith('.data')) return 'a path ending in .data is a page data request';
  const reserved = RESERVED_PREFIXES.find(
    (prefix) => rulePath === prefix || rulePath.startsWith(`${prefix}/`),
  );
  return reserved ? `${reserved} is served by the web server itself` : undefined;
}

/** What is wrong with a redirect target, or undefined when it is usable. */
function targetProblem(rulePath: string, to: unknown): string | undefined {
  if (typeof to !== 'string' || to.trim() === '') return 'redirect.to must be a non-empty string';
  if (isExternalTarget(to)) {
    try {
      new URL(to);
      return undefined;
    } catch {
      return `redirect.to "${to}" is not a valid address`;
    }
  }
  if (!to.startsWith('/') || to.startsWith('//')) {
    return `redirect.to "${to}" must be a path of this shop (/…) or an http(s) address`;
  }
  if (to.split(/[?#]/)[0] === rulePath) return 'redirect.to sends the path to itself';
  return undefined;
}

/** One entry checked: the rule, or the problem that makes it unusable. */
function parseRule(rulePath: string, value: unknown): RouteRule | string {
  const problem = pathProblem(rulePath);
  if (problem) return problem;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'a rule must be an object';
  }
  const redirect = (value as { redirect?: unknown }).redirect;
  if (typeof redirect !== 'object' || redirect === null || Array.isArray(redirect)) {
    return 'the rule has no redirect object';
  }
  const { to, statusCode = DEFAULT_REDIRECT_STATUS } = redirect as {
    to?: unknown;
    statusCode?: unknown;
  };
  const wrongTarget = targetProblem(rulePath, to);
  if (wrongTarget) return wrongTarget;
  if (!REDIRECT_STATUS_CODES.includes(statusCode as RedirectStatusCode)) {
    return `redirect.statusCode must be one of ${REDIRECT_STATUS_CODES.join(', ')}`;
  }
  return { redirect: { to: to as string, statusCode: statusCode as RedirectStatusCode } };
}

/**
 * Checks a rules document (`{ "routeRules": { "<path>": { "redirect": { "to", "statusCode"? } } } }`)
 * entry by entry: a bad entry is skipped with a warning naming the source, the path and the
 * problem, and the others apply. A document without a `routeRules` object gives no rules (with a
 * warning). Never throws: route rules never stop the web server.
 */
export function parseRouteRules(raw: unknown, source: string, warn: Warn): RouteRules {
  const entries =
    typeof raw === 'object' && raw !== null ? (raw as { routeRules?: unknown }).routeRules : null;
  if (typeof entries !== 'object' || entries === null || Array.isArray(entries)) {
    warn(`Route rules (${source}): no "routeRules" object; no route rules apply`);
    return {};
  }
  const rules: RouteRules = {};
  for (const [rulePath, value] of Object.entries(entries)) {
    const rule = parseRule(rulePath, value);
    if (typeof rule === 'string') {
      warn(`Route rules (${source}): skipping "${rulePath}": ${rule}`);
    } else {
      rules[rulePath] = rule;
    }
  }
  return rules;
}

/** Reads and checks a rules file; a missing or unreadable file gives no rules, with a warning. */
export function loadRouteRules(file: string, warn: Warn): RouteRules {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    warn(
      `Route rules (${file}): cannot be read (${(error as Error).message}); no route rules apply`,
    );
    return {};
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    warn(`Route rules (${file}): not JSON (${(error as Error).message}); no route rules apply`);
    return {};
  }
  return parseRouteRules(raw, file, warn);
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isExternalTarget, loadRouteRules, parseRouteRules, routeRulesFile } from './route-rules';

function collect() {
  const warnings: string[] = [];
  return { warnings, warn: (message: string) => void warnings.push(message) };
}

describe('route rules (R-4.9, R-7.1)', () => {
  it('keeps good rules, with 302 when a rule names no status', () => {
    const { warnings, warn } = collect();
    const rules = parseRouteRules(
      {
        $comment: 'ignored',
        routeRules: {
          '/sale': { redirect: { to: '/department/sofas' } },
          '/moved': { redirect: { to: '/department/chairs?sort=price-asc', statusCode: 301 } },
          '/docs-out': { redirect: { to: 'https://docs.example.com/rum', statusCode: 307 } },
        },
      },
      'rules.json',
      warn,
    );
    expect(rules).toEqual({
      '/sale': { redirect: { to: '/department/sofas', statusCode: 302 } },
      '/moved': { redirect: { to: '/department/chairs?sort=price-asc', statusCode: 301 } },
      '/docs-out': { redirect: { to: 'https://docs.example.com/rum', statusCode: 307 } },
    });
    expect(warnings).toEqual([]);
  });

  it('skips each bad entry with a warning naming it, and keeps the others', () => {
    const { warnings, warn } = collect();
    const rules = parseRouteRules(
      {
        routeRules: {
          '/good': { redirect: { to: '/department/tables' } },
          'no-slash': { redirect: { to: '/x' } },
          '/with?query': { redirect: { to: '/x' } },
          '/api/cart': { redirect: { to: '/x' } },
          '/assets/app.js': { redirect: { to: '/x' } },
          '/builds/latest.json': { redirect: { to: '/x' } },
          '/page.data': { redirect: { to: '/x' } },
          '/no-redirect': { cache: true },
          '/not-an-object': 'to /x',
          '/no-target': { redirect: {} },
          '/protocol-relative': { redirect: { to: '//evil.example.com' } },
          '/javascript': { redirect: { to: 'javascript:alert(1)' } },
          '/loop': { redirect: { to: '/loop?again=1' } },
          '/teapot': { redirect: { to: '/x', statusCode: 418 } },
          '/broken-url': { redirect: { to: 'https://exa mple.com' } },
        },
      },
      'rules.json',
      warn,
    );
    expect(Object.keys(rules)).toEqual(['/good']);
    const skipped = [
      'no-slash',
      '/with?query',
      '/api/cart',
      '/assets/app.js',
      '/builds/latest.json',
      '/page.data',
      '/no-redirect',
      '/not-an-object',
      '/no-target',
      '/protocol-relative',
      '/javascript',
      '/loop',
      '/teapot',
      '/broken-url',
    ];
    expect(warnings).toHaveLength(skipped.length);
    skipped.forEach((rulePath, index) => {
      expect(warnings[index]).toContain(`Route rules (rules.json): skipping "${rulePath}": `);
    });
    expect(warnings[skipped.indexOf('/teapot')]).toContain('301, 302, 303, 307, 308');
  });

  it('a document without a routeRules object gives no rules, with a warning', () => {
    for (const raw of [null, [], 'rules', { rules: {} }, { routeRules: [] }]) {
      const { warnings, warn } = collect();
      expect(parseRouteRules(raw, 'rules.json', warn)).toEqual({});
      expect(warnings).toEqual([
        'Route rules (rules.json): no "routeRules" object; no route rules apply',
      ]);
    }
  });

  it('a missing or broken file gives no rules and never throws', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-rules-'));
    try {
      const broken = path.join(dir, 'broken.json');
      fs.writeFileSync(broken, '{ "routeRules": ');
      const { warnings, warn } = collect();
      expect(loadRouteRules(path.join(dir, 'missing.json'), warn)).toEqual({});
      expect(loadRouteRules(broken, warn)).toEqual({});
      expect(warnings[0]).toMatch(/missing\.json\): cannot be read .*; no route rules apply$/);
      expect(warnings[1]).toMatch(/broken\.json\): not JSON .*; no route rules apply$/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the committed rules file is valid: an internal and an external redirect', () => {
    const { warnings, warn } = collect();
    const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
    const rules = loadRouteRules(routeRulesFile(webRoot, {}), warn);
    expect(warnings).toEqual([]);
    const targets = Object.values(rules).map((rule) => rule.redirect.to);
    expect(targets.some(isExternalTarget)).toBe(true);
    expect(targets.some((to) => !isExternalTarget(to))).toBe(true);
  });

  it('ROUTE_RULES_PATH names another file', () => {
    expect(routeRulesFile('/web', { ROUTE_RULES_PATH: '/etc/showroom/rules.json' })).toBe(
      '/etc/showroom/rules.json',
    );
    expect(routeRulesFile('/web', {})).toBe(path.join('/web', 'route-rules.json'));
  });

  it('external targets are absolute http(s) addresses', () => {
    expect(isExternalTarget('https://docs.example.com')).toBe(true);
    expect(isExternalTarget('HTTP://example.com/x')).toBe(true);
    expect(isExternalTarget('/department/sofas')).toBe(false);
  });
});

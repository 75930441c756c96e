#!/usr/bin/env node
// `npm run audit:prod`: the production dependencies' known vulnerabilities
// (docs/reliability.md "Security"). Runs `npm audit --omit=dev --json`, prints the count per
// severity and each high or critical finding, and exits
//   0  no high or critical finding (low and moderate are printed, not failed),
//   1  at least one high or critical finding,
//   2  the audit could not be run (the registry's audit endpoint unreachable, an unreadable
//      answer): nothing is known, which is neither a pass nor a finding.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SEVERITIES = ['info', 'low', 'moderate', 'high', 'critical'];
const FAILING = new Set(['high', 'critical']);

const run = spawnSync('npm', ['audit', '--omit=dev', '--json'], {
  cwd: REPO_ROOT,
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
  shell: process.platform === 'win32',
});

let report;
try {
  report = JSON.parse(run.stdout);
} catch {
  report = undefined;
}
if (run.error || !report || report.error || !report.metadata?.vulnerabilities) {
  const reason =
    run.error?.message ||
    report?.message ||
    report?.error?.summary ||
    report?.error?.code ||
    (run.stderr || run.stdout || `npm audit exited ${run.status}`).trim().split('\n')[0];
  console.error(`audit:prod: the audit could not be run (registry unreachable?): ${reason}`);
  process.exit(2);
}

const counts = report.metadata.vulnerabilities;
console.log(
  `audit:prod: production dependencies (${report.metadata.dependencies?.prod ?? '?'}): ` +
    SEVERITIES.map((severity) => `${severity} ${counts[severity] ?? 0}`).join(', '),
);
const failing = Object.values(report.vulnerabilities ?? {}).filter((finding) =>
  FAILING.has(finding.severity),
);
for (const finding of failing) {
  const advisories = (finding.via ?? [])
    .filter((via) => typeof via === 'object')
    .map((via) => `${via.title ?? 'advisory'}${via.url ? ` (${via.url})` : ''}`);
  const fix =
    finding.fixAvailable === false
      ? 'no fix available'
      : finding.fixAvailable === true
        ? 'fix: npm audit fix'
        : `fix: ${finding.fixAvailable?.name}@${finding.fixAvailable?.version}`;
  console.log(
    `  ${finding.severity}: ${finding.name} ${finding.range} — ${advisories.join('; ') || `via ${(finding.via ?? []).join(', ')}`} — ${fix}`,
  );
}
const failingCount = SEVERITIES.filter((s) => FAILING.has(s)).reduce(
  (total, severity) => total + (counts[severity] ?? 0),
  0,
);
if (failingCount > 0) {
  console.error(`audit:prod: ${failingCount} high or critical finding(s)`);
  process.exit(1);
}
console.log('audit:prod: no high or critical finding');

#!/usr/bin/env node
// `npm run test:node-matrix`: Showroom on the newer supported Node majors (default 24 and 26;
// docs/decisions/014-node-versions-and-sqlite-driver.md). For each: the Node binary from the npm
// registry (`npm pack node-<platform>-<arch>@<major>`, kept in ~/.cache/showroom-node/<version>),
// then with that Node first on PATH, in a copy of this checkout:
//   install          `npm install`: no engine warning, no install-script warning, exit 0
//   api suite        the api's Vitest suite on SQLite (and PostgreSQL when TEST_DATABASE_URL is set)
//   start + journey  the shop as `npm start` runs it (scripts/start.mjs, PORT/API_PORT), a browser
//                    journey through it (browse, cart, order, flags, monitoring at the intake):
//                    apps/web/tests/e2e/same-origin.spec.ts, both shops of that file
//   soak             scripts/soak.mjs under that Node
// and prints a table of Node × step with pass/fail and times. Exits 1 when a step failed.
//
// The copy: sources copied, node_modules hard-linked (cp -al) and completed by `npm install`
// under the target Node. The SQLite driver on Node ≥ 22 and sharp are Node-API addons (the same
// binary for every Node); npm adds better-sqlite3 13, which Node 20 installs skip. Nothing in
// the copy is written into a hard-linked file: the files npm and Vitest rewrite in place
// (node_modules/.package-lock.json, caches) are removed from the copy first.
// The shop is built once beforehand, under the Node running this script, when its build is stale.
//
// Settings (environment): NODE_MATRIX_VERSIONS (default "24,26"), NODE_MATRIX_SOAK_SECONDS
// (default 60), NODE_MATRIX_PORT_BASE (default 4300; each Node uses 10 ports from there),
// SHOWROOM_NODE_CACHE (default ~/.cache/showroom-node), NODE_MATRIX_KEEP=1 keeps the copies.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { shopBuildIsStale } from './build-state.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const VERSIONS = (process.env.NODE_MATRIX_VERSIONS ?? '24,26').split(',').map((v) => v.trim());
const SOAK_SECONDS = process.env.NODE_MATRIX_SOAK_SECONDS ?? '60';
const PORT_BASE = Number(process.env.NODE_MATRIX_PORT_BASE ?? 4300);
const CACHE = process.env.SHOWROOM_NODE_CACHE ?? path.join(os.homedir(), '.cache', 'showroom-node');
const KEEP = process.env.NODE_MATRIX_KEEP === '1';
const STEPS = ['install', 'api suite', 'start + journey', 'soak'];

/** A command's result: exit status, combined output (the last 200 kB) and seconds taken. */
function run(command, args, { cwd = root, env = process.env, echo = true } = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk) => {
      if (echo) process.stdout.write(chunk);
      output = (output + chunk).slice(-200_000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('exit', (code, signal) =>
      resolve({ ok: code === 0, code, signal, output, seconds: (Date.now() - started) / 1000 }),
    );
  });
}

/** The newest cached Node of `major`, or one fetched from the npm registry into the cache. */
async function nodeOf(major) {
  const platform = process.platform === 'win32' ? 'win' : process.platform;
  const cached = () =>
    (fs.existsSync(CACHE) ? fs.readdirSync(CACHE) : [])
      .filter((name) => name.split('.')[0] === major)
      .filter((name) => fs.existsSync(path.join(CACHE, name, 'bin', 'node')))
      .sort((a, b) => {
        const [x, y] = [a, b].map((v) => v.split('.').map(Number));
        return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
      });
  let versions = cached();
  if (versions.length === 0) {
    const pkg = `node-${platform}-${process.arch}@${major}`;
    console.log(`\n=== fetching ${pkg} from the npm registry into ${CACHE}`);
    const download = fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-node-pack-'));
    const pack = spawnSync('npm', ['pack', pkg, '--json', '--pack-destination', download], {
      encoding: 'utf8',
    });
    if (pack.status !== 0) throw new Error(`npm pack ${pkg} failed:\n${pack.stderr}`);
    const [{ filename, version }] = JSON.parse(pack.stdout);
    const target = path.join(CACHE, version);
    const partial = `${target}.partial`;
    fs.rmSync(partial, { recursive: true, force: true });
    fs.mkdirSync(partial, { recursive: true });
    const tar = spawnSync('tar', [
      'xzf',
      path.join(download, filename),
      '-C',
      partial,
      '--strip-components=1',
    ]);
    if (tar.status !== 0) throw new Error(`unpacking ${filename} failed: ${tar.stderr}`);
    fs.renameSync(partial, target);
    fs.rmSync(download, { recursive: true, force: true });
    versions = cached();
  }
  const dir = path.join(CACHE, versions.at(-1));
  return { version: versions.at(-1), dir, bin: path.join(dir, 'bin') };
}

/** node_modules folders of the checkout (the root's and the workspaces'), not nested ones. */
function nodeModulesFolders() {
  const found = [];
  const visit = (dir, depth) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name === '.git') continue;
      const full = path.join(dir, entry.name);
      if (entry.name === 'node_modules') found.push(path.relative(root, full));
      else if (depth < 3) visit(full, depth + 1);
    }
  };
  visit(root, 0);
  return found;
}

/** A copy of the checkout for one Node: sources copied, node_modules hard-linked. */
function copyCheckout(major) {
  const work = path.join(os.tmpdir(), `showroom-node-matrix-${major}`);
  fs.rmSync(work, { recursive: true, force: true });
  const rsync = spawnSync(
    'rsync',
    [
      '-a',
      '--exclude=node_modules',
      '--exclude=.git',
      '--exclude=test-results',
      '--exclude=playwright-report',
      '--exclude=data/runtime',
      '--exclude=data/*.db*',
      `${root}/`,
      `${work}/`,
    ],
    { stdio: 'inherit' },
  );
  if (rsync.status !== 0) throw new Error('copying the checkout failed (rsync)');
  for (const folder of nodeModulesFolders()) {
    const cp = spawnSync('cp', ['-al', path.join(root, folder), path.join(work, folder)]);
    if (cp.status !== 0) throw new Error(`hard-linking ${folder} failed: ${cp.stderr}`);
    // Files rewritten in place (they would change the checkout's copy through the link).
    for (const name of ['.package-lock.json', '.vite', '.cache', '.vite-temp']) {
      fs.rmSync(path.join(work, folder, name), { recursive: true, force: true });
    }
  }
  return work;
}

/** A problem in npm install's output that the install must not show. */
function installProblems(output) {
  return output
    .split('\n')
    .filter((line) => /EBADENGINE|allowScripts|install scripts|npm error|gyp ERR/i.test(line))
    .slice(0, 5);
}

async function matrixFor(major, index) {
  const results = Object.fromEntries(STEPS.map((step) => [step, { ok: false, note: 'not run' }]));
  const node = await nodeOf(major);
  const env = { ...process.env, PATH: `${node.bin}${path.delimiter}${process.env.PATH}` };
  // Native addons compile against this Node's headers, not those of a user-wide nodedir.
  const installEnv = { ...env, npm_config_nodedir: node.dir };
  const check = spawnSync(path.join(node.bin, 'node'), ['--version'], { encoding: 'utf8' });
  if (check.stdout.trim() !== `v${node.version}`) {
    throw new Error(`${node.bin}/node answers ${check.stdout}${check.stderr}`);
  }
  const work = copyCheckout(major);
  const ports = PORT_BASE + index * 10;
  try {
    console.log(`\n=== Node ${node.version}: npm install in ${work}`);
    const lockfile = path.join(work, 'package-lock.json');
    const locked = fs.readFileSync(lockfile, 'utf8');
    const lockedTime = fs.statSync(lockfile).mtime;
    const install = await run('npm', ['install', '--no-audit', '--no-fund'], {
      cwd: work,
      env: installEnv,
    });
    const problems = installProblems(install.output);
    // The install must not change the lockfile; left unchanged, its time is put back so the
    // shop's build is not stale because of it (scripts/build-state.mjs counts the lockfile).
    if (fs.readFileSync(lockfile, 'utf8') === locked)
      fs.utimesSync(lockfile, lockedTime, lockedTime);
    else problems.push('npm install changed package-lock.json');
    results.install = {
      ok: install.ok && problems.length === 0,
      seconds: install.seconds,
      note: install.ok ? problems.join(' | ') : `exit ${install.code ?? install.signal}`,
    };
    if (!results.install.ok) return { node, results };

    // SQLite always; PostgreSQL as well when TEST_DATABASE_URL is set (as scripts/test.mjs does).
    const databases = [['SQLite', '']];
    if (process.env.TEST_DATABASE_URL)
      databases.push(['PostgreSQL', process.env.TEST_DATABASE_URL]);
    const suites = [];
    for (const [database, url] of databases) {
      console.log(`\n=== Node ${node.version}: api suite (${database})`);
      const suite = await run('npm', ['run', 'test', '-w', 'apps/api'], {
        cwd: work,
        env: { ...env, TEST_DATABASE_URL: url },
      });
      const counted = /Tests\s+(\d+) passed/.exec(stripVTControlCharacters(suite.output));
      suites.push({ database, ...suite, passed: counted?.[1] ?? '?' });
    }
    results['api suite'] = {
      ok: suites.every((suite) => suite.ok),
      seconds: suites.reduce((sum, suite) => sum + suite.seconds, 0),
      note: suites
        .map((suite) =>
          suite.ok
            ? `${suite.database} ${suite.passed} passed`
            : `${suite.database} exit ${suite.code ?? suite.signal}`,
        )
        .join(', '),
    };

    console.log(`\n=== Node ${node.version}: npm start (scripts/start.mjs) + browser journey`);
    const journey = await run(
      'npx',
      [
        'playwright',
        'test',
        'tests/e2e/same-origin.spec.ts',
        '-g',
        'under a host name no profile knows|started with other ports',
      ],
      {
        cwd: path.join(work, 'apps/web'),
        env: {
          ...env,
          E2E_WEB_PORT: String(ports),
          E2E_API_PORT: String(ports + 1),
          E2E_OTHER_WEB_PORT: String(ports + 2),
          E2E_OTHER_API_PORT: String(ports + 3),
        },
      },
    );
    const passed = /(\d+) passed/.exec(journey.output);
    results['start + journey'] = {
      ok: journey.ok && Number(passed?.[1]) === 2,
      seconds: journey.seconds,
      note: journey.ok ? `${passed?.[1] ?? '?'} passed` : `exit ${journey.code ?? journey.signal}`,
    };

    console.log(`\n=== Node ${node.version}: soak`);
    const soak = await run(path.join(node.bin, 'node'), ['scripts/soak.mjs'], {
      cwd: work,
      env: { ...env, SOAK_SECONDS, SOAK_PORT: String(ports + 5) },
    });
    const line = soak.output.split('\n').find((text) => text.startsWith('soak '));
    const rss = /\(([+-][\d.]+) MiB, bound/.exec(line ?? '');
    const rate = /\((\d+)\/s;/.exec(line ?? '');
    results.soak = {
      ok: soak.ok,
      seconds: soak.seconds,
      note: line ? `${rate?.[1] ?? '?'}/s, rss ${rss?.[1] ?? '?'} MiB` : 'no result line',
    };
    return { node, results };
  } finally {
    if (!KEEP) fs.rmSync(work, { recursive: true, force: true });
  }
}

function printTable(rows) {
  const cell = (r) =>
    r.seconds === undefined
      ? `${r.ok ? 'pass' : 'FAIL'} (${r.note})`
      : `${r.ok ? 'pass' : 'FAIL'} ${r.seconds.toFixed(0)} s${r.note ? ` (${r.note})` : ''}`;
  const table = [
    ['Node', ...STEPS],
    ...rows.map(({ label, results }) => [label, ...STEPS.map((step) => cell(results[step]))]),
  ];
  const widths = table[0].map((_, i) => Math.max(...table.map((row) => row[i].length)));
  const line = (row) => `| ${row.map((text, i) => text.padEnd(widths[i])).join(' | ')} |`;
  console.log(`\n${line(table[0])}`);
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of table.slice(1)) console.log(line(row));
}

async function main() {
  const started = Date.now();
  if (shopBuildIsStale(root)) {
    console.log(`=== building the shop once (Node ${process.versions.node})`);
    const build = await run('npm', ['run', 'build']);
    if (!build.ok) throw new Error('npm run build failed');
  }
  const rows = [];
  for (const [index, major] of VERSIONS.entries()) {
    try {
      const { node, results } = await matrixFor(major, index);
      rows.push({ label: node.version, results });
    } catch (error) {
      console.error(error);
      const results = Object.fromEntries(
        STEPS.map((step) => [step, { ok: false, note: String(error.message).split('\n')[0] }]),
      );
      rows.push({ label: major, results });
    }
  }
  printTable(rows);
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  const failed = rows.some(({ results }) => STEPS.some((step) => !results[step].ok));
  console.log(`\nnode matrix ${failed ? 'FAILED' : 'passed'} in ${minutes} min`);
  if (failed) process.exitCode = 1;
}

await main();

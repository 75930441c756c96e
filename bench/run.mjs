#!/usr/bin/env node
// `npm run bench [-- --only pages,api] [-- --runs 3]`: starts a production shop (web, api,
// seeded SQLite), runs the benchmark parts, prints one table with min/median/max and ratios,
// and writes bench/results/latest.json and latest.md. A run of some parts keeps the other
// parts' last results, each stamped with when it was measured.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { judge, markdown, printTable } from './lib/report.mjs';
import { startShop } from './lib/shop.mjs';
import { stopAll } from './lib/processes.mjs';

const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(BENCH_DIR, '..');
const RESULTS_DIR = path.join(BENCH_DIR, 'results');

/** In the order they run: pages first, while the machine is quietest. */
const PART_NAMES = ['pages', 'ssr', 'api', 'flags', 'scale', 'search', 'traffic'];

function parseArgs(argv) {
  const options = { only: PART_NAMES, runs: 3 };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.split('=', 2);
    const value = () => inline ?? argv[++i];
    if (flag === '--only') {
      options.only = value()
        .split(',')
        .map((name) => name.trim());
      const unknown = options.only.filter((name) => !PART_NAMES.includes(name));
      if (unknown.length)
        throw new Error(`unknown part ${unknown.join(', ')}; parts: ${PART_NAMES.join(', ')}`);
    } else if (flag === '--runs') {
      options.runs = Number(value());
      if (!Number.isInteger(options.runs) || options.runs < 1)
        throw new Error('--runs must be a whole number ≥ 1');
    } else {
      throw new Error(`unknown option ${arg}; use --only ${PART_NAMES.join(',')} and --runs N`);
    }
  }
  return options;
}

function machine() {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown CPU',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.versions.node,
    platform: `${os.platform()} ${os.release()}`,
  };
}

/** The commit measured, marked when the tree has uncommitted changes; undefined outside git. */
function commitMeasured() {
  const git = (args) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  const head = git(['rev-parse', '--short', 'HEAD']);
  if (head.status !== 0) return undefined;
  const dirty = git([
    'status',
    '--porcelain',
    '--',
    'apps',
    'packages',
    'bench/parts',
    'bench/lib',
  ]);
  return `${head.stdout.trim()}${dirty.stdout.trim() ? ' with uncommitted changes' : ''}`;
}

function readPrevious() {
  try {
    return JSON.parse(fs.readFileSync(path.join(RESULTS_DIR, 'latest.json'), 'utf8'));
  } catch {
    return { parts: [], rows: [] };
  }
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  const started = Date.now();
  let shop;
  const ctx = {
    root: ROOT,
    runs: options.runs,
    log: (message) => console.log(`  ${message}`),
    /** The production shop, started on first use and shared by the parts. */
    async shop() {
      shop ??= await startShop(ROOT);
      return shop;
    },
  };

  const previous = readPrevious();
  // Each part keeps the machine and commit it was measured on: a partial run (--only) merges
  // its parts with parts of earlier runs, perhaps from another machine.
  const previousParts = previous.parts.map((part) => ({
    ...part,
    machine: part.machine ?? previous.machine,
  }));
  const parts = previousParts.filter((part) => !options.only.includes(part.name));
  let rows = previous.rows.filter((row) => !options.only.includes(row.part));
  const failed = [];
  try {
    for (const name of PART_NAMES.filter((part) => options.only.includes(part))) {
      const part = (await import(`./parts/${name}.mjs`)).default;
      console.log(`\n▶ ${part.title}`);
      const partStarted = Date.now();
      let result;
      try {
        result = await part.run(ctx);
      } catch (err) {
        // One part's failure keeps the others' measurements: the part's last results stay.
        console.error(`  ${name} failed: ${err.stack ?? err}`);
        failed.push(name);
        parts.push(...previousParts.filter((previousPart) => previousPart.name === name));
        rows = rows.concat(previous.rows.filter((row) => row.part === name));
        continue;
      }
      const seconds = (Date.now() - partStarted) / 1000;
      console.log(`  ${name}: ${seconds.toFixed(1)} s`);
      parts.push({
        name,
        title: part.title,
        measuredAt: new Date().toISOString(),
        machine: machine(),
        commit: commitMeasured(),
        seconds,
        runs: options.runs,
        notes: result.notes ?? [],
      });
      rows = rows.concat(result.rows.map((row) => ({ ...row, part: name })));
    }
  } finally {
    await shop?.stop();
    await stopAll();
  }

  parts.sort((a, b) => PART_NAMES.indexOf(a.name) - PART_NAMES.indexOf(b.name));
  rows.sort((a, b) => PART_NAMES.indexOf(a.part) - PART_NAMES.indexOf(b.part));
  const judged = rows.map(judge);
  console.log('');
  printTable(judged);
  const report = { machine: machine(), parts, rows };
  fs.mkdirSync(RESULTS_DIR, { recursive: true });
  fs.writeFileSync(path.join(RESULTS_DIR, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(path.join(RESULTS_DIR, 'latest.md'), markdown({ ...report, judged }));
  const missed = judged.filter((row) => row.budget && !row.met);
  console.log(
    `\nbench: ${((Date.now() - started) / 1000).toFixed(0)} s; ${judged.filter((row) => row.budget).length - missed.length} budgets met, ${missed.length} missed; results in bench/results/latest.md`,
  );
  if (failed.length > 0) {
    console.error(`bench: ${failed.join(', ')} failed (their last results are kept; see above)`);
    process.exitCode = 1;
  }
}

main().catch(async (err) => {
  console.error(`bench failed: ${err.stack ?? err}`);
  await stopAll();
  process.exit(1);
});

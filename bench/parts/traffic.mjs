// The traffic generator's cost (README "Traffic generator"): browser sessions per minute per core
// and peak memory per concurrent session. Each run is one `npm run traffic` process (tsx, the
// generator and its headless Chromium) against the bench's production shop on this machine:
// BENCH_TRAFFIC_SESSIONS sessions (default 6) of the shipped `steady` profile, seed 11,
// BENCH_TRAFFIC_CONCURRENCY at once (default: one per core), think times off (`--think-scale
// 0`), so the figure is the work of a session — pages, scripts, monitoring — not a shopper's
// pauses. The shop runs on the same cores, so "per core" counts the shop's share too, as it is
// when a presenter runs both on one laptop.
//   sessions/min/core   sessions that ended without error ÷ the run's minutes ÷ cores
//   memory              the proportional set size (Pss, /proc/<pid>/smaps_rollup: shared pages
//                       split between the processes sharing them) of the generator's whole
//                       process tree, sampled every 200 ms; its peak ÷ the concurrency
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { processesBelow } from '../../scripts/process-tree.mjs';
import { tempDir } from '../lib/api.mjs';

const SESSIONS = Number(process.env.BENCH_TRAFFIC_SESSIONS ?? 4);
const CONCURRENCY = Number(process.env.BENCH_TRAFFIC_CONCURRENCY ?? os.cpus().length);
const SEED = 11;
const SAMPLE_MS = 200;

/** The summed Pss of the processes, in bytes. */
function pssBytes(pids) {
  let kB = 0;
  for (const pid of pids) {
    try {
      const match = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      if (match) kB += Number(match[1]);
    } catch {
      // ended, or not ours to read
    }
  }
  return kB * 1024;
}

/** One generator run: its summary and the peak memory of its process tree. */
async function generatorRun(root, webUrl, log) {
  const dir = tempDir('showroom-bench-traffic-');
  const summaryFile = path.join(dir, 'summary.json');
  const child = spawn(
    'npm',
    [
      'run',
      'traffic',
      '--',
      '--base-url',
      webUrl,
      '--sessions',
      String(SESSIONS),
      '--concurrency',
      String(CONCURRENCY),
      '--seed',
      String(SEED),
      '--think-scale',
      '0',
      '--max-failure-share',
      '1',
      '--status-file',
      path.join(dir, 'status.json'),
      '--summary-file',
      summaryFile,
    ],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  let output = '';
  const keep = (chunk) => {
    output = (output + chunk).slice(-8_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let peak = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, pssBytes(processesBelow(child.pid).map((p) => p.pid)));
  }, SAMPLE_MS);
  const code = await new Promise((resolve) => child.on('exit', (exit) => resolve(exit)));
  clearInterval(sampler);
  if (!fs.existsSync(summaryFile)) {
    throw new Error(`npm run traffic exited with ${code} and no summary:\n${output}`);
  }
  const summary = JSON.parse(fs.readFileSync(summaryFile, 'utf8'));
  fs.rmSync(dir, { recursive: true, force: true });
  log(
    `traffic: ${summary.sessions} sessions, ${summary.failed} failed, ${summary.seconds.toFixed(0)} s, peak ${(peak / 2 ** 20).toFixed(0)} MiB`,
  );
  return { summary, peak };
}

export default {
  title: 'Traffic generator',
  async run(ctx) {
    const shop = await ctx.shop();
    const cores = os.cpus().length;
    const perCore = [];
    const perSession = [];
    const total = [];
    const failures = [];
    for (let run = 0; run < ctx.runs; run++) {
      const { summary, peak } = await generatorRun(ctx.root, shop.webUrl, ctx.log);
      const ok = summary.sessions - summary.failed;
      perCore.push(ok / (summary.seconds / 60) / cores);
      perSession.push(peak / CONCURRENCY / 2 ** 20);
      total.push(peak / 2 ** 20);
      if (summary.failed > 0) {
        failures.push(
          `run ${run + 1}: ${summary.failed} of ${summary.sessions} failed (${summary.errors.map((e) => `${e.count}× ${e.message}`).join('; ')})`,
        );
      }
    }
    const label = `steady, ${SESSIONS} sessions, concurrency ${CONCURRENCY}`;
    return {
      rows: [
        {
          name: `browser sessions per minute per core (${label})`,
          unit: 'sessions/min',
          samples: perCore,
        },
        {
          name: `peak memory per concurrent session (${label})`,
          unit: 'MiB',
          samples: perSession,
        },
        { name: `peak memory of the generator (${label})`, unit: 'MiB', samples: total },
      ],
      notes: [
        `Think times off; the shop runs on the same ${cores} cores. Memory is the Pss of the generator's process tree (node and Chromium).`,
        ...failures,
      ],
    };
  },
};

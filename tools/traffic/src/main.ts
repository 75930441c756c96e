// `npm run traffic -- [options]`: real browser sessions against a running shop, shaped by a
// traffic profile (README "Traffic generator").
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { isControlUrl } from './control.js';
import { describePlan, planSession } from './planner.js';
import { loadProfile, resolveProfilePath } from './profile-file.js';
import { runTraffic } from './run.js';
import { formatSummary } from './summary.js';

const USAGE = `npm run traffic -- [options]
  --profile <name|file>     steady (default), lunch-spike, checkout-heavy, experiment,
                            guarded-rollout, or a JSON file
  --base-url <url>          the shop (http://localhost:3000)
  --sessions <n>            stop after n sessions
  --duration <time>         or after 90s, 10m, 1h (running sessions finish)
  --concurrency <n>         sessions at once (the profile's otherwise)
  --seed <n>                the profile's seed otherwise; same seed, same journeys
  --rate-scale <x>          multiplies the profile's rate curve
  --control <file|url>      JSON of profile fields applied while running (read every 2 s):
                            a file, or the shop's <base>/api/traffic/control
  --status-file <file>      live status JSON (tools/traffic/status.json)
  --status-port <port>      serve the live status on http://127.0.0.1:<port>/
  --http-only               no browser: api requests at the profile's rate
  --max-failure-share <x>   exit 1 when more sessions failed (0.2)
  --recycle-every <n>       a new browser every n sessions (25)
  --think-scale <x>         multiplies the profile's think times (0: none, for benchmarks)
  --summary-file <file>     also write the summary as JSON
  --plan                    print the sessions the seed plans (with --sessions) and exit`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

/** `90s`, `10m`, `1h` or plain seconds → ms. */
function parseDuration(text: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!match) fail(`--duration: not a duration: ${text}`);
  const factor = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 }[match[2] ?? 's']!;
  return Number(match[1]) * factor;
}

function numberOption(
  name: string,
  value: string | undefined,
  integer = false,
): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!Number.isFinite(number) || number < 0 || (integer && !Number.isInteger(number))) {
    fail(`--${name}: not a ${integer ? 'whole ' : ''}number ≥ 0: ${value}`);
  }
  return number;
}

const { values } = parseArgs({
  options: {
    profile: { type: 'string', default: 'steady' },
    'base-url': { type: 'string', default: 'http://localhost:3000' },
    sessions: { type: 'string' },
    duration: { type: 'string' },
    concurrency: { type: 'string' },
    seed: { type: 'string' },
    'rate-scale': { type: 'string' },
    control: { type: 'string' },
    'status-file': { type: 'string' },
    'status-port': { type: 'string' },
    'http-only': { type: 'boolean', default: false },
    'max-failure-share': { type: 'string' },
    'recycle-every': { type: 'string' },
    'think-scale': { type: 'string' },
    'summary-file': { type: 'string' },
    'run-id': { type: 'string' },
    plan: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
  strict: true,
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

// npm runs this in tools/traffic: paths are the caller's.
const cwd = process.env.INIT_CWD ?? process.cwd();
const profileFile = resolveProfilePath(values.profile, cwd);
let reading;
try {
  reading = loadProfile(profileFile);
} catch (error) {
  fail((error as Error).message);
}
const profile = { ...reading.profile };
const seed = numberOption('seed', values.seed, true);
if (seed !== undefined) profile.seed = seed;
const rateScale = numberOption('rate-scale', values['rate-scale']);
if (rateScale !== undefined) profile.rateScale = rateScale;
const sessions = numberOption('sessions', values.sessions, true);
const concurrency = numberOption('concurrency', values.concurrency, true);
if (concurrency === 0) fail('--concurrency: at least 1');

if (values.plan) {
  if (sessions === undefined) fail('--plan needs --sessions');
  for (const warning of reading.warnings) console.log(`warning: ${warning}`);
  for (let index = 0; index < sessions; index++)
    console.log(describePlan(planSession(profile, index)));
  process.exit(0);
}
const durationMs = values.duration === undefined ? undefined : parseDuration(values.duration);
if (sessions === undefined && durationMs === undefined) fail('give --sessions or --duration');

const abort = new AbortController();
// One Ctrl-C reaches this process up to three times: from the terminal (the whole foreground
// process group), relayed by npm and relayed by tsx. Only an interrupt a second or more after
// the first is a second Ctrl-C.
let firstInterrupt: number | undefined;
const onInterrupt = () => {
  const now = Date.now();
  if (firstInterrupt !== undefined) {
    if (now - firstInterrupt >= 1_000) process.exit(130);
    return;
  }
  firstInterrupt = now;
  console.log('\nstopping: closing the browsers (Ctrl-C again to quit at once)');
  abort.abort();
};
process.on('SIGINT', onInterrupt);
process.on('SIGTERM', onInterrupt);

if (profile.experiment && !values['http-only']) {
  console.warn(
    `traffic: profile ${profile.name} designs an effect on ${profile.experiment.flag}; it is applied with --http-only (browser sessions shop as the profile's funnel says)`,
  );
}
console.log(
  `traffic: profile ${profile.name} (${path.relative(cwd, profileFile) || profileFile}), seed ${profile.seed}, against ${values['base-url']}${values['http-only'] ? ', http only' : ''}`,
);
const statusFile = path.resolve(
  cwd,
  values['status-file'] ??
    path.join(path.dirname(new URL(import.meta.url).pathname), '../status.json'),
);
console.log(`live status: ${statusFile}`);
const summary = await runTraffic({
  baseUrl: values['base-url'],
  profile,
  profileWarnings: reading.warnings,
  sessions,
  durationMs,
  concurrency,
  controlFile: values.control
    ? isControlUrl(values.control)
      ? values.control
      : path.resolve(cwd, values.control)
    : undefined,
  statusFile,
  statusPort: numberOption('status-port', values['status-port'], true),
  httpOnly: values['http-only'],
  maxFailureShare: numberOption('max-failure-share', values['max-failure-share']),
  recycleEvery: numberOption('recycle-every', values['recycle-every'], true),
  thinkTimeScale: numberOption('think-scale', values['think-scale']),
  runId: values['run-id'],
  signal: abort.signal,
});
console.log('\njourney sequence:');
for (const line of summary.sequence) console.log(`  ${line}`);
console.log(`\n${formatSummary(summary)}`);
if (values['summary-file']) {
  fs.writeFileSync(
    path.resolve(cwd, values['summary-file']),
    `${JSON.stringify(summary, null, 2)}\n`,
  );
}
process.exit(summary.ok ? 0 : 1);

import type { SessionResult } from './session.js';

export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))]!;
}

export interface JourneyFigures {
  journey: string;
  sessions: number;
  failed: number;
  orders: number;
  leftEarly: number;
}

export interface TrafficSummary {
  run: string;
  profile: string;
  mode: 'browser' | 'http';
  seconds: number;
  sessions: number;
  failed: number;
  aborted: number;
  failedShare: number;
  orders: number;
  /** Orders over sessions whose journey can end in one. */
  conversion: number | null;
  pageLoadP50Ms: number | null;
  pageLoadP95Ms: number | null;
  perJourney: JourneyFigures[];
  errors: { message: string; count: number }[];
  /** Distinct RUM session ids the sessions reported. */
  rumSessions: number;
  /** Of those, how many the shop's intake lists (null: not asked, or it did not answer). */
  intakeSessions: number | null;
  /** Of those, how many carry feature flags. */
  intakeWithFlags: number | null;
  /**
   * Of those, how many carry the shopper as the monitoring user; the others are the visitors the
   * shop monitors anonymously (one in five, R-4.14 in docs/requirements.md).
   */
  intakeWithShopper: number | null;
  /** An `experiment` profile's sessions per variant shown, and how many of them ordered. */
  perVariant: { variant: string; sessions: number; orders: number }[];
  /** The journey of each session, in index order: two runs with one seed print the same. */
  sequence: string[];
  /** HTTP-only mode: requests/s and latency percentiles. */
  http?: {
    requests: number;
    perSecond: number;
    p50Ms: number | null;
    p95Ms: number | null;
    p99Ms: number | null;
    errors: number;
  };
  ok: boolean;
}

const ORDER_JOURNEYS = new Set(['checkout', 'checkout-single-page']);

export function summarize(
  base: Pick<TrafficSummary, 'run' | 'profile' | 'mode' | 'seconds'>,
  results: readonly SessionResult[],
  sequence: readonly string[],
  maxFailureShare: number,
): TrafficSummary {
  const counted = results.filter((result) => !result.aborted);
  const failed = counted.filter((result) => !result.ok);
  const byJourney = new Map<string, JourneyFigures>();
  for (const result of counted) {
    const journey = result.scenarioId ? `scenario:${result.scenarioId}` : result.journey;
    const figures = byJourney.get(journey) ?? {
      journey,
      sessions: 0,
      failed: 0,
      orders: 0,
      leftEarly: 0,
    };
    figures.sessions += 1;
    if (!result.ok) figures.failed += 1;
    if (result.converted) figures.orders += 1;
    if (result.leftAt) figures.leftEarly += 1;
    byJourney.set(journey, figures);
  }
  const errors = new Map<string, number>();
  for (const result of failed)
    errors.set(result.error ?? 'failed', (errors.get(result.error ?? 'failed') ?? 0) + 1);
  const variants = new Map<string, { variant: string; sessions: number; orders: number }>();
  for (const result of counted) {
    if (result.experimentVariant === null) continue;
    const row = variants.get(result.experimentVariant) ?? {
      variant: result.experimentVariant,
      sessions: 0,
      orders: 0,
    };
    row.sessions += 1;
    if (result.converted) row.orders += 1;
    variants.set(row.variant, row);
  }
  const loads = counted.flatMap((result) => result.pageLoadsMs);
  const orderSessions = counted.filter((result) => ORDER_JOURNEYS.has(result.journey));
  const orders = counted.filter((result) => result.converted).length;
  const failedShare = counted.length === 0 ? 0 : failed.length / counted.length;
  return {
    ...base,
    sessions: counted.length,
    failed: failed.length,
    aborted: results.length - counted.length,
    failedShare,
    orders,
    conversion:
      orderSessions.length === 0
        ? null
        : orderSessions.filter((r) => r.converted).length / orderSessions.length,
    pageLoadP50Ms: percentile(loads, 50),
    pageLoadP95Ms: percentile(loads, 95),
    perJourney: [...byJourney.values()].sort(
      (a, b) => b.sessions - a.sessions || a.journey.localeCompare(b.journey),
    ),
    errors: [...errors.entries()]
      .map(([message, count]) => ({ message, count }))
      .sort((a, b) => b.count - a.count),
    rumSessions: new Set(
      counted.flatMap((result) => (result.rumSessionId ? [result.rumSessionId] : [])),
    ).size,
    intakeSessions: null,
    intakeWithFlags: null,
    intakeWithShopper: null,
    perVariant: [...variants.values()].sort((a, b) => a.variant.localeCompare(b.variant)),
    sequence: [...sequence],
    ok: failedShare <= maxFailureShare,
  };
}

const pad = (text: string, width: number) => text.padEnd(width);
const share = (value: number | null) => (value === null ? '–' : `${(value * 100).toFixed(0)} %`);
const ms = (value: number | null) => (value === null ? '–' : `${value} ms`);

/** The table printed at the end of a run. */
export function formatSummary(summary: TrafficSummary): string {
  const lines: string[] = [];
  lines.push(
    `Traffic run ${summary.run} — profile ${summary.profile}, ${summary.mode}, ${summary.seconds.toFixed(0)} s`,
  );
  if (summary.mode === 'browser') {
    const width = Math.max(7, ...summary.perJourney.map((row) => row.journey.length)) + 2;
    lines.push(`${pad('journey', width)}sessions  failed  orders  left early`);
    for (const row of summary.perJourney) {
      lines.push(
        `${pad(row.journey, width)}${pad(String(row.sessions), 10)}${pad(String(row.failed), 8)}${pad(String(row.orders), 8)}${row.leftEarly}`,
      );
    }
    lines.push(
      `${pad('total', width)}${pad(String(summary.sessions), 10)}${pad(String(summary.failed), 8)}${summary.orders}`,
    );
    lines.push(
      `conversion (checkout journeys): ${share(summary.conversion)} · page load p50 ${ms(summary.pageLoadP50Ms)}, p95 ${ms(summary.pageLoadP95Ms)}`,
    );
    lines.push(
      `monitoring sessions: ${summary.rumSessions} reported by the browsers, ${summary.intakeSessions ?? '?'} in the intake: ${summary.intakeWithFlags ?? '?'} with flags, ${summary.intakeWithShopper ?? '?'} with the shopper as user (the rest monitored anonymously, one visitor in five)`,
    );
  }
  if (summary.http) {
    const h = summary.http;
    lines.push(
      `requests: ${h.requests} (${h.perSecond.toFixed(1)}/s), ${h.errors} errors · latency p50 ${ms(h.p50Ms)}, p95 ${ms(h.p95Ms)}, p99 ${ms(h.p99Ms)}`,
    );
  }
  for (const row of summary.perVariant) {
    lines.push(
      `experiment variant ${row.variant}: ${row.orders} orders of ${row.sessions} sessions (${share(row.sessions === 0 ? null : row.orders / row.sessions)})`,
    );
  }
  if (summary.aborted > 0) lines.push(`stopped before the end: ${summary.aborted} sessions`);
  for (const error of summary.errors.slice(0, 5))
    lines.push(`error ×${error.count}: ${error.message}`);
  lines.push(
    `failed ${summary.failed} of ${summary.sessions} (${share(summary.failedShare)}): ${summary.ok ? 'ok' : 'too many failures'}`,
  );
  return lines.join('\n');
}

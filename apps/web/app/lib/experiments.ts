import type { Estimate } from '@showroom/contracts/experiments';
import { formatPrice } from './money';

// How the experiment pages (routes/experiments.tsx, routes/experiment.tsx) format the results of
// GET /experiments/:flagKey (docs/decisions/017-experiment-statistics.md).

const EN_DASH = '–';

/** `18.2 %`. */
export function formatPercent(share: number | null, digits = 1): string {
  return share === null ? EN_DASH : `${(share * 100).toFixed(digits)} %`;
}

/** A signed value: `+2.0`, `−1.5` (a real minus sign). */
function signed(text: string, value: number): string {
  if (value > 0) return `+${text}`;
  return value < 0 ? `−${text.replace('-', '')}` : text;
}

/** A difference of two shares in percentage points: `+21.8 pp`. */
export function formatPoints(difference: number | null): string {
  return difference === null ? EN_DASH : `${signed((difference * 100).toFixed(1), difference)} pp`;
}

/** A relative lift: `+120 %`. */
export function formatLift(relative: number | null): string {
  return relative === null ? EN_DASH : `${signed((relative * 100).toFixed(1), relative)} %`;
}

/** Money from integer cents (a mean may have fractions of a cent), as the shop shows prices. */
export function formatCents(cents: number | null): string {
  if (cents === null) return EN_DASH;
  return cents < 0 ? `−${formatPrice(-cents)}` : formatPrice(cents);
}

/** A signed amount of money: `+$12.34`. */
export function formatCentsDifference(cents: number | null): string {
  if (cents === null) return EN_DASH;
  return cents > 0 ? `+${formatPrice(cents)}` : formatCents(cents);
}

/** `[5.1 %, 47.7 %]`: an interval's bounds in the estimate's own format. */
export function formatInterval(
  estimate: Estimate,
  format: (value: number | null) => string,
): string {
  if (estimate.low === null || estimate.high === null) return '';
  return `[${format(estimate.low)}, ${format(estimate.high)}]`;
}

/** A p-value to three decimals, `< 0.001` below that, a dash when there is nothing to test. */
export function formatP(p: number | null): string {
  if (p === null) return EN_DASH;
  return p < 0.001 ? '< 0.001' : p.toFixed(3);
}

/** A UTC date and time to the minute: `2026-01-15 09:30`. */
export function formatMinute(epochMs: number): string {
  return new Date(epochMs).toISOString().slice(0, 16).replace('T', ' ');
}

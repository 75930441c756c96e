import { FAULT_FLAGS } from '@showroom/contracts/faults';
import type { FlagList } from '@showroom/contracts/flags-admin';
import { operatorHeaders } from './security.js';

/** How long one answer of the flag service about fault flags is believed. */
export const FAULT_WATCH_TTL_MS = 2_000;

/**
 * Whether any fault flag is on (docs/decisions/010-fault-flags.md). While one is, pages stop
 * being shopper-independent — a fault aimed at one team slows or breaks their listings only —
 * so the page cache renders every request for its shopper instead. Asks the api's flag list
 * at most every `ttlMs`; when the api cannot say, it answers true (render per request: slower,
 * never wrong).
 */
export function createFaultWatch(
  apiUrl: string,
  { ttlMs = FAULT_WATCH_TTL_MS, now = Date.now }: { ttlMs?: number; now?: () => number } = {},
): () => Promise<boolean> {
  let checkedAt = Number.NEGATIVE_INFINITY;
  let active = true;
  let pending: Promise<boolean> | null = null;
  const check = async (): Promise<boolean> => {
    try {
      const response = await fetch(`${apiUrl}/flags`, {
        headers: operatorHeaders(),
        signal: AbortSignal.timeout(1_000),
      });
      if (!response.ok) return true;
      const list = (await response.json()) as FlagList;
      return list.flags.some((flag) => flag.enabled && Object.hasOwn(FAULT_FLAGS, flag.key));
    } catch {
      return true;
    }
  };
  return () => {
    if (now() - checkedAt < ttlMs) return Promise.resolve(active);
    pending ??= check().then((value) => {
      active = value;
      checkedAt = now();
      pending = null;
      return value;
    });
    return pending;
  };
}

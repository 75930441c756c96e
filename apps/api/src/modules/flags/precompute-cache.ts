import { deepFreeze } from './deep-freeze.js';
import type { PrecomputeResult } from './precompute.js';
import type { UfcFlag } from './ufc.js';

/**
 * The bound, in assignments: about 6,000 of the shop's shoppers at its 14 flags (a few MB),
 * fewer when there are more flags or longer subjects.
 */
export const PRECOMPUTE_CACHE_ASSIGNMENTS = 100_000;

/** A subject's key weighs one assignment per this many characters (a shopper's is about 300). */
const KEY_CHARACTERS_PER_ASSIGNMENT = 128;

/** Longer subjects are answered but not kept: the request body alone may be up to 1 MiB. */
export const PRECOMPUTE_CACHE_MAX_KEY_LENGTH = 4096;

interface Entry {
  /** How many allocation start or end times had passed when the result was computed. */
  epoch: number;
  result: PrecomputeResult;
  weight: number;
}

/**
 * Precomputed assignments kept per subject for one set of served flags
 * (docs/architecture.md "Performance"). An answer depends only on the flags, the subject and
 * which allocation start and end times have passed, so a result is reused while all three are
 * the same: served flags are a new array whenever the configuration changes (on any replica),
 * and an allocation's window opening or closing makes every older result stale.
 *
 * The bound counts assignments, not shoppers: a result weighs its flag count plus its key's
 * length in KEY_CHARACTERS_PER_ASSIGNMENT, and the least recently used result goes first.
 * Kept results are frozen, as they are shared by every answer to the same subject. Only a frozen
 * flags array is cached on: the served one, shared until the configuration changes
 * (repository.ts); the flags read without a configuration row are a fresh array each time.
 */
export class PrecomputeCache {
  #flags: readonly UfcFlag[] | undefined;
  /** Allocation start and end times in ms, ascending: an allocation changes at each. */
  #boundaries: number[] = [];
  #entries = new Map<string, Entry>();
  #weight = 0;

  constructor(private readonly maxAssignments = PRECOMPUTE_CACHE_ASSIGNMENTS) {}

  /**
   * The subject's result for these flags at `nowMs`, computed by `compute` unless an equal
   * request was answered since the flags and the allocation windows last changed.
   * `subjectKey` must tell apart every two subjects that may be assigned differently.
   */
  resolve(
    flags: readonly UfcFlag[],
    subjectKey: string,
    nowMs: number,
    compute: () => PrecomputeResult,
  ): { result: PrecomputeResult; computed: boolean } {
    if (!Object.isFrozen(flags)) return { result: compute(), computed: true };
    if (flags !== this.#flags) this.#reset(flags);
    const epoch = passedCount(this.#boundaries, nowMs);
    const entry = this.#entries.get(subjectKey);
    if (entry !== undefined) {
      this.#entries.delete(subjectKey);
      if (entry.epoch === epoch) {
        this.#entries.set(subjectKey, entry);
        return { result: entry.result, computed: false };
      }
      this.#weight -= entry.weight;
    }
    const result = compute();
    const weight =
      Object.keys(result.flags).length +
      Math.ceil(subjectKey.length / KEY_CHARACTERS_PER_ASSIGNMENT);
    if (subjectKey.length <= PRECOMPUTE_CACHE_MAX_KEY_LENGTH && weight <= this.maxAssignments) {
      for (const [key, oldest] of this.#entries) {
        if (this.#weight + weight <= this.maxAssignments) break;
        this.#entries.delete(key);
        this.#weight -= oldest.weight;
      }
      this.#entries.set(subjectKey, { epoch, result: deepFreeze(result), weight });
      this.#weight += weight;
    }
    return { result, computed: true };
  }

  /** Results held now (for tests). */
  get size(): number {
    return this.#entries.size;
  }

  #reset(flags: readonly UfcFlag[]) {
    this.#flags = flags;
    this.#entries.clear();
    this.#weight = 0;
    const boundaries: number[] = [];
    for (const flag of flags) {
      for (const allocation of flag.allocations) {
        for (const time of [allocation.startAt, allocation.endAt]) {
          // flagging-core compares now with new Date(time); an invalid date never changes.
          const ms = time ? new Date(time).getTime() : Number.NaN;
          if (Number.isFinite(ms)) boundaries.push(ms);
        }
      }
    }
    this.#boundaries = boundaries.sort((a, b) => a - b);
  }
}

/**
 * How many of the ascending times are at or before `nowMs`. flagging-core applies an allocation
 * when startAt ≤ now and now < endAt, so each time flips its allocation exactly when reached.
 */
function passedCount(ascending: readonly number[], nowMs: number): number {
  let low = 0;
  let high = ascending.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((ascending[middle] as number) <= nowMs) low = middle + 1;
    else high = middle;
  }
  return low;
}

// An in-memory KeyValueStorage for tests (the Web Storage subset the start-up rules use).
import type { KeyValueStorage } from '../storage-keys';

export interface MemoryStorage extends KeyValueStorage {
  /** Every stored entry, for whole-state assertions. */
  snapshot(): Record<string, string>;
}

export function createMemoryStorage(initial: Record<string, string> = {}): MemoryStorage {
  const entries = new Map(Object.entries(initial));
  return {
    getItem: (key) => entries.get(key) ?? null,
    setItem: (key, value) => {
      entries.set(key, String(value));
    },
    removeItem: (key) => {
      entries.delete(key);
    },
    snapshot: () => Object.fromEntries(entries),
  };
}

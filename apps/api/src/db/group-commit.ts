/**
 * Group commit: writes asked for while the event loop is busy are collected and written
 * together, in one transaction, each caller answered once its own write is stored
 * (docs/architecture.md "Performance"). Pages a transaction writes (an index leaf, the table's
 * last page) are written once per group instead of once per write.
 *
 * A group starts on the event loop's next turn after the first write asked for, so every
 * request whose body arrived in the same turn joins it; writes asked for while `parallel`
 * groups are being written join a later one. A group holds writes up to `maxWeight` in all
 * (one write alone may weigh more), so no transaction holds the connection for long. When a
 * group's transaction fails, each of its writes is tried again alone, so a write fails only for
 * its own sake; except when `retryAlone` says the error leaves the outcome unknown (the
 * connection was lost, perhaps during the commit): then every write of the group fails.
 */
export interface GroupCommitOptions<T> {
  /** A write's weight (e.g. its row count); 1 each by default. */
  weight?: (item: T) => number;
  /** The most weight per group: 64 by default. */
  maxWeight?: number;
  /** How many groups may be written at once: 1 by default (SQLite has one connection). */
  parallel?: number;
  /** Whether a failed group's writes are tried again one by one: yes by default. */
  retryAlone?: (error: unknown) => boolean;
}

export function createGroupCommit<T>(
  writeGroup: (items: readonly T[]) => Promise<void>,
  {
    weight = () => 1,
    maxWeight = 64,
    parallel = 1,
    retryAlone = () => true,
  }: GroupCommitOptions<T> = {},
): (item: T) => Promise<void> {
  interface Waiting {
    item: T;
    weight: number;
    resolve: () => void;
    reject: (error: unknown) => void;
  }
  let waiting: Waiting[] = [];
  let writing = 0;
  let scheduled = false;

  /** The next group: the first waiting write, then as many more as fit in `maxWeight`. */
  function nextGroup(): Waiting[] {
    let total = 0;
    let count = 0;
    while (count < waiting.length) {
      const next = waiting[count]!.weight;
      if (count > 0 && total + next > maxWeight) break;
      total += next;
      count += 1;
    }
    const group = waiting.slice(0, count);
    waiting = waiting.slice(count);
    return group;
  }

  async function write(group: Waiting[]): Promise<void> {
    try {
      await writeGroup(group.map((entry) => entry.item));
      for (const entry of group) entry.resolve();
    } catch (error) {
      if (group.length === 1 || !retryAlone(error)) {
        for (const entry of group) entry.reject(error);
        return;
      }
      for (const entry of group) {
        try {
          await writeGroup([entry.item]);
          entry.resolve();
        } catch (alone) {
          entry.reject(alone);
        }
      }
    }
  }

  function start(): void {
    scheduled = false;
    while (waiting.length > 0 && writing < parallel) {
      writing += 1;
      void write(nextGroup()).finally(() => {
        writing -= 1;
        start();
      });
    }
  }

  return (item) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ item, weight: weight(item), resolve, reject });
      if (scheduled || writing >= parallel) return;
      scheduled = true;
      setImmediate(start);
    });
}

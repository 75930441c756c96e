/**
 * Group commit: writes asked for while the event loop is busy are collected and written
 * together, in one transaction, each caller answered once its own write is stored
 * (docs/architecture.md "Performance"). Pages a transaction writes (an index leaf, the table's
 * last page) are written once per group instead of once per write.
 *
 * A group starts on the event loop's next turn after the first write asked for, so every
 * request whose body arrived in the same turn joins it; writes asked for while a group is being
 * written join the next one. When a group's transaction fails, each of its writes is tried
 * again alone, so a write fails only for its own sake and none is stored twice.
 */
export function createGroupCommit<T>(
  writeGroup: (items: readonly T[]) => Promise<void>,
  { maxItems = 64 }: { maxItems?: number } = {},
): (item: T) => Promise<void> {
  interface Waiting {
    item: T;
    resolve: () => void;
    reject: (error: unknown) => void;
  }
  let waiting: Waiting[] = [];
  let draining = false;

  async function drain(): Promise<void> {
    while (waiting.length > 0) {
      const group = waiting.slice(0, maxItems);
      waiting = waiting.slice(group.length);
      try {
        await writeGroup(group.map((entry) => entry.item));
        for (const entry of group) entry.resolve();
      } catch (error) {
        if (group.length === 1) {
          group[0]!.reject(error);
          continue;
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
    draining = false;
  }

  return (item) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (draining) return;
      draining = true;
      setImmediate(() => void drain());
    });
}

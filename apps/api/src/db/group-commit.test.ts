import { describe, expect, it } from 'vitest';
import { createGroupCommit } from './group-commit.js';

/** A group writer that records each call's items; items listed in `bad` fail the call. */
function recorder({
  bad = new Set<string>(),
  hold,
}: { bad?: Set<string>; hold?: Promise<void> } = {}) {
  const calls: string[][] = [];
  const stored: string[] = [];
  const write = async (items: readonly string[]) => {
    calls.push([...items]);
    if (hold) await hold;
    const refused = items.find((item) => bad.has(item));
    if (refused) throw new Error(`refused ${refused}`);
    stored.push(...items);
  };
  return { calls, stored, write };
}

describe('group commit', () => {
  it('writes what is asked in one turn of the event loop as one group', async () => {
    const { calls, stored, write } = recorder();
    const store = createGroupCommit(write);
    await Promise.all(['a', 'b', 'c'].map(store));
    expect(calls).toEqual([['a', 'b', 'c']]);
    expect(stored).toEqual(['a', 'b', 'c']);
  });

  it('answers a caller only once its own write has been stored', async () => {
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    const { stored, write } = recorder({ hold });
    const store = createGroupCommit(write);
    let answered = false;
    const done = store('a').then(() => (answered = true));
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    release();
    await done;
    expect(stored).toEqual(['a']);
  });

  it('puts writes asked while a group is written into the next group', async () => {
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    const { calls, write } = recorder({ hold });
    const store = createGroupCommit(write);
    const first = store('a');
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual([['a']]);
    const later = [store('b'), store('c')];
    release();
    await Promise.all([first, ...later]);
    expect(calls).toEqual([['a'], ['b', 'c']]);
  });

  it('writes at most maxWeight writes of weight 1 per group, in the order asked', async () => {
    const { calls, write } = recorder();
    const store = createGroupCommit(write, { maxWeight: 2 });
    await Promise.all(['a', 'b', 'c', 'd', 'e'].map(store));
    expect(calls).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('fails only the write that fails alone when its group fails', async () => {
    const { calls, stored, write } = recorder({ bad: new Set(['b']) });
    const store = createGroupCommit(write);
    const results = await Promise.allSettled(['a', 'b', 'c'].map(store));
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('refused b'));
    expect(calls).toEqual([['a', 'b', 'c'], ['a'], ['b'], ['c']]);
    expect(stored).toEqual(['a', 'c']);
  });

  it('keeps writing groups after a failed one', async () => {
    const { stored, write } = recorder({ bad: new Set(['x']) });
    const store = createGroupCommit(write);
    await expect(store('x')).rejects.toThrow('refused x');
    await store('y');
    expect(stored).toEqual(['y']);
  });

  it('fills a group up to maxWeight, and writes a heavier write alone', async () => {
    const { calls, write } = recorder();
    const store = createGroupCommit(write, { weight: (item) => item.length, maxWeight: 4 });
    await Promise.all(['aa', 'bb', 'c', 'dddddd', 'e'].map(store));
    expect(calls).toEqual([['aa', 'bb'], ['c'], ['dddddd'], ['e']]);
  });

  it('writes up to `parallel` groups at once', async () => {
    let release!: () => void;
    const hold = new Promise<void>((resolve) => (release = resolve));
    const { calls, write } = recorder({ hold });
    const store = createGroupCommit(write, { maxWeight: 1, parallel: 2 });
    const all = ['a', 'b', 'c'].map(store);
    await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual([['a'], ['b']]);
    release();
    await Promise.all(all);
    expect(calls).toEqual([['a'], ['b'], ['c']]);
  });

  it('fails every write of a group, without writing them again, when retryAlone says no', async () => {
    const { calls, write } = recorder({ bad: new Set(['b']) });
    const store = createGroupCommit(write, { retryAlone: () => false });
    const results = await Promise.allSettled(['a', 'b'].map(store));
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(calls).toEqual([['a', 'b']]);
  });
});

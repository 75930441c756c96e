import { describe, expect, it } from 'vitest';
import { createFlagMemory } from './flag-memory';

describe('flag memory', () => {
  it("hands the page's evaluations back when a new view starts, not on the first view", () => {
    const memory = createFlagMemory();
    memory.record('instant_pay', 'b');
    expect(memory.viewSeen('view-1')).toEqual([]);
    memory.record('show_loaf', false);
    expect(memory.viewSeen('view-1')).toEqual([]);
    expect(memory.viewSeen('view-2')).toEqual([
      ['instant_pay', 'b'],
      ['show_loaf', false],
    ]);
    expect(memory.viewSeen('view-2')).toEqual([]);
  });

  it('keeps the latest value of a flag and ignores events without a view', () => {
    const memory = createFlagMemory();
    memory.viewSeen('view-1');
    memory.record('instant_pay', 'a');
    memory.record('instant_pay', 'c');
    expect(memory.viewSeen(undefined)).toEqual([]);
    expect(memory.viewSeen('view-2')).toEqual([['instant_pay', 'c']]);
  });
});

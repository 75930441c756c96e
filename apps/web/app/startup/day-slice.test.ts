import { describe, expect, it } from 'vitest';
import { daySliceSize, sampleShopperPath, sliceOfDay } from './day-slice';
import { createShopperList } from './test-support/shoppers';

describe('daySliceSize and sampleShopperPath', () => {
  it('R-4.12 a slice holds floor(length / 7), or the whole of a list shorter than seven', () => {
    expect([350, 15, 7, 6, 1, 0].map(daySliceSize)).toEqual([50, 2, 1, 6, 1, 0]);
  });

  it('names the list, the UTC day and the position (routes/sample-shopper.ts)', () => {
    expect(sampleShopperPath('loyalty', 6, 49)).toBe('/shoppers/loyalty/6/49');
  });
});

describe('sliceOfDay', () => {
  const list = createShopperList(350);

  it('R-4.12 Sunday (UTC day 0) is the first seventh of the list', () => {
    expect(sliceOfDay(list, 0).map((s) => s.id)).toEqual(list.slice(0, 50).map((s) => s.id));
  });

  it('R-4.12 R-9.3 each UTC weekday has its own slice of one seventh', () => {
    for (let day = 0; day < 7; day += 1) {
      const slice = sliceOfDay(list, day);
      expect(slice).toHaveLength(50);
      expect(slice[0]).toBe(list[day * 50]);
    }
    expect(sliceOfDay(list, 6)[49]).toBe(list[349]);
  });

  it('R-4.12 a list that does not divide by seven gets slices of floor(length / 7)', () => {
    const fifteen = createShopperList(15);
    expect(sliceOfDay(fifteen, 6).map((s) => s.id)).toEqual(['s012', 's013']);
  });

  it('R-4.12 a list shorter than seven is used whole', () => {
    const three = createShopperList(3);
    expect(sliceOfDay(three, 4)).toEqual(three);
  });

  it('R-4.12 a day outside 0–6 is an error, not an empty slice', () => {
    for (const day of [-1, 7, 2.5, Number.NaN]) {
      expect(() => sliceOfDay(list, day)).toThrow(RangeError);
    }
  });
});

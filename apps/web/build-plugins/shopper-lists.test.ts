import fs from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { DAY_SLICES_MODULE, shopperDaySlices } from './shopper-day-slices';

const FOLDER = new URL('../../../data/shoppers/', import.meta.url);
const committed = (kind: string) =>
  JSON.parse(fs.readFileSync(new URL(`${kind}.json`, FOLDER), 'utf8')) as { id: string }[];

/** The plugin's hooks as Vite calls them, with a context that records watched files. */
function plugin() {
  const hooks = shopperDaySlices(FOLDER) as unknown as {
    resolveId(id: string): string | undefined;
    load(this: { addWatchFile(file: string): void }, id: string): string | undefined;
  };
  const addWatchFile = vi.fn();
  return {
    resolveId: (id: string) => hooks.resolveId(id),
    load: (id: string) => hooks.load.call({ addWatchFile }, id),
    addWatchFile,
  };
}

describe('shopper day slices (build plugin)', () => {
  it('R-4.12 each UTC day has its own module of that day’s seventh of each committed list', () => {
    const build = plugin();
    for (const kind of ['standard', 'loyalty']) {
      const list = committed(kind);
      const seen = new Set<string>();
      for (let day = 0; day < 7; day += 1) {
        const id = build.resolveId(`virtual:shoppers-${kind}-${day}`);
        expect(id).toBe(`\0shoppers-${kind}-${day}`);
        const code = build.load(id!)!;
        const slice = JSON.parse(code.replace(/^export default /, '').replace(/;$/, '')) as {
          id: string;
        }[];
        // 350 shoppers: fifty a day, Sunday the first fifty (docs/requirements.md ).
        expect(slice.map((shopper) => shopper.id)).toEqual(
          list.slice(day * 50, day * 50 + 50).map((shopper) => shopper.id),
        );
        for (const shopper of slice) seen.add(shopper.id);
      }
      expect(seen.size).toBe(350);
    }
    expect(build.addWatchFile).toHaveBeenCalledWith(
      expect.stringMatching(/data\/shoppers\/loyalty\.json$/),
    );
  });

  it('the index module imports every slice, and other ids are left to other plugins', () => {
    const build = plugin();
    const index = build.load(build.resolveId(DAY_SLICES_MODULE)!)!;
    for (const kind of ['standard', 'loyalty']) {
      for (let day = 0; day < 7; day += 1) {
        expect(index).toContain(`import('virtual:shoppers-${kind}-${day}')`);
      }
    }
    for (const id of [
      'virtual:shoppers-standard-7',
      'virtual:shoppers-demo-1',
      'shoppers-standard-1',
    ]) {
      expect(build.resolveId(id), id).toBeUndefined();
    }
    expect(build.load('/app/root.tsx')).toBeUndefined();
  });
});

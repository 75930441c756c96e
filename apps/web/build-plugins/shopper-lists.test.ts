import fs from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { LIST_LENGTHS_MODULE, LISTS_MODULE, shopperLists } from './shopper-lists';

const FOLDER = new URL('../../../data/shoppers/', import.meta.url);
const committed = (kind: string) =>
  JSON.parse(fs.readFileSync(new URL(`${kind}.json`, FOLDER), 'utf8')) as { id: string }[];

type LoadContext = { addWatchFile(file: string): void; error(message: string): never };

/** The plugin's hooks as Vite calls them, with a context that records watched files. */
function plugin() {
  const hooks = shopperLists(FOLDER) as unknown as {
    resolveId(id: string): string | undefined;
    load(this: LoadContext, id: string, options?: { ssr?: boolean }): string | undefined;
  };
  const addWatchFile = vi.fn();
  const error = (message: string): never => {
    throw new Error(message);
  };
  return {
    resolveId: (id: string) => hooks.resolveId(id),
    load: (id: string, ssr: boolean) => hooks.load.call({ addWatchFile, error }, id, { ssr }),
    addWatchFile,
  };
}

const exported = (code: string) =>
  JSON.parse(code.replace(/^export default /, '').replace(/;$/, ''));

describe('shopper lists (build plugin)', () => {
  it('R-3.6 the server gets both committed lists whole, and the files are watched', () => {
    const build = plugin();
    const id = build.resolveId(LISTS_MODULE);
    expect(id).toBe(`\0${LISTS_MODULE}`);
    const lists = exported(build.load(id!, true)!) as Record<string, { id: string }[]>;
    for (const kind of ['standard', 'loyalty']) {
      expect(lists[kind]!.map((shopper) => shopper.id)).toEqual(committed(kind).map((s) => s.id));
    }
    expect(build.addWatchFile).toHaveBeenCalledWith(
      expect.stringMatching(/data\/shoppers\/loyalty\.json$/),
    );
  });

  it('R-4.12 the browser gets only the lists’ lengths; the lists themselves fail a client build', () => {
    const build = plugin();
    const lengths = exported(build.load(build.resolveId(LIST_LENGTHS_MODULE)!, false)!);
    expect(lengths).toEqual({ standard: 350, loyalty: 350 });
    expect(() => build.load(build.resolveId(LISTS_MODULE)!, false)).toThrow(/for the server/);
  });

  it('leaves other ids to other plugins', () => {
    const build = plugin();
    for (const id of [
      'virtual:shopper-day-slices',
      'virtual:shoppers-standard-1',
      'shopper-lists',
    ]) {
      expect(build.resolveId(id), id).toBeUndefined();
    }
    expect(build.load('/app/root.tsx', false)).toBeUndefined();
  });
});

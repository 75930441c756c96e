import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { sliceOfDay } from '../app/startup/day-slice';
import { DAY_SLICE_COUNT, SHOPPER_LIST_KINDS } from '../app/startup/storage-keys';

/** The module the browser's start-up imports (app/startup/shopper-day-slices.d.ts). */
export const DAY_SLICES_MODULE = 'virtual:shopper-day-slices';
/** One slice, `shoppers-{kind}-{day}`: imported as `virtual:…`, resolved to `\0…`. */
const SLICE = `shoppers-(${SHOPPER_LIST_KINDS.join('|')})-([0-${DAY_SLICE_COUNT - 1}])`;
const SLICE_IMPORT = new RegExp(`^virtual:(${SLICE})$`);
const SLICE_ID = new RegExp(`^\0${SLICE}$`);

/**
 * R-4.12: a browser needs one day's slice of one sample shopper list (`{folder}/{kind}.json`),
 * so `virtual:shopper-day-slices` loads each slice as a chunk of its own
 * (`_shoppers-{kind}-{day}`, about 1.4 KB gzip): a first visit fetches one seventh of a list
 * instead of the whole. The server build writes the chunks too; nothing there loads them.
 */
export function shopperDaySlices(folder: URL): Plugin {
  const days = Array.from({ length: DAY_SLICE_COUNT }, (_, day) => day);
  return {
    name: 'showroom:shopper-day-slices',
    resolveId(id) {
      if (id === DAY_SLICES_MODULE) return `\0${DAY_SLICES_MODULE}`;
      const slice = SLICE_IMPORT.exec(id);
      return slice ? `\0${slice[1]}` : undefined;
    },
    load(id) {
      if (id === `\0${DAY_SLICES_MODULE}`) {
        const kinds = SHOPPER_LIST_KINDS.map(
          (kind) =>
            `${kind}: [${days.map((day) => `() => import('virtual:shoppers-${kind}-${day}')`).join(', ')}]`,
        );
        return [
          `const slices = { ${kinds.join(', ')} };`,
          'export function loadDaySlice(kind, utcDay) {',
          '  const load = slices[kind]?.[utcDay];',
          '  if (!load) return Promise.reject(new RangeError(`No day slice ${utcDay} of the ${kind} list`));',
          '  return load().then((module) => module.default);',
          '}',
        ].join('\n');
      }
      const slice = SLICE_ID.exec(id);
      if (!slice) return undefined;
      const file = fileURLToPath(new URL(`${slice[1]}.json`, folder));
      // Watched, so a dev server serves new slices after scripts/generate-shoppers.ts ran.
      this.addWatchFile(file);
      const list = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown[];
      return `export default ${JSON.stringify(sliceOfDay(list, Number(slice[2])))};`;
    },
  };
}

import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { SHOPPER_LIST_KINDS } from '../app/startup/storage-keys';

/** How many shoppers each list holds: what the browser's start-up needs to draw one. */
export const LIST_LENGTHS_MODULE = 'virtual:shopper-list-lengths';
/** The lists themselves, for the server only (app/lib/sample-shoppers.server.ts). */
export const LISTS_MODULE = 'virtual:shopper-lists';

/**
 * The committed sample shopper lists (`{folder}/{kind}.json`, R-3.6) as the web app imports
 * them (app/startup/shopper-lists.d.ts). A browser that must fill its identity draws a position
 * in the day's slice from the lists' lengths and fetches that one record from the web server
 * (R-4.12, routes/sample-shopper.ts), so no list is in the client build: importing
 * `virtual:shopper-lists` there fails the build.
 */
export function shopperLists(folder: URL): Plugin {
  const ids = new Map([LIST_LENGTHS_MODULE, LISTS_MODULE].map((id) => [`\0${id}`, id]));
  return {
    name: 'showroom:shopper-lists',
    resolveId(id) {
      return ids.has(`\0${id}`) ? `\0${id}` : undefined;
    },
    load(id, options) {
      const module = ids.get(id);
      if (!module) return undefined;
      if (module === LISTS_MODULE && !options?.ssr) {
        this.error(`${LISTS_MODULE} is for the server: the browser fetches one shopper`);
      }
      const lists = Object.fromEntries(
        SHOPPER_LIST_KINDS.map((kind) => {
          const file = fileURLToPath(new URL(`${kind}.json`, folder));
          // Watched, so a dev server serves new lists after scripts/generate-shoppers.ts ran.
          this.addWatchFile(file);
          return [kind, JSON.parse(fs.readFileSync(file, 'utf8')) as unknown[]];
        }),
      );
      const value =
        module === LISTS_MODULE
          ? lists
          : Object.fromEntries(Object.entries(lists).map(([kind, list]) => [kind, list.length]));
      return `export default ${JSON.stringify(value)};`;
    },
  };
}

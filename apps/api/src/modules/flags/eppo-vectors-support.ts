import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { readFlagDefinitions } from './definitions.js';
import { createFlagsRepository } from './repository.js';

/**
 * Test support (no test runner imports): Eppo's published evaluation vectors
 * (testdata/eppo-ufc, see its README.md for their origin), read for the tests that run them
 * through a wire protocol (eppo-vectors.test.ts: precompute-assignments; ofrep.test.ts: OFREP).
 */
export const VECTORS_DIR = fileURLToPath(new URL('./testdata/eppo-ufc', import.meta.url));

export interface VectorFile {
  flag: string;
  variationType: string;
  defaultValue: unknown;
  subjects: {
    subjectKey: string;
    subjectAttributes: Record<string, unknown>;
    assignment: unknown;
  }[];
}

type Json = Record<string, unknown>;

const VERSION_LIKE = /^\d+\.\d+\.\d+/;

/**
 * The three dialect differences testdata/eppo-ufc/README.md lists, bridged here and nowhere
 * in the product: totalShards moves onto every shard, JSON variations become objects, and
 * version comparisons become SEMVER_* operators.
 */
export function bridgeEppoToDatadogDialect(eppo: Json): Json {
  const flags = eppo.flags as Record<string, Json>;
  for (const flag of Object.values(flags)) {
    const totalShards = flag.totalShards;
    delete flag.totalShards;
    if (flag.variationType === 'JSON') {
      for (const variation of Object.values(flag.variations as Record<string, Json>)) {
        variation.value = JSON.parse(variation.value as string);
      }
    }
    for (const allocation of flag.allocations as Json[]) {
      for (const split of allocation.splits as Json[]) {
        for (const shard of split.shards as Json[]) shard.totalShards = totalShards;
      }
      for (const rule of (allocation.rules as Json[] | undefined) ?? []) {
        for (const condition of rule.conditions as Json[]) {
          const comparison = ['GT', 'GTE', 'LT', 'LTE'].includes(condition.operator as string);
          if (
            comparison &&
            typeof condition.value === 'string' &&
            VERSION_LIKE.test(condition.value)
          ) {
            condition.operator = `SEMVER_${condition.operator as string}`;
          }
        }
      }
    }
  }
  return eppo;
}

/** Every vector file (tests/*.json), in name order, parsed. */
export function readVectorFiles(): { file: string; vector: VectorFile }[] {
  return fs
    .readdirSync(path.join(VECTORS_DIR, 'tests'))
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((file) => ({
      file,
      vector: JSON.parse(
        fs.readFileSync(path.join(VECTORS_DIR, 'tests', file), 'utf8'),
      ) as VectorFile,
    }));
}

/**
 * Serves the vectors' flags (flags-v1.json, bridged) from `db`, through the loader FLAGS_PATH
 * uses at start-up; the bridged file is written to `tempDir`.
 */
export async function serveEppoFlags(db: Kysely<Database>, tempDir: string): Promise<void> {
  const eppo = JSON.parse(fs.readFileSync(path.join(VECTORS_DIR, 'flags-v1.json'), 'utf8')) as Json;
  const bridged = path.join(tempDir, 'flags-v1.datadog.json');
  fs.writeFileSync(bridged, JSON.stringify(bridgeEppoToDatadogDialect(eppo)));
  await createFlagsRepository(db).syncDefinitions(await readFlagDefinitions(bridged));
}

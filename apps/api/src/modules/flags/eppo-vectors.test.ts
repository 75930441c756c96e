import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { readFlagDefinitions } from './definitions.js';
import { createFlagsRepository } from './repository.js';
import { fetchAssignments } from './test-support.js';

/**
 * Eppo's published evaluation vectors (testdata/eppo-ufc, see its README.md for their origin),
 * run through the real wire path: the provider's stringified attributes →
 * POST /flags/precompute-assignments → the value the provider would return (the assignment, or
 * the default when the flag is absent).
 */
const VECTORS_DIR = fileURLToPath(new URL('./testdata/eppo-ufc', import.meta.url));

interface VectorFile {
  flag: string;
  variationType: string;
  defaultValue: unknown;
  subjects: {
    subjectKey: string;
    subjectAttributes: Record<string, unknown>;
    assignment: unknown;
  }[];
}

interface Mismatch {
  file: string;
  flag: string;
  subject: string;
  expected: unknown;
  got: unknown;
  defaultValue: unknown;
}

type Json = Record<string, unknown>;

const VERSION_LIKE = /^\d+\.\d+\.\d+/;

/**
 * The three dialect differences testdata/eppo-ufc/README.md lists, bridged here and nowhere
 * in the product: totalShards moves onto every shard, JSON variations become objects, and
 * version comparisons become SEMVER_* operators.
 */
function bridgeEppoToDatadogDialect(eppo: Json): Json {
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

interface KnownDeviation {
  flag: string;
  subject: string;
  /** What the subject gets through the wire instead of Eppo's assignment. */
  got: unknown;
  reason: string;
}

/**
 * The one vector the real wire path cannot reproduce: nicole's attribute is the *string* "null";
 * the provider sends a string and a null alike as "null", and the service reads it as null (the
 * shop's demo user has useDiscount null, and null-operator-test/charlie needs IS_NULL to see it),
 * so her ONE_OF ["null"] cannot match.
 */
const KNOWN_DEVIATIONS: KnownDeviation[] = [
  {
    flag: 'boolean-one-of-matches',
    subject: 'nicole',
    got: 0,
    reason: 'the provider sends the string "null" and null alike',
  },
];

let testDb: TestDatabase;
let app: FastifyInstance;
let tempDir: string;

beforeAll(async () => {
  tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-eppo-'));
  const eppo = JSON.parse(fs.readFileSync(path.join(VECTORS_DIR, 'flags-v1.json'), 'utf8')) as Json;
  const bridged = path.join(tempDir, 'flags-v1.datadog.json');
  fs.writeFileSync(bridged, JSON.stringify(bridgeEppoToDatadogDialect(eppo)));

  testDb = await createTestDatabase();
  // The loader FLAGS_PATH uses at start-up, on the bridged file.
  await createFlagsRepository(testDb.database.db).syncDefinitions(
    await readFlagDefinitions(bridged),
  );
  app = await buildApp({ database: testDb.database });
});

afterAll(async () => {
  await app.close();
  await testDb.destroy();
  fs.rmSync(tempDir, { recursive: true, force: true });
});

describe('Eppo UFC evaluation vectors through POST /flags/precompute-assignments', () => {
  it('assigns what Eppo expects for every subject of every vector file', async () => {
    const files = fs
      .readdirSync(path.join(VECTORS_DIR, 'tests'))
      .filter((name) => name.endsWith('.json'))
      .sort();
    expect(files.length).toBe(24);

    let total = 0;
    const mismatches: Mismatch[] = [];
    for (const file of files) {
      const vector = JSON.parse(
        fs.readFileSync(path.join(VECTORS_DIR, 'tests', file), 'utf8'),
      ) as VectorFile;
      for (const subject of vector.subjects) {
        total += 1;
        const answer = await fetchAssignments(app, {
          targetingKey: subject.subjectKey,
          ...subject.subjectAttributes,
        });
        expect(answer.data.id).toBe(subject.subjectKey);
        const flag = answer.data.attributes.flags[vector.flag];
        if (flag) expect(flag.variationType).toBe(vector.variationType);
        const got = flag ? flag.variationValue : vector.defaultValue;
        if (JSON.stringify(got) !== JSON.stringify(subject.assignment)) {
          mismatches.push({
            file,
            flag: vector.flag,
            subject: subject.subjectKey,
            expected: subject.assignment,
            got,
            defaultValue: vector.defaultValue,
          });
        }
      }
    }
    expect(total).toBe(225);

    // Every mismatch must be a known deviation, and every known deviation must still happen
    // exactly as described (so fixing one makes this test say so).
    const deviations = KNOWN_DEVIATIONS;
    expect(
      mismatches.map((m) => `${m.flag}/${m.subject}: got ${JSON.stringify(m.got)}`).sort(),
    ).toEqual(deviations.map((d) => `${d.flag}/${d.subject}: got ${JSON.stringify(d.got)}`).sort());

    const passed = total - mismatches.length;
    const reasons = [...new Set(deviations.map((d) => d.reason))];
    console.log(
      `eppo vectors: ${passed}/${total} subjects` +
        (deviations.length > 0
          ? ` (${deviations.length} known deviations: ${reasons.join('; ')})`
          : ''),
    );
  });
});

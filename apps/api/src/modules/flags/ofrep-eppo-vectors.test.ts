import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EvaluationContext } from '@openfeature/server-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDetails, startOfrepHarness, type OfrepHarness } from '../../test/ofrep-provider.js';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { readVectorFiles, serveEppoFlags } from './eppo-vectors-support.js';
import { VARIATION_TYPES, type VariationType } from './ufc.js';

/**
 * Eppo's evaluation vectors (eppo-vectors-support.ts) through OFREP, read by the official
 * provider: the context travels as typed JSON, so the one deviation of the precompute path
 * (eppo-vectors.test.ts: the string "null" and null alike on that wire) does not arise here.
 */
const DOMAIN = 'ofrep-eppo-vectors';

let testDb: TestDatabase;
let harness: OfrepHarness;
let tempDir: string;

beforeAll(async () => {
  tempDir = fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-ofrep-eppo-'));
  testDb = await createTestDatabase();
  await serveEppoFlags(testDb.database.db, tempDir);
  harness = await startOfrepHarness(DOMAIN, { database: testDb.database });
});

afterAll(async () => {
  await harness.close();
  await testDb.destroy();
  fs.rmSync(tempDir, { recursive: true, force: true });
});

const isVariationType = (type: string): type is VariationType =>
  (VARIATION_TYPES as readonly string[]).includes(type);

describe('Eppo UFC evaluation vectors through OFREP and @openfeature/ofrep-provider', () => {
  it('answers what Eppo expects for every subject of every vector file', async () => {
    const files = readVectorFiles();
    expect(files.length).toBe(24);

    let total = 0;
    const mismatches: string[] = [];
    for (const { file, vector } of files) {
      if (!isVariationType(vector.variationType)) throw new Error(`${file}: variation type?`);
      for (const subject of vector.subjects) {
        total += 1;
        const details = await getDetails(
          harness.client,
          vector.flag,
          vector.variationType,
          vector.defaultValue,
          { targetingKey: subject.subjectKey, ...subject.subjectAttributes } as EvaluationContext,
        );
        if (JSON.stringify(details.value) !== JSON.stringify(subject.assignment)) {
          mismatches.push(
            `${vector.flag}/${subject.subjectKey}: got ${JSON.stringify(details.value)}, expected ${JSON.stringify(subject.assignment)} (${details.errorCode ?? details.reason})`,
          );
        }
      }
    }
    expect(total).toBe(225);
    expect(mismatches).toEqual([]);
  });
});

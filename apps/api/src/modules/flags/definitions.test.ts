import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/test-database.js';
import { FlagConfigurationError, readFlagDefinitions } from './definitions.js';
import { setAllocationRollout, setAllocationRules, setFlagEnabled } from './operations.js';
import { createFlagsRepository, type FlagsRepository } from './repository.js';
import { createStaticAllocation, createUfcFlag } from './test-support.js';
import type { UfcFlag } from './ufc.js';

let dir: string;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-flags-'));
  return () => fs.rmSync(dir, { recursive: true, force: true });
});

function writeUfc(name: string, flags: UfcFlag[] | unknown, environment = 'demo'): string {
  const file = path.join(dir, name);
  const body = Array.isArray(flags)
    ? {
        format: 'SERVER',
        environment: { name: environment },
        flags: Object.fromEntries((flags as UfcFlag[]).map((f) => [f.key, f])),
      }
    : flags;
  fs.writeFileSync(file, typeof body === 'string' ? body : JSON.stringify(body));
  return file;
}

const onOff = (key: string, allocations = [createStaticAllocation('all', 'on')]) =>
  createUfcFlag(key, 'BOOLEAN', { on: true, off: false }, allocations);

describe('readFlagDefinitions (default folder or FLAGS_PATH)', () => {
  it('reads one file', async () => {
    const file = writeUfc('one.json', [onOff('a')], 'prod');
    const definitions = await readFlagDefinitions(file);
    expect(definitions).toMatchObject({ environment: 'prod', sources: [file], warnings: [] });
    expect(definitions.flags.map((flag) => flag.key)).toEqual(['a']);
  });

  it('merges every *.json file of a folder in name order', async () => {
    writeUfc('b.json', [onOff('from_b')]);
    writeUfc('a.json', [onOff('from_a')]);
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'ignored');
    const definitions = await readFlagDefinitions(dir);
    expect(definitions.flags.map((flag) => flag.key)).toEqual(['from_a', 'from_b']);
  });

  it('warns about flags that will not assign as written', async () => {
    const definitions = await readFlagDefinitions(
      writeUfc('w.json', [
        createUfcFlag('pi', 'INTEGER', { pi: 3.14 }, [createStaticAllocation('all', 'pi')]),
        onOff('semver', [
          createStaticAllocation('new', 'on', [
            {
              conditions: [{ attribute: 'version', operator: 'VERSION_AT_LEAST', value: '2.0.0' }],
            },
          ]),
        ]),
      ]),
    );
    expect(definitions.warnings).toEqual([
      expect.stringMatching(/^pi: variation "pi" is not a INTEGER/),
      expect.stringMatching(/^semver: allocations\.0 \("new"\) has a rule .* cannot evaluate/),
    ]);
  });

  it.each([
    ['a missing path', () => path.join(dir, 'nope.json'), /Cannot read flag definitions/],
    ['an empty folder', () => dir, /No \*\.json flag definition file/],
    ['a file that is not JSON', () => writeUfc('bad.json', '{"flags":'), /bad\.json: not JSON/],
    [
      'a flag without enabled',
      () =>
        writeUfc('x.json', {
          flags: { f: { key: 'f', variationType: 'BOOLEAN', variations: {}, allocations: [] } },
        }),
      /x\.json: not a UFC configuration: flags\.f\.enabled/,
    ],
    [
      'a flag whose key differs from its map key',
      () => writeUfc('k.json', { flags: { f: onOff('g') } }),
      /flags\.f\.key must equal its map key/,
    ],
    [
      'a shard range beyond totalShards',
      () =>
        writeUfc('r.json', [
          onOff('r', [
            {
              key: 'a',
              splits: [
                {
                  variationKey: 'on',
                  shards: [{ salt: 's', totalShards: 10, ranges: [{ start: 0, end: 11 }] }],
                },
              ],
            },
          ]),
        ]),
      /flags\.r\.allocations\.0\.splits\.0\.shards\.0\.ranges\.0/,
    ],
  ])('rejects %s', async (_case, target, message) => {
    const error = await readFlagDefinitions(target()).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(FlagConfigurationError);
    expect((error as Error).message).toMatch(message);
  });

  it('rejects a flag defined in two files', async () => {
    writeUfc('a.json', [onOff('twice')]);
    writeUfc('b.json', [onOff('twice')]);
    await expect(readFlagDefinitions(dir)).rejects.toThrow(
      /Flag "twice" is defined in .*a\.json and in .*b\.json/,
    );
  });
});

describe('syncDefinitions (start-up load into the database)', () => {
  let testDb: TestDatabase;
  let repository: FlagsRepository;
  let clock = 1_000;

  beforeAll(async () => {
    testDb = await createTestDatabase();
    repository = createFlagsRepository(testDb.database.db, () => clock);
  });

  afterAll(async () => {
    await testDb.destroy();
  });

  it('adds, keeps, replaces and removes flags like the files say, keeping operator changes of unchanged ones', async () => {
    const rollout = (percentage: number) => [
      createStaticAllocation('rollout', 'on', undefined, {
        splits: [
          {
            variationKey: 'on',
            shards: [{ salt: 'r', totalShards: 100, ranges: [{ start: 0, end: percentage }] }],
          },
        ],
      }),
      createStaticAllocation('default', 'off'),
    ];

    clock = 1_000;
    const first = await repository.syncDefinitions(
      await readFlagDefinitions(
        writeUfc('v1.json', [onOff('kept', rollout(10)), onOff('edited'), onOff('dropped')]),
      ),
    );
    expect(first).toEqual({
      added: ['kept', 'edited', 'dropped'],
      updated: [],
      removed: [],
      createdAt: 1_000,
    });

    // A replica restarting with the same files changes nothing.
    clock = 2_000;
    const same = await repository.syncDefinitions(
      await readFlagDefinitions(path.join(dir, 'v1.json')),
    );
    expect(same).toEqual({ added: [], updated: [], removed: [], createdAt: 1_000 });

    // An operator widens the rollout of "kept".
    clock = 3_000;
    await repository.changeFlag('kept', 'ops', (flag) => setAllocationRollout(flag, 'rollout', 50));

    clock = 4_000;
    fs.rmSync(path.join(dir, 'v1.json'));
    const second = await repository.syncDefinitions(
      await readFlagDefinitions(
        writeUfc('v2.json', [
          onOff('kept', rollout(10)),
          onOff('edited', [createStaticAllocation('all', 'off')]),
          onOff('added'),
        ]),
      ),
    );
    expect(second).toEqual({
      added: ['added'],
      updated: ['edited'],
      removed: ['dropped'],
      createdAt: 4_000,
    });

    const kept = await repository.findFlag('kept');
    expect(kept?.flag.allocations[0]?.splits[0]?.shards[0]?.ranges).toEqual([
      { start: 0, end: 5000 },
    ]);
    expect(
      (await repository.findFlag('edited'))?.flag.allocations[0]?.splits[0]?.variationKey,
    ).toBe('off');
    expect(await repository.findFlag('dropped')).toBeUndefined();
    expect((await repository.getConfiguration())?.createdAt).toBe(4_000);

    const audit = await repository.listAudit({ limit: 50 });
    expect(audit.slice(0, 3).map((entry) => [entry.flagKey, entry.action, entry.operator])).toEqual(
      [
        ['dropped', 'remove', 'startup'],
        ['added', 'load', 'startup'],
        ['edited', 'load', 'startup'],
      ],
    );
  });

  it('lets replicas load at once and operators change one flag at once without losing a write', async () => {
    const definitions = await readFlagDefinitions(
      writeUfc('v3.json', [onOff('shared'), onOff('other')]),
    );
    const replicas = [1, 2, 3].map(() => createFlagsRepository(testDb.database.db, () => clock));
    clock = 5_000;
    const results = await Promise.all(
      replicas.map((replica) => replica.syncDefinitions(definitions)),
    );
    // One replica applies the new files; the others then find nothing to do.
    expect(results.map((result) => result.added.length).sort()).toEqual([0, 0, 2]);
    expect(
      (await repository.listAudit({ flagKey: 'shared', limit: 10 })).map((e) => e.action),
    ).toEqual(['load']);

    clock = 6_000;
    await Promise.all([
      replicas[0]!.changeFlag('shared', 'a', (flag) => setAllocationRollout(flag, 'all', 30)),
      replicas[1]!.changeFlag('shared', 'b', (flag) =>
        setAllocationRules(flag, 'all', [
          { conditions: [{ attribute: 'team', operator: 'ONE_OF', value: ['x'] }] },
        ]),
      ),
      replicas[2]!.changeFlag('shared', 'c', (flag) => setFlagEnabled(flag, false)),
    ]);
    const shared = (await repository.findFlag('shared'))!;
    expect(shared.flag.enabled).toBe(false);
    expect(shared.flag.allocations[0]?.rules).toEqual([
      { conditions: [{ attribute: 'team', operator: 'ONE_OF', value: ['x'] }] },
    ]);
    expect(shared.flag.allocations[0]?.splits[0]?.shards[0]?.ranges).toEqual([
      { start: 0, end: 3000 },
    ]);
    expect(shared.revision).toBe(4);
    // Three changes in the same millisecond still give three distinct configuration versions.
    const versions = (await repository.listAudit({ flagKey: 'shared', limit: 3 })).map(
      (entry) => entry.configurationCreatedAt,
    );
    expect(new Set(versions).size).toBe(3);
    expect((await repository.getConfiguration())?.createdAt).toBe(Math.max(...versions));
  });
});

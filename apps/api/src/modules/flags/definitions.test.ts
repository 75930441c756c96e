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
      'a document without flags',
      () => writeUfc('none.json', { environment: { name: 'x' } }),
      /none\.json: not a UFC configuration: flags is required/,
    ],
    [
      'a document whose flags are a list',
      () => writeUfc('list.json', { flags: [onOff('a')] }),
      /list\.json: not a UFC configuration: flags must be object/,
    ],
    [
      'a document that is not an object',
      () => writeUfc('array.json', '[]'),
      /array\.json: not a UFC configuration: \(root\) must be object/,
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

describe('readFlagDefinitions: each flag is checked on its own', () => {
  const good = onOff('good');
  const shardedTo = (end: number) => [
    {
      key: 'a',
      splits: [
        {
          variationKey: 'on',
          shards: [{ salt: 's', totalShards: 10, ranges: [{ start: 0, end }] }],
        },
      ],
    },
  ];
  const { variationType: _dropped, ...withoutVariationType } = onOff('bad');
  const { enabled: _alsoDropped, ...withoutEnabled } = onOff('bad');

  it.each([
    [
      'allocations that are not a list',
      { ...onOff('bad'), allocations: {} },
      'allocations must be array',
    ],
    [
      'variations that are a list',
      { ...onOff('bad'), variations: [true, false] },
      'variations must be object',
    ],
    [
      'a variation that is a bare value',
      { ...onOff('bad'), variations: { on: true } },
      'variations.on must be object',
    ],
    [
      'a key that differs from its map key',
      onOff('other'),
      'key "other" must equal its map key "bad"',
    ],
    ['no variationType', withoutVariationType, 'variationType is required'],
    [
      'an unknown variationType',
      { ...onOff('bad'), variationType: 'BOOL' },
      'variationType must be one of BOOLEAN, STRING, INTEGER, NUMERIC, JSON',
    ],
    ['no enabled', withoutEnabled, 'enabled is required'],
    ['a flag that is not an object', 3, 'the flag must be object'],
    [
      'a condition value of no UFC type',
      onOff('bad', [
        createStaticAllocation('all', 'on', [
          { conditions: [{ attribute: 'team', operator: 'ONE_OF', value: { a: 1 } as never }] },
        ]),
      ]),
      'allocations.0.rules.0.conditions.0.value must be a string, a number, a boolean or a list of strings',
    ],
    [
      'a shard range beyond totalShards',
      onOff('bad', shardedTo(11)),
      'allocations.0.splits.0.shards.0.ranges.0: must satisfy 0 <= start <= end <= totalShards',
    ],
  ])(
    'skips a flag with %s, naming file, flag and problem, and serves the others',
    async (_case, bad, problem) => {
      const file = writeUfc('mixed.json', { flags: { bad, good } });
      const definitions = await readFlagDefinitions(file);
      expect(definitions.flags.map((flag) => flag.key)).toEqual(['good']);
      expect(definitions.warnings).toEqual([`${file}: flag "bad" skipped: ${problem}`]);
    },
  );

  it('keeps a flag defined well in one file and malformed in another', async () => {
    writeUfc('a.json', [onOff('twice')]);
    writeUfc('b.json', { flags: { twice: { ...onOff('twice'), allocations: 'all' } } });
    const definitions = await readFlagDefinitions(dir);
    expect(definitions.flags).toEqual([onOff('twice')]);
    expect(definitions.warnings).toEqual([
      expect.stringMatching(/b\.json: flag "twice" skipped: allocations must be array$/),
    ]);
  });

  it('loads a document whose every flag is malformed as no flags, with a warning each', async () => {
    const file = writeUfc('all-bad.json', { flags: { x: 1, y: null } });
    const definitions = await readFlagDefinitions(file);
    expect(definitions.flags).toEqual([]);
    expect(definitions.warnings).toEqual([
      `${file}: flag "x" skipped: the flag must be object`,
      `${file}: flag "y" skipped: the flag must be object`,
    ]);
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

  it('removes a stored flag whose definition became malformed, so it is no longer served', async () => {
    clock = 7_000;
    await repository.syncDefinitions(
      await readFlagDefinitions(writeUfc('v4.json', [onOff('stays'), onOff('breaks')])),
    );
    clock = 8_000;
    const broken = writeUfc('v4.json', {
      flags: { stays: onOff('stays'), breaks: { ...onOff('breaks'), variationType: 'BOOL' } },
    });
    const definitions = await readFlagDefinitions(broken);
    expect(definitions.warnings).toEqual([
      expect.stringContaining('flag "breaks" skipped: variationType must be one of'),
    ]);
    expect(await repository.syncDefinitions(definitions)).toEqual({
      added: [],
      updated: [],
      removed: ['breaks'],
      createdAt: 8_000,
    });
    expect(await repository.findFlag('breaks')).toBeUndefined();
    expect((await repository.findFlag('stays'))?.revision).toBe(1);
  });
});

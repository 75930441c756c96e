import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from './database.js';
import { CHECKPOINTER_SAFETY_PAGES, OWN_CHECKPOINT_PAGES } from './wal-checkpointer.js';

const handles: DatabaseHandle[] = [];
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(handles.splice(0).map((handle) => handle.close()));
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function open(options: Parameters<typeof openDatabase>[0]['walCheckpointer']) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'showroom-checkpointer-'));
  dirs.push(dir);
  const handle = openDatabase({
    sqliteFile: path.join(dir, 'showroom.db'),
    walCheckpointer: options,
  });
  handles.push(handle);
  return handle;
}

async function autocheckpoint(handle: DatabaseHandle): Promise<number> {
  const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(
    handle.db,
  );
  return rows[0]!.wal_autocheckpoint;
}

/** Commits `count` transactions of a 2 KB row each: a WAL that grows by a page or more each. */
async function write(handle: DatabaseHandle, count: number): Promise<void> {
  await sql`create table if not exists t (id integer primary key, body text)`.execute(handle.db);
  for (let i = 0; i < count; i++) {
    await handle.db
      .transaction()
      .execute((trx) => sql`insert into t (body) values (${'x'.repeat(2_000)})`.execute(trx));
  }
}

describe('the WAL checkpointer process', () => {
  it('copies the api connection’s committed pages into the database file', async () => {
    let copiedAll = () => {};
    let written = false;
    const copied = new Promise<void>((resolve) => (copiedAll = resolve));
    const handle = open({
      intervalMs: 5,
      onCheckpoint: (report) => {
        if (written && report.log > 0 && report.checkpointed === report.log) copiedAll();
      },
    });
    expect(handle.checkpointer?.pid).toBeGreaterThan(0);
    // The connection leaves checkpoints to the process up to its safety line.
    expect(await autocheckpoint(handle)).toBe(CHECKPOINTER_SAFETY_PAGES);

    // Far fewer pages than the connection's own line: only the process copies them.
    await write(handle, 60);
    written = true;
    await copied;
    // Everything written is still there, read through the api's connection.
    const { rows } = await sql<{ n: number }>`select count(*) as n from t`.execute(handle.db);
    expect(rows[0]!.n).toBe(60);
  });

  it('is no change to the data: the api’s kept reads stay (PRAGMA data_version, decision 021)', async () => {
    let copiedAll = () => {};
    let armed = false;
    const handle = open({
      intervalMs: 5,
      onCheckpoint: (report) => {
        if (armed && report.log > 0 && report.checkpointed === report.log) copiedAll();
      },
    });
    const dataVersion = async () =>
      (await sql<{ data_version: number }>`pragma data_version`.execute(handle.db)).rows[0]!
        .data_version;
    const copied = new Promise<void>((resolve) => (copiedAll = resolve));
    await write(handle, 25);
    const before = await dataVersion();
    // The connection's own commits leave its data_version as it is; these pages can only be
    // copied after the read above.
    await write(handle, 25);
    armed = true;
    await copied;
    expect(await dataVersion()).toBe(before);
  });

  it('gives checkpoints back to the connection when the process dies', async () => {
    const exits: string[] = [];
    const handle = open({ onExit: (detail) => exits.push(detail) });
    const pid = handle.checkpointer!.pid!;
    process.kill(pid, 'SIGKILL');
    await handle.checkpointer!.exited;

    expect(exits).toEqual(['exited with SIGKILL']);
    expect(await autocheckpoint(handle)).toBe(OWN_CHECKPOINT_PAGES);
    await write(handle, 5);
    const { rows } = await sql<{ n: number }>`select count(*) as n from t`.execute(handle.db);
    expect(rows[0]!.n).toBe(5);
  });

  it('leaves a signal to the process group (Ctrl-C) to the api', async () => {
    const exits: string[] = [];
    let reports = 0;
    let wake = () => {};
    const handle = open({
      intervalMs: 5,
      onExit: (detail) => exits.push(detail),
      onCheckpoint: () => {
        reports += 1;
        wake();
      },
    });
    const reportsAfter = (count: number) =>
      new Promise<void>((resolve) => {
        const target = reports + count;
        wake = () => {
          if (reports >= target) resolve();
        };
      });
    await reportsAfter(1);
    const pid = handle.checkpointer!.pid!;
    process.kill(pid, 'SIGINT');
    process.kill(pid, 'SIGTERM');
    // Still checkpointing after both signals.
    await reportsAfter(3);
    expect(exits).toEqual([]);
  });

  it('ends with the database, without reporting that as a failure', async () => {
    const exits: string[] = [];
    const handle = open({ onExit: (detail) => exits.push(detail) });
    const pid = handle.checkpointer!.pid!;
    handles.splice(handles.indexOf(handle), 1);
    await handle.close();

    expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
    expect(exits).toEqual([]);
  });

  it('is not started unless asked for', () => {
    const handle = open(undefined);
    expect(handle.checkpointer).toBeUndefined();
  });
});

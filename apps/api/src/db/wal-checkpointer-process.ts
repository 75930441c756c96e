import { Sqlite } from './sqlite-driver.js';

/**
 * The checkpointer process (db/wal-checkpointer.ts): every interval, a PASSIVE checkpoint of
 * the api's SQLite file from a connection of its own, which copies the WAL's committed pages
 * into the database file without waiting for, or holding up, the api's writes. Arguments: the
 * file, the interval in ms, and `report` to send each checkpoint's answer to the api. It ends
 * when its channel to the api closes.
 */
const [file, intervalText, mode] = process.argv.slice(2);
if (!file || !process.send) {
  throw new Error('wal-checkpointer-process is started by the api (db/wal-checkpointer.ts)');
}
const database = new Sqlite(file, { fileMustExist: true });
database.pragma('synchronous = NORMAL');
const checkpoint = database.prepare('PRAGMA wal_checkpoint(PASSIVE)');

const timer = setInterval(() => {
  let report: unknown;
  try {
    report = checkpoint.get();
  } catch (error) {
    // Another connection is checkpointing (a second api on the same file): next time.
    if ((error as { code?: unknown }).code === 'SQLITE_BUSY') return;
    throw error;
  }
  if (mode === 'report') process.send?.(report);
}, Number(intervalText));

// It ends when its channel to the api closes: the api stops it, exits or is killed. A signal
// sent to the whole process group (Ctrl-C in a terminal, a service manager stopping the api)
// is the api's to handle, so that its shutdown, not this process, decides the order.
const end = () => {
  clearInterval(timer);
  database.close();
  process.exit(0);
};
process.on('disconnect', end);
process.on('SIGINT', () => {});
process.on('SIGTERM', () => {});
// Stopped while this module was loading: the event has gone by.
if (!process.connected) end();

// Preloaded into the api by scripts/soak.mjs (`node --expose-gc --import`): a full garbage
// collection every SOAK_GC_INTERVAL_MS, so objects a native addon frees wrongly are freed
// during the load, not some day later (docs/decisions/014-node-versions-and-sqlite-driver.md).
// Alternately run from JavaScript and as a task of its own (`execution: 'async'`), outside any
// JavaScript — as V8's idle-time collections run, where the Node 24 abort of better-sqlite3 12
// happened (a finalizer that looks up the Node environment finds none).
const interval = Number(process.env.SOAK_GC_INTERVAL_MS ?? 5);
if (typeof globalThis.gc !== 'function') {
  throw new Error('scripts/soak-gc.mjs needs node --expose-gc');
}
let turn = 0;
setInterval(() => {
  turn++;
  globalThis.gc(turn % 2 ? { type: 'major', execution: 'async' } : { type: 'major' });
}, interval).unref();

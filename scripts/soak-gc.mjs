// Preloaded into the api by scripts/soak.mjs (`node --expose-gc --import`): a full garbage
// collection every SOAK_GC_INTERVAL_MS, so objects a native addon frees wrongly are freed
// during the load, not some day later (docs/decisions/014-node-versions-and-sqlite-driver.md).
const interval = Number(process.env.SOAK_GC_INTERVAL_MS ?? 5);
if (typeof globalThis.gc !== 'function') {
  throw new Error('scripts/soak-gc.mjs needs node --expose-gc');
}
setInterval(() => globalThis.gc(), interval).unref();

/**
 * Freezes `value` and everything reachable from it, stopping at what is already frozen (a
 * served flag shared by many results). Served flags and kept precompute answers are shared by
 * every request, so nothing may change them.
 */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

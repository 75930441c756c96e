/**
 * The pattern of an id made by the api's `randomId(prefix)` or `recordId(prefix, at)`: `ord_` +
 * 22 base64url characters.
 */
export function randomIdPattern(prefix: string): string {
  return `^${prefix}_[A-Za-z0-9_-]{22}$`;
}

/**
 * The browser provider sends every targeting attribute as a string: strings as they are,
 * everything else JSON-stringified (`12` → "12", `true` → "true", `null` → "null").
 * See docs/decisions/002-flag-service.md.
 */

/**
 * Reads one attribute back into the value the provider stringified. A string becomes a number,
 * boolean, null, object or array when it is exactly what `JSON.stringify` makes of that value;
 * anything else (plain text, "007", "1.0", a quoted string) stays the string it was.
 *
 * A shopper attribute that really is the string "12" comes back as the number 12: the wire
 * cannot tell them apart. UFC operators compare ONE_OF/MATCHES on the value's text, so that
 * only matters for IS_NULL on the text "null".
 */
export function parseTargetingAttribute(raw: string): unknown {
  // Only a non-string JSON value starts with a digit, '-', '{', '[', 't', 'f' or 'n'.
  if (!/^[-\d{[tfn]/.test(raw)) return raw;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return raw;
  }
  if (typeof parsed === 'string') return raw;
  // "1.0", "1e3" or a 20-digit id do not survive a round trip: the provider did not make them.
  return JSON.stringify(parsed) === raw ? parsed : raw;
}

/** Types every attribute of a precompute request (see parseTargetingAttribute). */
export function parseTargetingAttributes(raw: Record<string, string>): Record<string, unknown> {
  const typed: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) typed[name] = parseTargetingAttribute(value);
  return typed;
}

/**
 * PostgreSQL cannot store U+0000 in text, so a NUL anywhere in the input would fail deep in a query.
 * No person types one: requests carrying it are refused at the edge as malformed.
 */
export function containsNulCharacter(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (depth > 32 || value === null || typeof value !== "object") return false;
  // Only parsed input (JSON, query strings) is searched, never streams or other objects.
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null) return false;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes("\u0000") || containsNulCharacter(item, depth + 1)) return true;
  }
  return false;
}

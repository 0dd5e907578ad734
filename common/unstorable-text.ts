/**
 * Text PostgreSQL cannot store as it was sent: U+0000 (refused in `text` and `jsonb`) and lone
 * UTF-16 surrogates (`"\ud800"` in JSON: the driver writes U+FFFD instead, so what is read back
 * differs from what was sent, and `jsonb` refuses the escape). No person types either: requests
 * carrying them are refused at the edge as malformed.
 */
export function isUnstorableText(text: string): boolean {
  return text.includes("\u0000") || !text.isWellFormed();
}

/**
 * Whether any string in parsed input (JSON, query strings, form entries: their keys and values, at
 * any depth) is unstorable. Walks with its own stack, so 10,000-deep JSON cannot overflow it.
 * Objects that are not plain data (streams, buffers, files) are not searched.
 */
export function containsUnstorableText(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === "string") {
      if (isUnstorableText(item)) return true;
      continue;
    }
    if (item === null || typeof item !== "object" || !isPlainData(item)) continue;
    for (const [key, child] of Object.entries(item)) {
      if (isUnstorableText(key)) return true;
      pending.push(child);
    }
  }
  return false;
}

/**
 * Arrays and objects made by parsers: JSON's (Object.prototype), and query-string parsers', whose
 * objects have a null prototype or an empty one of their own (fast-querystring).
 */
function isPlainData(value: object): boolean {
  if (Array.isArray(value)) return true;
  const prototype = Object.getPrototypeOf(value) as object | null;
  if (prototype === null || prototype === Object.prototype) return true;
  return Object.getPrototypeOf(prototype) === null && Object.getOwnPropertyNames(prototype).length === 0;
}

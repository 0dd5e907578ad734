/** PostgreSQL refuses a NOTIFY payload of 8,000 bytes or more; the payloads stay well under it. */
export const maxPayloadBytes = 7_000;

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

/**
 * The NOTIFY payloads of one invalidation: `{ origin, tags }` in as few payloads as fit under
 * `maxPayloadBytes`, every tag in exactly one. A single tag too long for any payload turns the
 * whole invalidation into `{ origin, resync: true }` (every other process drops everything it
 * remembers): coarser, never lost.
 */
export function invalidationPayloads(origin: string, tags: readonly string[], limit = maxPayloadBytes): string[] {
  const empty = bytes(JSON.stringify({ origin, tags: [] }));
  const payloads: string[] = [];
  let batch: string[] = [];
  let size = empty;
  for (const tag of tags) {
    // The tag as JSON, plus the comma that separates it from the one before.
    const cost = bytes(JSON.stringify(tag)) + (batch.length > 0 ? 1 : 0);
    if (empty + cost > limit) return [JSON.stringify({ origin, resync: true })];
    if (size + cost > limit) {
      payloads.push(JSON.stringify({ origin, tags: batch }));
      batch = [];
      size = empty;
    }
    size += bytes(JSON.stringify(tag)) + (batch.length > 0 ? 1 : 0);
    batch.push(tag);
  }
  if (batch.length > 0) payloads.push(JSON.stringify({ origin, tags: batch }));
  return payloads;
}

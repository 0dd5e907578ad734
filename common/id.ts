import { z } from "zod";

/** The largest id a PostgreSQL `integer` column holds. */
export const maxId = 2_147_483_647;

/**
 * A numbered thing's id in a path or query (`/api/writings/:id/`): digits coerced to a positive
 * integer that fits the column, so a huge or negative id is a 400, never a database error.
 */
export const idSchema = z.coerce.number().int().positive().max(maxId);

/** An id inside a JSON body or a form field: a number (never coerced), refused with `message` (a catalog key). */
export function idValueSchema(message = "validation:invalid_value") {
  return z.number({ error: message }).int(message).positive(message).max(maxId, message);
}

/** An id written in a URL or a form field (`"12"`), or null when it is not one. */
export function idFromText(value: unknown): number | null {
  if (typeof value !== "string" || !/^\d{1,10}$/.test(value)) return null;
  const id = Number(value);
  return id > 0 && id <= maxId ? id : null;
}

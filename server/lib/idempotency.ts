import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { AppError } from "../../common/app-error.ts";
import { idempotencyKeys } from "../db/schema/index.ts";
import type { Transaction } from "./transactions.ts";

/** What a key looks like: what clients send in `Idempotency-Key` and pages in their hidden `idempotency_key` field. */
export const idempotencyKeyPattern = /^[A-Za-z0-9_.:-]{8,128}$/;

/** The key a request carries, checked; none (or a malformed one) is 400 `idempotency_key_required`. */
export function requireIdempotencyKey(key: string | undefined): string {
  if (!key || !idempotencyKeyPattern.test(key)) throw new AppError("idempotency_key_required");
  return key;
}

/** A stable text for any JSON value (object keys sorted), so equal inputs hash equally. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object")
    return `{${Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(",")}}`;
  return JSON.stringify(value ?? null);
}

export function requestHash(operation: string, input: unknown): string {
  return createHash("sha256")
    .update(`${operation}\n${canonical(input)}`)
    .digest("hex");
}

/**
 * Runs a money-moving use case once per (user, key), inside the caller's transaction: the key row
 * is inserted first, so a concurrent duplicate waits on it and then replays the committed result;
 * a retry after commit gets the stored result without running anything; the same key with another
 * operation or input is 422 `idempotency_mismatch`. A use case that fails rolls its key back with
 * it, so a retry may try again. The result must be plain JSON (it is stored and replayed).
 */
export async function onceByKey<T>(
  tx: Transaction,
  request: { userId: number; key: string; operation: string; input: unknown },
  run: () => Promise<T>,
): Promise<T> {
  const hash = requestHash(request.operation, request.input);
  const [claimed] = await tx.db
    .insert(idempotencyKeys)
    .values({ userId: request.userId, key: request.key, operation: request.operation, requestHash: hash, result: sql`'null'::jsonb` })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (!claimed) {
    const [first] = await tx.db
      .select({ requestHash: idempotencyKeys.requestHash, result: idempotencyKeys.result })
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, request.userId), eq(idempotencyKeys.key, request.key)));
    if (!first || first.requestHash !== hash) throw new AppError("idempotency_mismatch");
    return first.result as T;
  }
  const result = await run();
  await tx.db
    .update(idempotencyKeys)
    .set({ result: JSON.parse(JSON.stringify(result ?? null)) as unknown })
    .where(and(eq(idempotencyKeys.userId, request.userId), eq(idempotencyKeys.key, request.key)));
  return result;
}

import { and, eq, inArray } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { messageMutes } from "../../server/db/schema/index.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { emit } from "../events/bus.ts";
import { unreadTag } from "./unread-memory.ts";
import { isMutableCategory, mutableCategories, type MutableCategory } from "./schema.ts";

/**
 * Per-category notify or mute. A muted category creates no notification and counts nothing;
 * system notices (account and moderation events) and private messages cannot be muted.
 */
export { isMutableCategory, mutableCategories, type MutableCategory };

/** The categories the user muted. */
export async function mutedCategories(db: Executor, userId: number): Promise<Set<MutableCategory>> {
  const rows = await db.select({ category: messageMutes.category }).from(messageMutes).where(eq(messageMutes.userId, userId));
  return new Set(rows.map((row) => row.category).filter(isMutableCategory));
}

/** Of these recipients, those who muted the category (they are not told). */
export async function recipientsWhoMuted(db: Executor, category: string, recipientIds: readonly number[]): Promise<Set<number>> {
  if (!isMutableCategory(category) || recipientIds.length === 0) return new Set();
  const rows = await db
    .select({ userId: messageMutes.userId })
    .from(messageMutes)
    .where(and(eq(messageMutes.category, category), inArray(messageMutes.userId, [...recipientIds])));
  return new Set(rows.map((row) => row.userId));
}

/** Replaces the user's muted categories (the others notify). */
export async function setMutedCategories(
  options: ServiceOptions,
  userId: number,
  muted: readonly MutableCategory[],
): Promise<MutableCategory[]> {
  const unique = [...new Set(muted)].sort();
  return inTransaction(options, async (tx) => {
    await tx.db.delete(messageMutes).where(eq(messageMutes.userId, userId));
    if (unique.length > 0) await tx.db.insert(messageMutes).values(unique.map((category) => ({ userId, category })));
    await emit(tx, { verb: "user.message_preferences_changed", actorId: userId, subjectId: userId, data: { muted: unique } });
    tx.invalidate(unreadTag(userId));
    return unique;
  });
}

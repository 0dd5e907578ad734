import { and, desc, eq, sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { drafts } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { inTransaction, type ServiceOptions } from "../../server/lib/transactions.ts";
import { keyedMemory } from "../../server/lib/keyed-memory.ts";
import type { SaveDraftInput } from "./schema.ts";

export type DraftRow = typeof drafts.$inferSelect;

export interface DraftView {
  key: string;
  title: string;
  body: string;
  fields: Record<string, unknown>;
  version: number;
  updated_at: string;
}

export function presentDraft(row: DraftRow): DraftView {
  return {
    key: row.key,
    title: row.title,
    body: row.body,
    fields: row.fields,
    version: row.version,
    updated_at: row.updatedAt.toISOString(),
  };
}

/** At most this many drafts per user: all of them are listed, and a new one beyond it is refused. */
export const draftListLimit = 100;

export async function listDrafts(db: Executor, userId: number): Promise<DraftView[]> {
  const rows = await db.select().from(drafts).where(eq(drafts.userId, userId)).orderBy(desc(drafts.updatedAt)).limit(draftListLimit);
  return rows.map(presentDraft);
}

/**
 * The keys of a user's drafts, remembered per user so a warm page that offers a draft (the answer
 * box of a question) asks the database only when one exists. Saves and deletions drop it.
 */
const draftKeys = keyedMemory<Set<string>>("draft-keys", { ttlMs: 60_000, maxEntries: 10_000 });

export async function hasDraft(db: Executor, userId: number, key: string): Promise<boolean> {
  const keys = await draftKeys.read(db, userId, async () => {
    const rows = await db.select({ key: drafts.key }).from(drafts).where(eq(drafts.userId, userId)).limit(draftListLimit);
    return new Set(rows.map((row) => row.key));
  });
  return keys.has(key);
}

export async function getDraft(db: Executor, userId: number, key: string): Promise<DraftView | null> {
  const [row] = await db
    .select()
    .from(drafts)
    .where(and(eq(drafts.userId, userId), eq(drafts.key, key)))
    .limit(1);
  return row ? presentDraft(row) : null;
}

/**
 * Saves a draft when `version` is the version stored (0: none yet). Otherwise another tab or
 * device saved in between: 409 `draft_conflict` with both versions, so the user chooses; `force`
 * saves over it (their choice). Drafts are private notes: no event rows, no cache tags.
 */
export async function saveDraft(options: ServiceOptions, userId: number, key: string, input: SaveDraftInput): Promise<DraftView> {
  return inTransaction(options, async (tx) => {
    // One user's saves queue here, so two new drafts in parallel cannot both take the last place.
    await tx.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`drafts:user:${userId}`}))`);
    const [current] = await tx.db
      .select()
      .from(drafts)
      .where(and(eq(drafts.userId, userId), eq(drafts.key, key)))
      .for("update")
      .limit(1);
    if (current && current.version !== input.version && !input.force) {
      throw new AppError("draft_conflict", {
        details: {
          current: presentDraft(current),
          yours: { key, title: input.title, body: input.body, fields: input.fields, version: input.version },
        },
      });
    }
    if (!current) {
      await assertDraftRoom(tx.db, userId);
      tx.invalidate(draftKeys.tag(userId));
    }
    // A draft deleted elsewhere (published from another tab) is simply started anew.
    const values = { title: input.title, body: input.body, fields: input.fields, updatedAt: sql`now()` };
    const [row] = current
      ? await tx.db
          .update(drafts)
          .set({ ...values, version: current.version + 1 })
          .where(eq(drafts.id, current.id))
          .returning()
      : await tx.db
          .insert(drafts)
          .values({ userId, key, ...values, version: 1 })
          .returning();
    return presentDraft(row!);
  });
}

/** A new draft needs a free place among the user's `draftListLimit`. */
async function assertDraftRoom(db: Executor, userId: number): Promise<void> {
  const [row] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number) })
    .from(drafts)
    .where(eq(drafts.userId, userId));
  if ((row?.count ?? 0) >= draftListLimit) throw new AppError("draft_limit_reached", { params: { max: draftListLimit } });
}

export async function deleteDraft(options: ServiceOptions, userId: number, key: string): Promise<boolean> {
  return inTransaction(options, async (tx) => {
    const removed = await tx.db
      .delete(drafts)
      .where(and(eq(drafts.userId, userId), eq(drafts.key, key)))
      .returning({ id: drafts.id });
    if (removed.length > 0) tx.invalidate(draftKeys.tag(userId));
    return removed.length > 0;
  });
}

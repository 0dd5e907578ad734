import { and, count, desc, eq, gte, isNull, sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { encyclopediaEntries, entryViews } from "../../server/db/schema/index.ts";
import { shanghaiDay } from "../../common/locale.ts";
import type { EntrySummary } from "./schema.ts";

/*
 * The circle's wiki home (`/circles/{cid}/encyclopedia`): how many entries it has, the recently
 * edited ones and the hot ones (most visitors over the last seven days). Callers check the
 * viewer may read the circle's content; hidden entries are left out.
 */

export const homeListSize = 10;
export const hotDays = 7;

const columns = {
  id: encyclopediaEntries.id,
  circleId: encyclopediaEntries.circleId,
  name: encyclopediaEntries.name,
  aliases: encyclopediaEntries.aliases,
  disambiguation: encyclopediaEntries.disambiguation,
  language: encyclopediaEntries.language,
  translationOf: encyclopediaEntries.translationOf,
};

/** Entries of the circle, language versions of one entry counted once. */
export async function countCircleEntries(db: Executor, circleId: number): Promise<number> {
  const [row] = await db
    .select({
      total: sql<number>`count(distinct coalesce(${encyclopediaEntries.translationOf}, ${encyclopediaEntries.id}))`.mapWith(Number),
    })
    .from(encyclopediaEntries)
    .where(and(eq(encyclopediaEntries.circleId, circleId), isNull(encyclopediaEntries.hiddenAt)));
  return row?.total ?? 0;
}

/** The circle's entries (each language version on its own) by their last edit, newest first. */
export async function recentlyEditedEntries(db: Executor, circleId: number): Promise<(EntrySummary & { updatedAt: string })[]> {
  const rows = await db
    .select({ ...columns, updatedAt: encyclopediaEntries.updatedAt })
    .from(encyclopediaEntries)
    .where(and(eq(encyclopediaEntries.circleId, circleId), isNull(encyclopediaEntries.hiddenAt)))
    .orderBy(desc(encyclopediaEntries.updatedAt), desc(encyclopediaEntries.id))
    .limit(homeListSize);
  return rows.map((row) => ({ ...row, updatedAt: row.updatedAt.toISOString() }));
}

/**
 * The circle's hot entries: the most views over the last seven Asia/Shanghai days (a visitor
 * counts once a day, as in the entry's counter), ties by the newer entry.
 */
export async function hotEntries(db: Executor, circleId: number, now: Date = new Date()): Promise<(EntrySummary & { views: number })[]> {
  const since = shanghaiDay(new Date(now.getTime() - (hotDays - 1) * 86_400_000));
  const views = count(entryViews.entryId);
  const rows = await db
    .select({ ...columns, views })
    .from(entryViews)
    .innerJoin(encyclopediaEntries, eq(encyclopediaEntries.id, entryViews.entryId))
    .where(and(gte(entryViews.day, since), eq(encyclopediaEntries.circleId, circleId), isNull(encyclopediaEntries.hiddenAt)))
    .groupBy(encyclopediaEntries.id)
    .orderBy(desc(views), desc(encyclopediaEntries.id))
    .limit(homeListSize);
  return rows.map((row) => ({ ...row, views: Number(row.views) }));
}

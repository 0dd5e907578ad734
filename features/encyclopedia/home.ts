import { and, asc, desc, eq, gte, inArray, isNull, max, sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { dailyStats, encyclopediaEntries } from "../../server/db/schema/index.ts";
import { shanghaiDay } from "../../common/locale.ts";
import type { EntryLanguage, EntrySummary } from "./schema.ts";

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

/** Another language version of a listed entry, shown as a small link beside it. */
export interface EntryVersionLink {
  id: number;
  circleId: number;
  name: string;
  language: EntryLanguage;
  translationOf?: number | null;
}

/** One entry of a list: its version in the reader's language when there is one (else the first version), with the others. */
export type EntryGroupItem = EntrySummary & { others: EntryVersionLink[] };

export const groupKey = sql<number>`coalesce(${encyclopediaEntries.translationOf}, ${encyclopediaEntries.id})`.mapWith(Number);

/**
 * The visible versions of these entry groups (by the group's first version id), each group's
 * version in `language` first when there is one, else the first version, then the others.
 */
export async function groupVersions(
  db: Executor,
  groupIds: readonly number[],
  language: EntryLanguage,
): Promise<Map<number, EntryGroupItem>> {
  const groups = new Map<number, EntryGroupItem>();
  if (groupIds.length === 0) return groups;
  const rows = await db
    .select({ ...columns, group: groupKey })
    .from(encyclopediaEntries)
    .where(and(inArray(groupKey, [...new Set(groupIds)]), isNull(encyclopediaEntries.hiddenAt)))
    .orderBy(asc(encyclopediaEntries.id));
  const byGroup = new Map<number, EntrySummary[]>();
  for (const { group, ...row } of rows) byGroup.set(group, [...(byGroup.get(group) ?? []), row]);
  for (const [group, versions] of byGroup) {
    const shown = versions.find((version) => version.language === language) ?? versions[0]!;
    const others = versions
      .filter((version) => version.id !== shown.id)
      .map(({ id, circleId, name, language: versionLanguage, translationOf }) => ({
        id,
        circleId,
        name,
        language: versionLanguage,
        translationOf,
      }));
    groups.set(group, { ...shown, others });
  }
  return groups;
}

/** The circle's entries by their last edit (of any version), newest first: one row per entry, in the reader's language when it has a version in it. */
export async function recentlyEditedEntries(
  db: Executor,
  circleId: number,
  language: EntryLanguage,
): Promise<(EntryGroupItem & { updatedAt: string })[]> {
  const updatedAt = max(encyclopediaEntries.updatedAt);
  const rows = await db
    .select({ group: groupKey, updatedAt })
    .from(encyclopediaEntries)
    .where(and(eq(encyclopediaEntries.circleId, circleId), isNull(encyclopediaEntries.hiddenAt)))
    .groupBy(groupKey)
    .orderBy(desc(updatedAt), desc(groupKey))
    .limit(homeListSize);
  const groups = await groupVersions(
    db,
    rows.map((row) => row.group),
    language,
  );
  return rows.flatMap((row) => {
    const item = groups.get(row.group);
    return item && row.updatedAt ? [{ ...item, updatedAt: new Date(row.updatedAt).toISOString() }] : [];
  });
}

/**
 * The circle's hot entries: the most views over the last seven Asia/Shanghai days (a visitor
 * counts once a day on each version, as in the version's counter; an entry's versions add up),
 * ties by the newer entry; one row per entry, in the reader's language when it has a version in it.
 */
export async function hotEntries(
  db: Executor,
  circleId: number,
  language: EntryLanguage,
  now: Date = new Date(),
): Promise<(EntryGroupItem & { views: number })[]> {
  const since = shanghaiDay(new Date(now.getTime() - (hotDays - 1) * 86_400_000));
  // Views of the last days from the daily rollups (one row per entry and day, not per visitor).
  const views = sql<number>`sum(${dailyStats.views})::int`;
  const rows = await db
    .select({ group: groupKey, views })
    .from(dailyStats)
    .innerJoin(encyclopediaEntries, and(eq(dailyStats.subjectType, "entry"), eq(encyclopediaEntries.id, dailyStats.subjectId)))
    .where(
      and(
        gte(dailyStats.day, since),
        sql`${dailyStats.views} > 0`,
        eq(encyclopediaEntries.circleId, circleId),
        isNull(encyclopediaEntries.hiddenAt),
      ),
    )
    .groupBy(groupKey)
    .orderBy(desc(views), desc(groupKey))
    .limit(homeListSize);
  const groups = await groupVersions(
    db,
    rows.map((row) => row.group),
    language,
  );
  return rows.flatMap((row) => {
    const item = groups.get(row.group);
    return item ? [{ ...item, views: Number(row.views) }] : [];
  });
}

/**
 * The circle's encyclopedia tab: its entries by the shown name, one row per entry (its version in
 * the reader's language when there is one, else the first version) with the other versions
 * beside it. At most `limit` entries. Callers check `read_content`.
 */
export async function listCircleEntryGroups(
  db: Executor,
  circleId: number,
  language: EntryLanguage,
  limit = 200,
): Promise<EntryGroupItem[]> {
  // The first `limit` entries by the first of their versions' names; each is then shown by its reader's version's name.
  const firstName = sql`min(lower(${encyclopediaEntries.name}))`;
  const rows = await db
    .select({ group: groupKey })
    .from(encyclopediaEntries)
    .where(and(eq(encyclopediaEntries.circleId, circleId), isNull(encyclopediaEntries.hiddenAt)))
    .groupBy(groupKey)
    .orderBy(firstName, groupKey)
    .limit(limit);
  const groups = await groupVersions(
    db,
    rows.map((row) => row.group),
    language,
  );
  return [...groups.values()]
    .sort((a, b) => a.name.toLowerCase().localeCompare(b.name.toLowerCase(), language) || a.id - b.id)
    .slice(0, limit);
}

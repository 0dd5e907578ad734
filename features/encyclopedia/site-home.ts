import { and, desc, inArray, isNull, max, sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { circles, encyclopediaEntries } from "../../server/db/schema/index.ts";
import type { Locale } from "../../common/locale.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { inReadableCircles, noneReadable, readableCircles } from "../circles/access.server.ts";
import { localizedTexts } from "../circles/presenter.ts";
import { groupKey, groupVersions, homeListSize, listCircleEntryGroups, type EntryGroupItem } from "./home.ts";

/*
 * The site-wide encyclopedia home (`/wiki`): featured and recently edited entries of every
 * circle the viewer may read, and the entries grouped by circle. Circles the viewer may not
 * read never appear (their entries, names and counts alike); hidden entries are left out.
 */

/** Circles shown in "entries by circle", and entries shown under each. */
export const siteCircleCount = 12;
export const entriesPerCircle = 8;

export interface SiteCircleEntries {
  circle: { id: number; name: string };
  count: number;
  entries: EntryGroupItem[];
}

export interface SiteWikiHome {
  featured: (EntryGroupItem & { views: number; cites: number })[];
  recent: (EntryGroupItem & { updatedAt: string })[];
  byCircle: SiteCircleEntries[];
  /** Names of the circles the listed entries belong to, by id (in the reader's language). */
  circleNames: Record<number, string>;
}

export async function siteWikiHome(db: Executor, viewer: Pick<Viewer, "id"> | null, language: Locale): Promise<SiteWikiHome> {
  const readable = await readableCircles(db, viewer);
  if (noneReadable(readable)) return { featured: [], recent: [], byCircle: [], circleNames: {} };
  const visible = and(inReadableCircles(encyclopediaEntries.circleId, readable), isNull(encyclopediaEntries.hiddenAt));

  const updatedAt = max(encyclopediaEntries.updatedAt);
  // Featured: the stored counters (a visitor counts once a day per version; cites by other pieces), the versions of one entry added up.
  const views = sql<number>`sum(${encyclopediaEntries.views})::int`;
  const cites = sql<number>`sum(${encyclopediaEntries.citeCount})::int`;
  const entryCount = sql<number>`count(distinct ${groupKey})::int`;
  const [recentRows, featuredRows, circleRows] = await Promise.all([
    db
      .select({ group: groupKey, updatedAt })
      .from(encyclopediaEntries)
      .where(visible)
      .groupBy(groupKey)
      .orderBy(desc(updatedAt), desc(groupKey))
      .limit(homeListSize),
    db
      .select({ group: groupKey, views, cites })
      .from(encyclopediaEntries)
      .where(visible)
      .groupBy(groupKey)
      .having(sql`sum(${encyclopediaEntries.views}) + sum(${encyclopediaEntries.citeCount}) > 0`)
      .orderBy(desc(views), desc(cites), desc(groupKey))
      .limit(homeListSize),
    db
      .select({ circleId: encyclopediaEntries.circleId, count: entryCount })
      .from(encyclopediaEntries)
      .where(visible)
      .groupBy(encyclopediaEntries.circleId)
      .orderBy(desc(entryCount), encyclopediaEntries.circleId)
      .limit(siteCircleCount),
  ]);
  const groups = await groupVersions(
    db,
    [...recentRows, ...featuredRows].map((row) => row.group),
    language,
  );
  const recent = recentRows.flatMap((row) => {
    const item = groups.get(row.group);
    return item && row.updatedAt ? [{ ...item, updatedAt: new Date(row.updatedAt).toISOString() }] : [];
  });
  const featured = featuredRows.flatMap((row) => {
    const item = groups.get(row.group);
    return item ? [{ ...item, views: Number(row.views), cites: Number(row.cites) }] : [];
  });
  const circleEntries = await Promise.all(circleRows.map((row) => listCircleEntryGroups(db, row.circleId, language, entriesPerCircle)));
  const circleIds = [...new Set([...circleRows, ...recent, ...featured].map((item) => item.circleId))];
  const circleNames = await circleNamesById(db, circleIds, language);
  const byCircle = circleRows.map((row, index) => ({
    circle: { id: row.circleId, name: circleNames[row.circleId] ?? "" },
    count: Number(row.count),
    entries: circleEntries[index] ?? [],
  }));
  return { featured, recent, byCircle, circleNames };
}

/** The circles' names in the reader's language (as the circle pages show them). */
export async function circleNamesById(db: Executor, ids: readonly number[], language: Locale): Promise<Record<number, string>> {
  if (ids.length === 0) return {};
  const rows = await db
    .select()
    .from(circles)
    .where(inArray(circles.id, [...ids]));
  return Object.fromEntries(rows.map((row) => [row.id, localizedTexts(row, language).name]));
}

import { and, asc, desc, eq, getTableColumns, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { Executor } from "../../server/db/client.ts";
import { preparedQuery } from "../../server/lib/prepared.ts";
import { taggedMemory } from "../../server/lib/tagged-memory.ts";
import { circleCategories, circleMembers, follows, users, writingCategories, writings } from "../../server/db/schema/index.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { readableCircleIds } from "../circles/access.server.ts";
import { relatedEntriesSql, type EntrySummary } from "../encyclopedia/service.ts";
import { followeesOf } from "../follows/service.ts";
import { groupIdOf, seriesIdOf, writingContentTags, type WritingRow } from "./service.ts";
import type { FeedTab, WritingLanguage, WritingType } from "./schema.ts";
import { circleTag, contentTag, userTag } from "../../server/lib/cache-tags.ts";

export interface AuthorCard {
  id: number;
  username: string;
  nickname: string;
  avatar: string | null;
}

const authorQuery = preparedQuery((db) =>
  db
    .select({ id: users.id, username: users.username, nickname: users.nickname, avatar: users.avatar })
    .from(users)
    .where(eq(users.id, sql.placeholder("id")))
    .limit(1)
    .prepare("writings_author"),
);

export async function authorOf(db: Executor, authorId: number): Promise<AuthorCard | null> {
  const [author] = await authorQuery(db).execute({ id: authorId });
  return author ?? null;
}

const versionsQuery = preparedQuery((db) =>
  db
    .select({ id: writings.id, language: writings.language, title: writings.title })
    .from(writings)
    .where(or(eq(writings.id, sql.placeholder("group")), eq(writings.translationOf, sql.placeholder("group"))))
    .orderBy(asc(writings.id))
    .prepare("writings_language_versions"),
);

/** The language versions of a writing's group: `[{ id, language }]`, the first version first. */
export async function languageVersions(
  db: Executor,
  row: Pick<WritingRow, "id" | "translationOf">,
): Promise<{ id: number; language: WritingLanguage; title: string }[]> {
  return versionsQuery(db).execute({ group: groupIdOf(row) });
}

/** A writing as its reading page needs it: every column but the Markdown source. */
export type ReadingRow = Omit<WritingRow, "markdown">;

export interface ReadingData {
  row: ReadingRow;
  author: AuthorCard;
  categories: { id: number; name: string }[];
  versions: { id: number; language: WritingLanguage; title: string }[];
  /** Whether the viewer follows the author (false for visitors and the author). */
  following: boolean;
  /** The related entries that still exist, in order (not yet filtered by what the viewer may read). */
  relatedEntries: EntrySummary[];
}

const { markdown: _markdown, ...readingColumns } = getTableColumns(writings);

/**
 * Everything a reading page shows of a writing in one statement: the row without its Markdown,
 * the author card, the categories (in the circle's order), the language versions of its group and
 * whether the viewer follows the author. The page's hottest read: one round trip instead of five.
 */
const readingQuery = preparedQuery((db) =>
  db
    .select({
      ...readingColumns,
      author: { id: users.id, username: users.username, nickname: users.nickname, avatar: users.avatar },
      categories: sql<{ id: number; name: string }[]>`(
        select coalesce(json_agg(json_build_object('id', cc.id, 'name', cc.name) order by cc.position, cc.id), '[]'::json)
        from writing_categories wc join circle_categories cc on cc.id = wc.category_id
        where wc.writing_id = ${writings.id})`,
      versions: sql<{ id: number; language: WritingLanguage; title: string }[]>`(
        select json_agg(json_build_object('id', v.id, 'language', v.language, 'title', v.title) order by v.id)
        from writings v
        where v.id = coalesce(${writings.translationOf}, ${writings.id}) or v.translation_of = coalesce(${writings.translationOf}, ${writings.id}))`,
      relatedEntries: relatedEntriesSql(writings.relatedEntryIds),
    })
    .from(writings)
    .innerJoin(users, eq(users.id, writings.authorId))
    .where(eq(writings.id, sql.placeholder("id")))
    .limit(1)
    .prepare("writings_reading"),
);

type ReadingContent = Omit<ReadingData, "following">;

/**
 * The reading page's content of a writing, remembered under the tags of the pages that show it
 * (`readingTags`): every write that changes the writing, its language versions or series, its
 * circle (categories), its author's card or a related entry invalidates one of them.
 */
const readingContents = taggedMemory<ReadingContent | null>("writings/reading", { ttlMs: 60_000, maxEntries: 2_000 });

/** The cache tags of a writing's reading page content (the page adds its own, see `readingPage`). */
export function readingTags(
  row: Pick<WritingRow, "id" | "circleId" | "authorId" | "translationOf" | "seriesId" | "relatedEntryIds">,
): string[] {
  return [
    ...writingContentTags(row),
    circleTag(row.circleId),
    userTag(row.authorId),
    ...row.relatedEntryIds.map((entry) => contentTag("entry", entry)),
  ];
}

async function readingContent(db: Executor, id: number): Promise<ReadingContent | null> {
  return readingContents.read(db, id, async () => {
    const [found] = await readingQuery(db).execute({ id });
    if (!found) return { value: null, tags: [contentTag("writing", id)] };
    const { author, categories, versions, relatedEntries, ...row } = found;
    return { value: { row, author, categories, versions: versions ?? [], relatedEntries: relatedEntries ?? [] }, tags: readingTags(row) };
  });
}

/**
 * The reading page's data of writing `id` (no access check: see `loadWritingForReading`). No query
 * when remembered: the content as above and whom the viewer follows (`followeesOf`). The view
 * count is the remembered one, so, as on the anonymous cached page, it may lag up to a minute.
 */
export async function readingData(db: Executor, viewerId: number | null, id: number): Promise<ReadingData | null> {
  const content = await readingContent(db, id);
  if (!content) return null;
  const following = viewerId !== null && viewerId !== content.author.id && (await followeesOf(db, viewerId)).has(content.author.id);
  return { ...content, following };
}

export interface SeriesPart {
  id: number;
  partNumber: number;
  title: string;
}

/** A series the author may continue, with the number its next part gets. */
export interface AuthorSeries {
  id: number;
  title: string;
  nextPart: number;
}

/**
 * The author's serialized articles in a circle (first parts, first language versions), newest
 * first, each with the number of its next part: max + 1 of its parts, as publishing counts it.
 */
export async function seriesOfAuthor(db: Executor, authorId: number, circleId: number, limit = 50): Promise<AuthorSeries[]> {
  const rows = await db
    .select({
      id: writings.id,
      title: writings.title,
      // Spelled out: drizzle leaves columns of the select list unqualified, which a subquery would capture.
      last: sql<number>`(select max(part.part_number) from writings part where (part.id = "writings"."id" or part.series_id = "writings"."id") and part.translation_of is null)`.mapWith(
        Number,
      ),
    })
    .from(writings)
    .where(
      and(
        eq(writings.authorId, authorId),
        eq(writings.circleId, circleId),
        eq(writings.type, "serial"),
        isNull(writings.seriesId),
        isNull(writings.translationOf),
      ),
    )
    .orderBy(desc(writings.publishedAt), desc(writings.id))
    .limit(limit);
  return rows.map((row) => ({ id: row.id, title: row.title, nextPart: (row.last || 1) + 1 }));
}

/** A serialized article's parts (first language versions), in order. */
export async function seriesParts(db: Executor, row: Pick<WritingRow, "id" | "seriesId" | "type">): Promise<SeriesPart[]> {
  if (row.type !== "serial") return [];
  const series = seriesIdOf(row);
  return db
    .select({ id: writings.id, partNumber: writings.partNumber, title: writings.title })
    .from(writings)
    .where(and(or(eq(writings.id, series), eq(writings.seriesId, series)), isNull(writings.translationOf), isNull(writings.hiddenAt)))
    .orderBy(asc(writings.partNumber), asc(writings.id));
}

const categoriesQuery = preparedQuery((db) =>
  db
    .select({ id: circleCategories.id, name: circleCategories.name })
    .from(writingCategories)
    .innerJoin(circleCategories, eq(circleCategories.id, writingCategories.categoryId))
    .where(eq(writingCategories.writingId, sql.placeholder("writing")))
    .orderBy(asc(circleCategories.position), asc(circleCategories.id))
    .prepare("writings_categories"),
);

export async function categoriesOf(db: Executor, writingId: number): Promise<{ id: number; name: string }[]> {
  return categoriesQuery(db).execute({ writing: writingId });
}

/**
 * Hot ranking: engagement over age, like Hacker News's, one formula for every kind
 * (docs/features/interactions.md, "Hot"): views 1, likes 5, favourites 8, comments 10, shares 3,
 * minus 5 per dislike (never below zero), plus 1, over (age in hours + 2)^1.5. The score is stored
 * (`writings.hot_score`, index `writings_hot_idx`), not computed per list: the SQL function
 * `engagement_hot_score` (migration 0020) computes it for the instant in `hot_clock`, the
 * `writings_hot_score` trigger whenever a writing's views, comment count or publication time change
 * or its reactions, favourites and shares do (handlers.ts), and `recomputeHotScores` (hot.ts) for
 * every writing when maintenance moves the clock each hour. So a Hot list reads an index range.
 */
export interface WritingListItem {
  id: number;
  circleId: number;
  type: WritingType;
  title: string;
  excerpt: string;
  language: WritingLanguage;
  views: number;
  textLength: number;
  coverFileId: string | null;
  publishedAt: string;
  partNumber: number;
  author: AuthorCard;
}

export interface WritingListOptions {
  tab?: FeedTab;
  circleId?: number;
  /** Only these types (articles tab: article and serial; posts tab: post). */
  types?: WritingType[];
  /** Only this author's writings (profile pages). */
  authorId?: number;
  /** Only these authors' writings (a school's page in the school zone). */
  authorIds?: number[];
  cursor?: string | null;
  limit?: number;
  /** The interface language: an item with a version in it shows that version's title, excerpt and facts. */
  locale?: WritingLanguage;
}

export interface WritingListPage {
  items: WritingListItem[];
  nextCursor: string | null;
}

/**
 * Keyset cursors, the last item's sort key: `u<published µs>_<id>` for time order, `h<score>_<id>`
 * for Hot. The next page reads the index range after it, so its cost never grows with the page
 * number and every item appears once while the list is unchanged.
 */
type Cursor = { /** µs since the epoch, as digits */ time: string; id: number } | { score: number; id: number };

function parseCursor(cursor: string | null | undefined): Cursor | null {
  if (!cursor) return null;
  // Microseconds since the epoch (PostgreSQL keeps them; a JavaScript Date would drop them and
  // skip writings published within the same millisecond). `t<ms>_<id>`: links made before.
  const micros = /^u(\d{1,18})_(\d{1,10})$/.exec(cursor);
  if (micros) return { time: micros[1]!, id: Number(micros[2]) };
  const millis = /^t(\d{1,15})_(\d{1,10})$/.exec(cursor);
  if (millis) return { time: `${millis[1]}000`, id: Number(millis[2]) };
  const hot = /^h(\d+(?:\.\d+)?(?:e-?\d{1,3})?)_(\d{1,10})$/.exec(cursor);
  if (hot && Number.isFinite(Number(hot[1]))) return { score: Number(hot[1]), id: Number(hot[2]) };
  return null;
}

/**
 * The Follow tab's candidates: for each followed author and each joined circle, its newest
 * `perKey` writings meeting `conditions` (and the cursor), each an index range
 * (`writings_author_list_idx`, `writings_circle_list_idx`); the page is the newest of them. So
 * the cost grows with the number of followees and circles, never with the number of writings.
 */
function followCandidates(viewerId: number, conditions: (SQL | undefined)[], perKey: number): SQL {
  const newest = (column: SQL, keys: SQL) => sql`
    select picked.id from unnest(array(${keys})) as keyed(key)
    cross join lateral (
      select ${writings.id} as id from ${writings}
      where ${column} = keyed.key and ${and(...conditions)}
      order by ${writings.publishedAt} desc, ${writings.id} desc
      limit ${perKey}
    ) as picked`;
  return sql`(${newest(sql`${writings.authorId}`, sql`select ${follows.followeeId} from ${follows} where ${follows.followerId} = ${viewerId}`)}
    union
    ${newest(sql`${writings.circleId}`, sql`select ${circleMembers.circleId} from ${circleMembers} where ${circleMembers.userId} = ${viewerId}`)})`;
}

/**
 * One page of writings the viewer may read: Latest (articles and serialized articles, newest
 * first), All (every type), Hot (by the stored score, see above), Follow (writings of followed
 * users and joined circles; empty for visitors). Lists show one item per language group, linked by
 * the group's first id; with `locale`, an item that has a version in that language shows its
 * title, excerpt, language and length (the reading page opens that version too).
 */
export async function listWritings(db: Executor, viewer: Viewer | null, options: WritingListOptions = {}): Promise<WritingListPage> {
  const tab = options.tab ?? "latest";
  const limit = Math.min(Math.max(options.limit ?? 20, 1), 50);
  if (tab === "follow" && !viewer) return { items: [], nextCursor: null };
  let circleIds = await readableCircleIds(db, viewer);
  if (options.circleId !== undefined) circleIds = circleIds.filter((id) => id === options.circleId);
  if (circleIds.length === 0 || options.authorIds?.length === 0) return { items: [], nextCursor: null };
  const types = options.types ?? (tab === "latest" ? (["article", "serial"] as WritingType[]) : undefined);
  const cursor = parseCursor(options.cursor);
  const conditions: (SQL | undefined)[] = [
    inArray(writings.circleId, circleIds),
    isNull(writings.translationOf),
    // Hidden by moderation: out of every list (its author and moderators open it from its page or the queue).
    isNull(writings.hiddenAt),
    types ? inArray(writings.type, types) : undefined,
    options.authorId !== undefined ? eq(writings.authorId, options.authorId) : undefined,
    options.authorIds !== undefined ? inArray(writings.authorId, options.authorIds) : undefined,
  ];
  const hot = tab === "hot";
  if (cursor && hot && "score" in cursor) {
    conditions.push(sql`(${writings.hotScore}, ${writings.id}) < (${cursor.score}::float8, ${cursor.id}::integer)`);
  } else if (cursor && !hot && "time" in cursor) {
    conditions.push(
      sql`(${writings.publishedAt}, ${writings.id}) < (timestamptz 'epoch' + ${cursor.time}::bigint * interval '1 microsecond', ${cursor.id}::integer)`,
    );
  }
  if (tab === "follow" && viewer) conditions.push(inArray(writings.id, followCandidates(viewer.id, conditions, limit + 1)));
  const version = alias(writings, "version");
  const rows = await db
    .select({
      id: writings.id,
      circleId: writings.circleId,
      type: writings.type,
      title: sql<string>`coalesce(${version.title}, ${writings.title})`,
      excerpt: sql<string>`coalesce(${version.excerpt}, ${writings.excerpt})`,
      language: sql<WritingLanguage>`coalesce(${version.language}, ${writings.language})`,
      views: writings.views,
      textLength: sql<number>`coalesce(${version.textLength}, ${writings.textLength})`,
      coverFileId: writings.coverFileId,
      publishedAt: writings.publishedAt,
      partNumber: writings.partNumber,
      hotScore: writings.hotScore,
      publishedMicros: sql<string>`(extract(epoch from ${writings.publishedAt}) * 1000000)::bigint::text`,
      author: { id: users.id, username: users.username, nickname: users.nickname, avatar: users.avatar },
    })
    .from(writings)
    .innerJoin(users, eq(users.id, writings.authorId))
    .leftJoin(version, and(eq(version.translationOf, writings.id), sql`${version.language} = ${options.locale ?? null}`))
    .where(and(...conditions))
    .orderBy(...(hot ? [desc(writings.hotScore), desc(writings.id)] : [desc(writings.publishedAt), desc(writings.id)]))
    .limit(limit + 1);
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor = !more || !last ? null : hot ? `h${last.hotScore}_${last.id}` : `u${last.publishedMicros}_${last.id}`;
  return {
    items: page.map(({ hotScore: _score, publishedMicros: _micros, ...row }) => ({ ...row, publishedAt: row.publishedAt.toISOString() })),
    nextCursor,
  };
}

export interface SitemapWriting {
  id: number;
  circleId: number;
  type: WritingType;
  language: WritingLanguage;
  translationOf: number | null;
  editedAt: Date | null;
  publishedAt: Date;
}

const sitemapColumns = {
  id: writings.id,
  circleId: writings.circleId,
  type: writings.type,
  language: writings.language,
  translationOf: writings.translationOf,
  editedAt: writings.editedAt,
  publishedAt: writings.publishedAt,
};

/** How many writing versions visitors may read (the sitemap's writing pages hold them in id order). */
export async function countSitemapWritings(db: Executor): Promise<number> {
  const circleIds = await readableCircleIds(db, null);
  if (circleIds.length === 0) return 0;
  const [row] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number) })
    .from(writings)
    .where(and(inArray(writings.circleId, circleIds), isNull(writings.hiddenAt)));
  return row?.count ?? 0;
}

/**
 * One page of the writing versions visitors may read, in id order, each with every version of
 * its group (for the hreflang alternates; a group's versions share its circle).
 */
export async function sitemapWritings(
  db: Executor,
  page: { offset: number; limit: number },
): Promise<{ row: SitemapWriting; versions: SitemapWriting[] }[]> {
  const circleIds = await readableCircleIds(db, null);
  if (circleIds.length === 0) return [];
  const rows = await db
    .select(sitemapColumns)
    .from(writings)
    .where(and(inArray(writings.circleId, circleIds), isNull(writings.hiddenAt)))
    .orderBy(asc(writings.id))
    .limit(page.limit)
    .offset(page.offset);
  const groupOf = (row: SitemapWriting) => row.translationOf ?? row.id;
  const groups = [...new Set(rows.map(groupOf))];
  const versions =
    groups.length === 0
      ? []
      : await db
          .select(sitemapColumns)
          .from(writings)
          .where(and(inArray(sql`coalesce(${writings.translationOf}, ${writings.id})`, groups), isNull(writings.hiddenAt)))
          .orderBy(asc(writings.id));
  const byGroup = new Map<number, SitemapWriting[]>();
  for (const version of versions) byGroup.set(groupOf(version), [...(byGroup.get(groupOf(version)) ?? []), version]);
  return rows.map((row) => ({ row, versions: byGroup.get(groupOf(row)) ?? [row] }));
}

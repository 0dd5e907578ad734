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

/** A serialized article's parts (first language versions), in order. */
export async function seriesParts(db: Executor, row: Pick<WritingRow, "id" | "seriesId" | "type">): Promise<SeriesPart[]> {
  if (row.type !== "serial") return [];
  const series = seriesIdOf(row);
  return db
    .select({ id: writings.id, partNumber: writings.partNumber, title: writings.title })
    .from(writings)
    .where(and(or(eq(writings.id, series), eq(writings.seriesId, series)), isNull(writings.translationOf)))
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
 * Hot score: engagement over age, like Hacker News's ranking. Views count 1, likes 5 and comments
 * 10 (likes are 0 until reactions exist: add their count here; comments are those not deleted), divided by the age in
 * hours plus 2, raised to 1.5, so a day-old writing needs about 5× the engagement of a new one.
 */
export function hotScoreSql(): SQL<number> {
  const likes = sql`0`;
  const comments = sql`(select count(*) from comments cm where cm.subject_type = 'writing' and cm.subject_id = ${writings.id} and cm.deleted_at is null)`;
  return sql<number>`((${writings.views} + 5 * ${likes} + 10 * ${comments} + 1)::float8 / power(extract(epoch from (now() - ${writings.publishedAt})) / 3600.0 + 2, 1.5))`;
}

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
  cursor?: string | null;
  limit?: number;
  /** The interface language: an item with a version in it shows that version's title, excerpt and facts. */
  locale?: WritingLanguage;
}

export interface WritingListPage {
  items: WritingListItem[];
  nextCursor: string | null;
}

/** Cursors: `t<published ms>_<id>` for time order (stable under inserts), `o<offset>` for Hot (scores move with time). */
function parseCursor(cursor: string | null | undefined): { time: Date; id: number } | { offset: number } | null {
  if (!cursor) return null;
  const time = /^t(\d{1,15})_(\d{1,10})$/.exec(cursor);
  if (time) return { time: new Date(Number(time[1])), id: Number(time[2]) };
  const offset = /^o(\d{1,6})$/.exec(cursor);
  if (offset) return { offset: Number(offset[1]) };
  return null;
}

/**
 * One page of writings the viewer may read: Latest (articles and serialized articles, newest
 * first), All (every type), Hot (by `hotScoreSql`), Follow (writings of followed users and joined
 * circles; empty for visitors). Lists show one item per language group, linked by the group's
 * first id; with `locale`, an item that has a version in that language shows its title, excerpt,
 * language and length (the reading page opens that version too).
 */
export async function listWritings(db: Executor, viewer: Viewer | null, options: WritingListOptions = {}): Promise<WritingListPage> {
  const tab = options.tab ?? "latest";
  const limit = Math.min(Math.max(options.limit ?? 20, 1), 50);
  if (tab === "follow" && !viewer) return { items: [], nextCursor: null };
  let circleIds = await readableCircleIds(db, viewer);
  if (options.circleId !== undefined) circleIds = circleIds.filter((id) => id === options.circleId);
  if (circleIds.length === 0) return { items: [], nextCursor: null };
  const types = options.types ?? (tab === "latest" ? (["article", "serial"] as WritingType[]) : undefined);
  const cursor = parseCursor(options.cursor);
  const conditions: (SQL | undefined)[] = [
    inArray(writings.circleId, circleIds),
    isNull(writings.translationOf),
    types ? inArray(writings.type, types) : undefined,
    options.authorId !== undefined ? eq(writings.authorId, options.authorId) : undefined,
  ];
  if (tab === "follow" && viewer) {
    conditions.push(
      or(
        inArray(writings.authorId, db.select({ id: follows.followeeId }).from(follows).where(eq(follows.followerId, viewer.id))),
        inArray(
          writings.circleId,
          db.select({ id: circleMembers.circleId }).from(circleMembers).where(eq(circleMembers.userId, viewer.id)),
        ),
      ),
    );
  }
  const hot = tab === "hot";
  if (!hot && cursor && "time" in cursor) {
    conditions.push(
      or(
        sql`${writings.publishedAt} < ${cursor.time.toISOString()}`,
        and(sql`${writings.publishedAt} = ${cursor.time.toISOString()}`, sql`${writings.id} < ${cursor.id}`),
      ),
    );
  }
  const offset = hot && cursor && "offset" in cursor ? cursor.offset : 0;
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
      author: { id: users.id, username: users.username, nickname: users.nickname, avatar: users.avatar },
    })
    .from(writings)
    .innerJoin(users, eq(users.id, writings.authorId))
    .leftJoin(version, and(eq(version.translationOf, writings.id), sql`${version.language} = ${options.locale ?? null}`))
    .where(and(...conditions))
    .orderBy(...(hot ? [desc(hotScoreSql()), desc(writings.id)] : [desc(writings.publishedAt), desc(writings.id)]))
    .limit(limit + 1)
    .offset(offset);
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const nextCursor = !more || !last ? null : hot ? `o${offset + limit}` : `t${last.publishedAt.getTime()}_${last.id}`;
  return { items: page.map((row) => ({ ...row, publishedAt: row.publishedAt.toISOString() })), nextCursor };
}

/** Every readable writing for the sitemap (newest first, capped). */
export async function sitemapWritings(
  db: Executor,
  limit = 5000,
): Promise<
  {
    id: number;
    circleId: number;
    type: WritingType;
    language: WritingLanguage;
    translationOf: number | null;
    editedAt: Date | null;
    publishedAt: Date;
  }[]
> {
  const circleIds = await readableCircleIds(db, null);
  if (circleIds.length === 0) return [];
  return db
    .select({
      id: writings.id,
      circleId: writings.circleId,
      type: writings.type,
      language: writings.language,
      translationOf: writings.translationOf,
      editedAt: writings.editedAt,
      publishedAt: writings.publishedAt,
    })
    .from(writings)
    .where(inArray(writings.circleId, circleIds))
    .orderBy(desc(writings.publishedAt))
    .limit(limit);
}

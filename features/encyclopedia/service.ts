import { and, asc, desc, eq, inArray, isNull, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { alias } from "drizzle-orm/pg-core";
import { answers, encyclopediaEntries, entryCitations, questions, users, writings } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { inReadableCircles, isReadable, noneReadable, readableCircleIds, readableCircles } from "../circles/access.server.ts";
import type { CircleAccess } from "../circles/policy.ts";
import { can } from "./policy.ts";
import { entryPath } from "./paths.ts";
import { maxSearchResults, type EntryLanguage, type EntrySummary } from "./schema.ts";
import { readableContentAccess } from "../content/readable.ts";
import { circleTag, contentTag, circlesTag, sitemapTag } from "../../server/lib/cache-tags.ts";

export type EntryRow = typeof encyclopediaEntries.$inferSelect;

export type { EntrySummary } from "./schema.ts";

const summaryColumns = {
  id: encyclopediaEntries.id,
  circleId: encyclopediaEntries.circleId,
  name: encyclopediaEntries.name,
  aliases: encyclopediaEntries.aliases,
  disambiguation: encyclopediaEntries.disambiguation,
  language: encyclopediaEntries.language,
  translationOf: encyclopediaEntries.translationOf,
};

/** Pages that show an entry: its own, its circle's (tab and counts), the sitemap. */
export function entryTags(row: Pick<EntryRow, "id" | "circleId">): string[] {
  return [contentTag("entry", row.id), circleTag(row.circleId), circlesTag, sitemapTag];
}

/** `%`, `_` and `\` match themselves in a LIKE pattern. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

const aliasLike = (pattern: string): SQL =>
  sql`exists (select 1 from unnest(${encyclopediaEntries.aliases}) as a where lower(a) like lower(${pattern}))`;

/**
 * An alias contains the pattern: first through the trigram index on all aliases joined
 * (`entry_aliases_text`, migration 0013), then each alias alone (a match across two joined
 * aliases is no match).
 */
const aliasesContain = (pattern: string): SQL =>
  sql`(entry_aliases_text(${encyclopediaEntries.aliases}) like lower(${pattern}) and ${aliasLike(pattern)})`;

/**
 * Entries whose name or any alias contains `q` (case-insensitively), in circles whose content the
 * viewer may read: the exact name first, then names starting with `q`, then aliases starting with
 * it, then the rest; shorter names before longer ones. At most ten. An empty `q` lists the
 * circle's newest entries (nothing without a circle). A circle the viewer may not read answers
 * nothing, exactly like an unknown one.
 */
export async function searchEntries(
  db: Executor,
  viewer: Pick<Viewer, "id"> | null,
  options: { q: string; circleId?: number; limit?: number },
): Promise<EntrySummary[]> {
  const limit = Math.min(Math.max(options.limit ?? maxSearchResults, 1), maxSearchResults);
  const q = options.q.trim();
  const circles = await readableCircles(db, viewer);
  if (options.circleId !== undefined && !isReadable(circles, options.circleId)) return [];
  if (noneReadable(circles)) return [];
  // Hidden by moderation: out of every list and search. The readable circles as the shorter list (one array).
  const inCircles = and(
    options.circleId === undefined
      ? inReadableCircles(encyclopediaEntries.circleId, circles)
      : eq(encyclopediaEntries.circleId, options.circleId),
    isNull(encyclopediaEntries.hiddenAt),
  );
  if (q === "") {
    if (options.circleId === undefined) return [];
    return db
      .select(summaryColumns)
      .from(encyclopediaEntries)
      .where(inCircles)
      .orderBy(desc(encyclopediaEntries.createdAt), desc(encyclopediaEntries.id))
      .limit(limit);
  }
  const escaped = escapeLike(q);
  const contains = `%${escaped}%`;
  const prefix = `${escaped}%`;
  const name = sql`lower(${encyclopediaEntries.name})`;
  const rank = sql`case when ${name} = lower(${q}) then 0 when ${name} like lower(${prefix}) then 1 when ${aliasLike(prefix)} then 2 else 3 end`;
  return (
    db
      .select(summaryColumns)
      .from(encyclopediaEntries)
      // Both conditions read pg_trgm GIN indexes (names: lower(name); aliases: entry_aliases_text).
      .where(and(inCircles, or(sql`${name} like lower(${contains})`, aliasesContain(contains))))
      .orderBy(rank, sql`char_length(${encyclopediaEntries.name})`, asc(encyclopediaEntries.id))
      .limit(limit)
  );
}

/**
 * The entries among `ids` the viewer may read, in the order asked (unknown ones and those of
 * circles the viewer may not read are left out).
 */
export async function entriesByIds(db: Executor, viewer: Pick<Viewer, "id"> | null, ids: readonly number[]): Promise<EntrySummary[]> {
  const unique = [...new Set(ids)].filter((id) => Number.isInteger(id) && id > 0 && id <= 2_147_483_647);
  if (unique.length === 0) return [];
  const circles = await readableCircleIds(db, viewer);
  if (circles.length === 0) return [];
  const rows = await db
    .select(summaryColumns)
    .from(encyclopediaEntries)
    .where(
      and(inArray(encyclopediaEntries.id, unique), inArray(encyclopediaEntries.circleId, circles), isNull(encyclopediaEntries.hiddenAt)),
    );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return unique.flatMap((id) => byId.get(id) ?? []);
}

/**
 * The entries named by an `integer[]` column of the row a query selects (a writing's related
 * entries), as JSON in that query itself, in the column's order; entries gone are left out.
 * Pass the result through `readableEntries`.
 */
export function relatedEntriesSql(ids: SQL | AnyColumn): SQL<EntrySummary[] | null> {
  return sql<EntrySummary[] | null>`(
    select json_agg(json_build_object('id', e.id, 'circleId', e.circle_id, 'name', e.name, 'aliases', e.aliases, 'disambiguation', e.disambiguation, 'language', e.language, 'translationOf', e.translation_of) order by array_position(${ids}, e.id))
    from encyclopedia_entries e where e.id = any(${ids}))`;
}

/** Of these entries, the ones in circles whose content the viewer may read (no query: the access map is in memory). */
export async function readableEntries(
  db: Executor,
  viewer: Pick<Viewer, "id"> | null,
  entries: readonly EntrySummary[] | null,
): Promise<EntrySummary[]> {
  if (!entries || entries.length === 0) return [];
  const circles = new Set(await readableCircleIds(db, viewer));
  return entries.filter((entry) => circles.has(entry.circleId));
}

/**
 * The related entries of a writing: every id an existing entry the author may read, duplicates
 * collapsed; otherwise a field error on `related_entries`.
 */
export async function checkRelatedEntries(
  db: Executor,
  viewer: Pick<Viewer, "id">,
  ids: readonly number[] | undefined,
): Promise<number[] | undefined> {
  if (ids === undefined) return undefined;
  const unique = [...new Set(ids)];
  if (unique.length === 0) return unique;
  const found = await entriesByIds(db, viewer, unique);
  if (found.length !== unique.length)
    throw new AppError("validation_failed", { fields: { related_entries: "validation:related_entry_unknown" } });
  return unique;
}

/**
 * An entry with the viewer's access to its circle, or `not_found` when it does not exist or its
 * circle's content is not the viewer's to read; a visitor who may see the circle but not read it
 * is asked to sign in (like writings).
 */
export async function loadReadableEntry(db: Executor, viewer: Viewer | null, id: number): Promise<{ row: EntryRow; access: CircleAccess }> {
  const [row] = await db.select().from(encyclopediaEntries).where(eq(encyclopediaEntries.id, id)).limit(1);
  if (!row) throw new AppError("not_found");
  const owner = { circleId: row.circleId, authorId: row.creatorId, hiddenAt: row.hiddenAt };
  return { row, access: await readableContentAccess(db, viewer, owner, (access) => can(viewer, "read", access)) };
}

/** The entry page's data: the entry, its readable parent and its creator. */
export async function getEntry(db: Executor, viewer: Viewer | null, id: number) {
  const { row } = await loadReadableEntry(db, viewer, id);
  const [[creator], [parent]] = await Promise.all([
    db.select({ id: users.id, username: users.username, nickname: users.nickname }).from(users).where(eq(users.id, row.creatorId)).limit(1),
    row.parentId === null ? Promise.resolve([]) : entriesByIds(db, viewer, [row.parentId]),
  ]);
  return {
    id: row.id,
    circleId: row.circleId,
    name: row.name,
    aliases: row.aliases,
    disambiguation: row.disambiguation,
    language: row.language,
    translationOf: row.translationOf,
    descriptionHtml: row.descriptionHtml,
    description: row.description,
    parent: parent
      ? { id: parent.id, circleId: parent.circleId, name: parent.name, disambiguation: parent.disambiguation, language: parent.language }
      : null,
    creator: creator ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    editCount: row.editCount,
    views: row.views,
    citeCount: await visibleCiteCount(db, viewer, row.id),
    protected: row.protected,
    revisionId: row.revisionId,
    references: row.references,
    citation: row.citation,
    photos: row.photos,
    url: entryPath(row),
  };
}

export type EntryPage = Awaited<ReturnType<typeof getEntry>>;

/**
 * Sets the stored cite count of these entries: the sources citing them (`entry_citations`: writings
 * and questions relating to them, writings, questions, answers and entries linking to them), each
 * source once, visible or not (the search ranking's measure). Callers drop the entries' count tags.
 */
export async function recountCitations(db: Executor, entryIds: readonly number[]): Promise<void> {
  const ids = [...new Set(entryIds)];
  if (ids.length === 0) return;
  await db
    .update(encyclopediaEntries)
    .set({ citeCount: sql`(select count(*)::integer from entry_citations c where c.entry_id = ${encyclopediaEntries.id})` })
    .where(inArray(encyclopediaEntries.id, ids));
}

/**
 * The cite count a reader sees: the sources citing the entry that this viewer may read — in a
 * circle whose content they may read and not hidden by moderation (an answer neither, nor its
 * question); a source deleted is gone with its row. Like Wikipedia's "What links here", a reader
 * never counts what they could not open.
 */
export async function visibleCiteCount(db: Executor, viewer: Pick<Viewer, "id"> | null, entryId: number): Promise<number> {
  const circles = await readableCircleIds(db, viewer);
  if (circles.length === 0) return 0;
  const sources = alias(encyclopediaEntries, "source_entry");
  const answerQuestion = alias(questions, "answer_question");
  const [row] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number) })
    .from(entryCitations)
    .leftJoin(writings, and(eq(entryCitations.sourceType, "writing"), eq(writings.id, entryCitations.sourceId)))
    .leftJoin(questions, and(eq(entryCitations.sourceType, "question"), eq(questions.id, entryCitations.sourceId)))
    .leftJoin(answers, and(eq(entryCitations.sourceType, "answer"), eq(answers.id, entryCitations.sourceId)))
    .leftJoin(answerQuestion, eq(answerQuestion.id, answers.questionId))
    .leftJoin(sources, and(eq(entryCitations.sourceType, "entry"), eq(sources.id, entryCitations.sourceId)))
    .where(
      and(
        eq(entryCitations.entryId, entryId),
        or(
          and(isNull(writings.hiddenAt), inArray(writings.circleId, circles)),
          and(isNull(questions.hiddenAt), inArray(questions.circleId, circles)),
          and(isNull(answers.hiddenAt), isNull(answerQuestion.hiddenAt), inArray(answerQuestion.circleId, circles)),
          and(isNull(sources.hiddenAt), inArray(sources.circleId, circles)),
        ),
      ),
    );
  return row?.count ?? 0;
}

/** A circle's entries by name, for its encyclopedia tab (callers check `read_content`). */
export async function listCircleEntries(db: Executor, circleId: number, limit = 200): Promise<EntrySummary[]> {
  return db
    .select(summaryColumns)
    .from(encyclopediaEntries)
    .where(and(eq(encyclopediaEntries.circleId, circleId), isNull(encyclopediaEntries.hiddenAt)))
    .orderBy(sql`lower(${encyclopediaEntries.name})`, asc(encyclopediaEntries.id))
    .limit(limit);
}

/** The entries of the given circles for the sitemap, a page at a time in id order. */
export async function sitemapEntries(
  db: Executor,
  circleIds: number[],
  page: { offset: number; limit: number } = { offset: 0, limit: 50_000 },
): Promise<{ id: number; circleId: number; language: EntryLanguage; translationOf: number | null; updatedAt: Date }[]> {
  if (circleIds.length === 0) return [];
  return db
    .select({
      id: encyclopediaEntries.id,
      circleId: encyclopediaEntries.circleId,
      language: encyclopediaEntries.language,
      translationOf: encyclopediaEntries.translationOf,
      updatedAt: encyclopediaEntries.updatedAt,
    })
    .from(encyclopediaEntries)
    .where(and(inArray(encyclopediaEntries.circleId, circleIds), isNull(encyclopediaEntries.hiddenAt)))
    .orderBy(asc(encyclopediaEntries.id))
    .limit(page.limit)
    .offset(page.offset);
}

/** How many entries the sitemap lists (those of the given circles). */
export async function countSitemapEntries(db: Executor, circleIds: number[]): Promise<number> {
  if (circleIds.length === 0) return 0;
  const [row] = await db
    .select({ count: sql<number>`count(*)`.mapWith(Number) })
    .from(encyclopediaEntries)
    .where(and(inArray(encyclopediaEntries.circleId, circleIds), isNull(encyclopediaEntries.hiddenAt)));
  return row?.count ?? 0;
}

/**
 * An entry's ancestors (root first, at most 20 up; a cycle left by old data stops the walk) and
 * its children by name, those the viewer may read.
 */
export async function entryFamily(
  db: Executor,
  viewer: Pick<Viewer, "id"> | null,
  row: Pick<EntryRow, "id" | "parentId">,
): Promise<{ ancestors: EntrySummary[]; children: EntrySummary[] }> {
  const ancestors: EntrySummary[] = [];
  const seen = new Set([row.id]);
  let parentId = row.parentId;
  while (parentId !== null && !seen.has(parentId) && ancestors.length < 20) {
    seen.add(parentId);
    const [parent] = await db
      .select({ ...summaryColumns, parentId: encyclopediaEntries.parentId })
      .from(encyclopediaEntries)
      .where(eq(encyclopediaEntries.id, parentId))
      .limit(1);
    if (!parent) break;
    const { parentId: next, ...summary } = parent;
    ancestors.unshift(summary);
    parentId = next;
  }
  const children = await db
    .select(summaryColumns)
    .from(encyclopediaEntries)
    .where(eq(encyclopediaEntries.parentId, row.id))
    .orderBy(sql`lower(${encyclopediaEntries.name})`, asc(encyclopediaEntries.id))
    .limit(100);
  return { ancestors: await readableEntries(db, viewer, ancestors), children: await readableEntries(db, viewer, children) };
}

/**
 * The entries of a circle a name resolves to: those named so or having it as an alias (any
 * language, case-insensitively), readable by the viewer, names before aliases. One is where
 * the name leads; several are its senses (a disambiguation page).
 */
export async function entriesByName(
  db: Executor,
  viewer: Pick<Viewer, "id"> | null,
  circleId: number,
  name: string,
  options: { except?: number; limit?: number } = {},
): Promise<EntrySummary[]> {
  const lowered = name.trim().toLowerCase();
  if (lowered === "") return [];
  const byName = sql`lower(${encyclopediaEntries.name}) = ${lowered}`;
  const rows = await db
    .select(summaryColumns)
    .from(encyclopediaEntries)
    .where(
      and(
        eq(encyclopediaEntries.circleId, circleId),
        or(byName, sql`exists (select 1 from unnest(${encyclopediaEntries.aliases}) a where lower(a) = ${lowered})`),
        options.except === undefined ? undefined : sql`${encyclopediaEntries.id} <> ${options.except}`,
      ),
    )
    .orderBy(sql`case when ${byName} then 0 else 1 end`, asc(encyclopediaEntries.id))
    .limit(options.limit ?? 50);
  return readableEntries(db, viewer, rows);
}

/** One language version of an entry, as the version links and the "changed since" notice need it. */
export interface EntryVersion {
  id: number;
  circleId: number;
  language: EntryLanguage;
  name: string;
  translationOf: number | null;
  revisionId: number | null;
  updatedAt: Date;
}

/** The language versions of the entry's group (itself included), the first version first. */
export async function entryVersions(db: Executor, row: Pick<EntryRow, "id" | "translationOf">): Promise<EntryVersion[]> {
  const group = row.translationOf ?? row.id;
  return db
    .select({
      id: encyclopediaEntries.id,
      circleId: encyclopediaEntries.circleId,
      language: encyclopediaEntries.language,
      name: encyclopediaEntries.name,
      translationOf: encyclopediaEntries.translationOf,
      revisionId: encyclopediaEntries.revisionId,
      updatedAt: encyclopediaEntries.updatedAt,
    })
    .from(encyclopediaEntries)
    .where(sql`coalesce(${encyclopediaEntries.translationOf}, ${encyclopediaEntries.id}) = ${group}`)
    .orderBy(asc(encyclopediaEntries.id));
}

/**
 * The id of the entry's version in `language` (`?language=` of the API, `/{lang}` of the pages);
 * the entry's own id without a language; `not_found` when the group has no version in it.
 * Callers load the result with `loadReadableEntry`, which checks the viewer may read it.
 */
export async function versionIdOf(db: Executor, id: number, language: EntryLanguage | undefined): Promise<number> {
  if (language === undefined) return id;
  const [row] = await db
    .select({ id: encyclopediaEntries.id, translationOf: encyclopediaEntries.translationOf, language: encyclopediaEntries.language })
    .from(encyclopediaEntries)
    .where(eq(encyclopediaEntries.id, id))
    .limit(1);
  if (!row) throw new AppError("not_found");
  if (row.language === language) return row.id;
  const version = (await entryVersions(db, row)).find((candidate) => candidate.language === language);
  if (!version) throw new AppError("not_found");
  return version.id;
}

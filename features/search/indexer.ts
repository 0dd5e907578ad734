import { and, eq, inArray, or, sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { searchDocuments } from "../../server/db/schema/index.ts";
import { parseSearchWordsTag } from "../../server/lib/cache-tags.ts";
import { onInvalidate, onResync } from "../../server/lib/invalidation.ts";
import { characterTokens, foldText, indexTokens, learnWords, pinyinKeys, tsvectorLiteral } from "./text.ts";
import { searchKind, searchKinds, type SearchSource, type SearchType } from "./registry.ts";

/** How much of a body is indexed and kept for snippets. */
const bodyLimit = 20000;
const snippetSourceLimit = 4000;

/** The kinds whose names teach the segmenter (circles, entries: `teachesWords` in their registration). */
const wordTeachingTypes = (): SearchType[] =>
  searchKinds()
    .filter((kind) => kind.teachesWords)
    .map((kind) => kind.type);

/** Entry names and aliases of related entries, from the index itself (folded). */
async function relatedNames(db: Executor, sources: SearchSource[]): Promise<Map<number, string[]>> {
  const ids = [...new Set(sources.flatMap((source) => source.relatedEntryIds))];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: searchDocuments.id, synonyms: searchDocuments.synonyms })
    .from(searchDocuments)
    .where(and(eq(searchDocuments.type, "entry"), inArray(searchDocuments.id, ids)));
  return new Map(rows.map((row) => [row.id, row.synonyms]));
}

function documentRow(source: SearchSource, related: string[]) {
  const names = [source.title, ...source.names].filter((name) => name.trim().length > 0);
  const body = source.body.slice(0, bodyLimit);
  const synonyms = source.type === "entry" ? [...new Set(names.map((name) => foldText(name).trim()))] : [];
  const terms = tsvectorLiteral([
    { tokens: names.flatMap((name) => [...indexTokens(name), ...characterTokens(name)]), weight: "A" },
    { tokens: names.flatMap(pinyinKeys), weight: "B" },
    { tokens: related.flatMap(indexTokens), weight: "B" },
    { tokens: indexTokens(body), weight: "D" },
  ]);
  return {
    type: source.type,
    id: source.id,
    circleId: source.circleId,
    parentId: source.parentId,
    language: source.language,
    title: source.title,
    path: source.path,
    names: foldText(names.join(" \u00b7 ")),
    pinyin: names.flatMap(pinyinKeys).join(" "),
    synonyms,
    body: body.slice(0, snippetSourceLimit),
    terms,
    authorId: source.authorId,
    publishedAt: source.publishedAt,
    hotScore: Number.isFinite(source.hotScore) ? source.hotScore : 0,
  };
}

/**
 * Writes the index rows of these subjects as they are now, in the caller's transaction: a
 * subject that may no longer be listed (deleted, hidden) loses its row. Names of circles and
 * entries teach the segmenter first, so they stay whole words in the index and in queries.
 */
export async function indexSubjects(db: Executor, type: SearchType, ids: number[]): Promise<void> {
  const kind = searchKind(type);
  if (!kind || ids.length === 0) return;
  // Words another process learnt (a new circle or entry name) segment this subject too.
  await loadDictionary(db, { shared: false });
  const sources = await kind.documents(db, ids);
  if (kind.teachesWords) learnWords(sources.flatMap((source) => [source.title, ...source.names]));
  const related = await relatedNames(db, sources);
  const found = new Set(sources.map((source) => source.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) await removeSubjects(db, type, missing);
  if (sources.length === 0) return;
  const rows = sources.map((source) => {
    const row = documentRow(
      source,
      source.relatedEntryIds.flatMap((id) => related.get(id) ?? []),
    );
    return { ...row, terms: sql`${row.terms}::tsvector` as unknown as string };
  });
  const replaced = (column: string) => sql.raw(`excluded.${column}`);
  await db
    .insert(searchDocuments)
    .values(rows)
    .onConflictDoUpdate({
      target: [searchDocuments.type, searchDocuments.id],
      set: {
        circleId: replaced("circle_id"),
        parentId: replaced("parent_id"),
        language: replaced("language"),
        title: replaced("title"),
        path: replaced("path"),
        names: replaced("names"),
        pinyin: replaced("pinyin"),
        synonyms: replaced("synonyms"),
        body: replaced("body"),
        terms: replaced("terms"),
        authorId: replaced("author_id"),
        publishedAt: replaced("published_at"),
        hotScore: replaced("hot_score"),
      },
    });
}

/** Removes subjects (and what is deleted with them) from the index. */
export async function removeSubjects(db: Executor, type: SearchType, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  await db.delete(searchDocuments).where(and(eq(searchDocuments.type, type), inArray(searchDocuments.id, ids)));
  // Kinds deleted with their parent (a book's chapters, a question's answers).
  for (const child of searchKinds().filter((kind) => kind.parent === type))
    await db.delete(searchDocuments).where(and(eq(searchDocuments.type, child.type), inArray(searchDocuments.parentId, ids)));
}

/**
 * Circles and entries whose names were indexed since (here or, through the invalidation channel,
 * in another process): their words are learnt before the next query or indexing.
 */
const pendingWords = new Map<string, { type: string; id: number }>();
onInvalidate((tags) => {
  for (const tag of tags) {
    const subject = parseSearchWordsTag(tag);
    if (subject) pendingWords.set(tag, subject);
  }
});

/**
 * Teaches the segmenter every circle and entry name in the index (once per process, before the
 * first query), then the names of those indexed since by any process (`searchWordsTag`).
 * `shared: false` (indexing, inside a write's transaction) reads through its own executor and
 * never waits on a load another request began: on the embedded store that load would wait for
 * this very transaction.
 */
let dictionaryReady = false;
let dictionaryLoading: Promise<void> | null = null;
// Names taught while the channel was down never reached this process: read them all again.
onResync(() => {
  dictionaryReady = false;
});
export async function loadDictionary(db: Executor, { shared = true }: { shared?: boolean } = {}): Promise<void> {
  if (!dictionaryReady) {
    if (shared) {
      dictionaryLoading ??= readDictionary(db).finally(() => {
        dictionaryLoading = null;
      });
      await dictionaryLoading;
    } else {
      await readDictionary(db);
    }
  }
  if (pendingWords.size > 0) await learnPendingWords(db);
}

async function readDictionary(db: Executor): Promise<void> {
  // Names noted before this read are in it (their rows were committed before the signal).
  pendingWords.clear();
  const rows = await db
    .select({ title: searchDocuments.title, synonyms: searchDocuments.synonyms })
    .from(searchDocuments)
    .where(inArray(searchDocuments.type, wordTeachingTypes()));
  learnWords(rows.flatMap((row) => [row.title, ...row.synonyms]));
  dictionaryReady = true;
}

async function learnPendingWords(db: Executor): Promise<void> {
  const subjects = [...pendingWords.values()];
  pendingWords.clear();
  const ids = (type: string) => subjects.filter((subject) => subject.type === type).map((subject) => subject.id);
  const conditions = wordTeachingTypes()
    .filter((type) => ids(type).length > 0)
    .map((type) => and(eq(searchDocuments.type, type), inArray(searchDocuments.id, ids(type))));
  const rows = await db
    .select({ title: searchDocuments.title, names: searchDocuments.names, synonyms: searchDocuments.synonyms })
    .from(searchDocuments)
    .where(or(...conditions));
  learnWords(rows.flatMap((row) => [row.title, ...row.names.split(" \u00b7 "), ...row.synonyms]));
}

/**
 * Rebuilds the whole index from every registered kind, in batches (entries and circles first, so
 * their names are in the dictionary and their aliases ready for related writings). Rows of
 * subjects that no longer exist are dropped at the end. `progress` hears how far it is.
 */
export async function rebuildIndex(
  db: Executor,
  progress: (done: number, total: number, type: SearchType) => void = () => {},
  batch = 200,
  only?: SearchType[],
): Promise<number> {
  const order = searchKinds()
    .map((kind) => kind.type)
    .filter((type) => !only || only.includes(type));
  const totals = await Promise.all(order.map((type) => countIds(db, type)));
  const total = totals.reduce((sum, count) => sum + count, 0);
  let done = 0;
  for (const type of order) {
    const kind = searchKind(type);
    if (!kind) continue;
    let after = 0;
    for (;;) {
      const ids = await kind.ids(db, after, batch);
      if (ids.length === 0) break;
      const last = ids.at(-1)!;
      await db.transaction(async (executor) => {
        // Rows between these ids that are not among them belong to subjects gone before: they go.
        await (executor as Executor).execute(
          sql`delete from search_documents where type = ${type} and id > ${after} and id <= ${last} and not (id = any(${`{${ids.join(",")}}`}::integer[]))`,
        );
        await indexSubjects(executor as Executor, type, ids);
      });
      done += ids.length;
      after = last;
      progress(done, total, type);
    }
    await db.execute(sql`delete from search_documents where type = ${type} and id > ${after}`);
  }
  return done;
}

async function countIds(db: Executor, type: SearchType): Promise<number> {
  const kind = searchKind(type);
  if (!kind) return 0;
  let count = 0;
  let after = 0;
  for (;;) {
    const ids = await kind.ids(db, after, 5000);
    if (ids.length === 0) return count;
    count += ids.length;
    after = ids.at(-1)!;
  }
}

/**
 * At start-up: a kind with subjects but no index rows (a new store whose seed wrote rows directly,
 * or the first start after this feature) is indexed once.
 */
export async function ensureSearchIndex(db: Executor): Promise<void> {
  const missing: SearchType[] = [];
  for (const kind of searchKinds()) {
    const type = kind.type;
    if ((await kind.ids(db, 0, 1)).length === 0) continue;
    const [row] = await db.select({ id: searchDocuments.id }).from(searchDocuments).where(eq(searchDocuments.type, type)).limit(1);
    if (!row) missing.push(type);
  }
  if (missing.length > 0) await rebuildIndex(db, () => {}, 200, missing);
}

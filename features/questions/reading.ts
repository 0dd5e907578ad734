import { eq } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { questions } from "../../server/db/schema/index.ts";
import { adornmentsTag, circleTag, contentTag, countsTag, userTags } from "../../server/lib/cache-tags.ts";
import { taggedMemory } from "../../server/lib/tagged-memory.ts";
import { AppError } from "../../common/app-error.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { readableCircleIds } from "../circles/access.server.ts";
import type { CircleAccess } from "../circles/policy.ts";
import { withAdornments, type Adornments } from "../shop/service.ts";
import {
  categoriesOfQuestions,
  hotQuestions,
  listAnswers,
  personCard,
  readableQuestionAccess,
  type AnswerItem,
  type QuestionDetails,
  type QuestionRow,
} from "./service.ts";
import { similarQuestions } from "./similar.ts";
import { questionState } from "./viewer-state.ts";
import type { SimilarQuestion } from "./types.ts";

/** Answers on the remembered first page (the page's own page size). */
export const firstAnswersLimit = 20;

/** What the question page shows the same to every reader of the question. */
export interface QuestionReading {
  row: QuestionRow;
  author: QuestionDetails["author"];
  categories: QuestionDetails["categories"];
  /** The first page by votes (the page's default), with what each answerer wears. */
  firstAnswers: { items: (AnswerItem & { author: AnswerItem["author"] & Adornments })[]; nextCursor: string | null };
  hot: Awaited<ReturnType<typeof hotQuestions>>;
  /** Similar questions of the question's own circle: shown to viewers who may read that circle. */
  similar: SimilarQuestion[];
}

/**
 * The question page's content, remembered under the tags of what it shows: the question
 * (`contentTag`: edits, accepts, new, edited, hidden and deleted answers; `countsTag`), its circle
 * (categories, the hot and similar panels), its asker's and answerers' cards (`userTag`,
 * `adornmentsTag`) and each listed answer's text and counters (likes, comments). Like the
 * anonymous page cache, an entry lives a minute at most (the panels' order, the view count).
 */
const readings = taggedMemory<QuestionReading | null>("questions/reading", { ttlMs: 60_000, maxEntries: 2_000 });

async function loadReading(db: Executor, id: number): Promise<{ value: QuestionReading | null; tags: string[] }> {
  const [row] = await db.select().from(questions).where(eq(questions.id, id)).limit(1);
  if (!row) return { value: null, tags: [contentTag("question", id)] };
  const [author, categories, listed, hot] = await Promise.all([
    personCard(db, row.authorId),
    categoriesOfQuestions(db, [row.id]).then((map) => map.get(row.id) ?? []),
    listAnswers(db, row, { sort: "votes", limit: firstAnswersLimit }),
    hotQuestions(db, row.circleId, row.id),
  ]);
  const similar = await similarQuestions(db, {
    q: row.title,
    circleIds: [row.circleId],
    exceptId: row.id,
    categoryIds: categories.map((category) => category.id),
    limit: 5,
  });
  const people = await withAdornments(
    db,
    listed.items.map((item) => item.author),
  );
  const items = listed.items.map((item, index) => ({ ...item, author: people[index]! }));
  const answererIds = items.map((item) => item.author.id);
  const tags = [
    contentTag("question", row.id),
    countsTag("question", row.id),
    circleTag(row.circleId),
    ...userTags([row.authorId, ...answererIds]),
    ...[...new Set(answererIds)].map(adornmentsTag),
    ...items.flatMap((item) => [contentTag("answer", item.id), countsTag("answer", item.id)]),
  ];
  return { value: { row, author, categories, firstAnswers: { items, nextCursor: listed.nextCursor }, hot, similar }, tags };
}

/**
 * The question page's data of question `id` for this viewer, or `not_found` as
 * `loadReadableQuestion`. No query when remembered: the content above, the viewer's access
 * (remembered memberships), follows and answers.
 */
export async function questionReading(
  db: Executor,
  viewer: Viewer | null,
  id: number,
): Promise<QuestionReading & { access: CircleAccess; following: boolean; myAnswer: QuestionDetails["myAnswer"] }> {
  const reading = await readings.read(db, id, () => loadReading(db, id));
  if (!reading) throw new AppError("not_found");
  const access = await readableQuestionAccess(db, viewer, reading.row);
  const [state, readable] = await Promise.all([
    viewer ? questionState(db, viewer.id) : Promise.resolve(null),
    readableCircleIds(db, viewer),
  ]);
  return {
    ...reading,
    similar: readable.includes(reading.row.circleId) ? reading.similar : [],
    access,
    following: state?.follows.has(id) ?? false,
    myAnswer: state?.answers.get(id) ?? null,
  };
}

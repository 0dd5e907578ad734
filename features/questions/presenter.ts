import { z } from "zod";
import type { Viewer } from "../accounts/viewer.ts";
import type { CircleAccess } from "../circles/policy.ts";
import { answerPath, questionPath } from "./paths.ts";
import { canOnAnswer, questionPermissions } from "./policy.ts";
import { questionLanguageValues } from "./schema.ts";
import type { AnswerItem, AnswerRow, PersonCard, QuestionDetails, QuestionListItem, QuestionRow } from "./service.ts";
import type { SimilarQuestion } from "./similar.ts";

/* Rows → snake_case answers (pure), with the zod schemas the API declares (strict: keep in step). */

const personSchema = z.strictObject({ id: z.number(), username: z.string(), nickname: z.string(), avatar: z.string().nullable() });
const categorySchema = z.strictObject({ id: z.number(), name: z.string() });

export const createdSchema = z.strictObject({ id: z.number(), url: z.string() });

const presentPerson = (person: PersonCard) => ({
  id: person.id,
  username: person.username,
  nickname: person.nickname,
  avatar: person.avatar,
});

export const questionListItemSchema = z.strictObject({
  id: z.number(),
  circle_id: z.number(),
  title: z.string(),
  excerpt: z.string(),
  language: z.enum(questionLanguageValues),
  answer_count: z.number(),
  views: z.number(),
  published_at: z.string(),
  author: personSchema,
  categories: z.array(categorySchema),
  best_answer: z.strictObject({ id: z.number(), excerpt: z.string(), accepted: z.boolean(), author: personSchema }).nullable(),
  url: z.string(),
});

export const questionListPageSchema = z.strictObject({ items: z.array(questionListItemSchema), next_cursor: z.string().nullable() });

export function presentQuestionListItem(item: QuestionListItem): z.infer<typeof questionListItemSchema> {
  return {
    id: item.id,
    circle_id: item.circleId,
    title: item.title,
    excerpt: item.excerpt,
    language: item.language,
    answer_count: item.answerCount,
    views: item.views,
    published_at: item.publishedAt,
    author: presentPerson(item.author),
    categories: item.categories,
    best_answer: item.bestAnswer
      ? {
          id: item.bestAnswer.id,
          excerpt: item.bestAnswer.excerpt,
          accepted: item.bestAnswer.accepted,
          author: presentPerson(item.bestAnswer.author),
        }
      : null,
    url: item.url,
  };
}

export function presentQuestionListPage(page: { items: QuestionListItem[]; nextCursor: string | null }) {
  return { items: page.items.map(presentQuestionListItem), next_cursor: page.nextCursor };
}

export const questionAnswerSchema = z.strictObject({
  id: z.number(),
  url: z.string(),
  circle_id: z.number(),
  title: z.string(),
  content: z.string(),
  html: z.string(),
  excerpt: z.string(),
  language: z.enum(questionLanguageValues),
  categories: z.array(categorySchema),
  related_entries: z.array(z.number()),
  author: personSchema.nullable(),
  answer_count: z.number(),
  views: z.number(),
  accepted_answer_id: z.number().nullable(),
  version: z.number(),
  published_at: z.string(),
  edited_at: z.string().nullable(),
  following: z.boolean(),
  my_answer: z.strictObject({ id: z.number(), url: z.string(), version: z.number() }).nullable(),
  can: z.strictObject({ edit: z.boolean(), delete: z.boolean(), answer: z.boolean(), accept: z.boolean(), follow: z.boolean() }),
});
export type PresentedQuestion = z.infer<typeof questionAnswerSchema>;

export function presentQuestion(
  viewer: Pick<Viewer, "id" | "username"> | null,
  row: QuestionRow,
  access: CircleAccess,
  details: QuestionDetails,
): PresentedQuestion {
  return {
    id: row.id,
    url: questionPath(row),
    circle_id: row.circleId,
    title: row.title,
    content: row.markdown,
    html: row.html,
    excerpt: row.excerpt,
    language: row.language,
    categories: details.categories,
    related_entries: row.relatedEntryIds,
    author: details.author ? presentPerson(details.author) : null,
    answer_count: row.answerCount,
    views: row.views,
    accepted_answer_id: row.acceptedAnswerId,
    version: row.version,
    published_at: row.publishedAt.toISOString(),
    edited_at: row.editedAt?.toISOString() ?? null,
    following: details.following,
    my_answer:
      details.myAnswer && viewer
        ? { id: details.myAnswer.id, version: details.myAnswer.version, url: answerPath(row, viewer.username) }
        : null,
    can: questionPermissions(viewer as Viewer | null, { question: row, access }),
  };
}

export const answerItemSchema = z.strictObject({
  id: z.number(),
  question_id: z.number(),
  html: z.string(),
  excerpt: z.string(),
  text_length: z.number(),
  version: z.number(),
  like_count: z.number(),
  comment_count: z.number(),
  accepted: z.boolean(),
  published_at: z.string(),
  edited_at: z.string().nullable(),
  author: personSchema,
  url: z.string(),
});

export function presentAnswerItem(item: AnswerItem): z.infer<typeof answerItemSchema> {
  return {
    id: item.id,
    question_id: item.questionId,
    html: item.html,
    excerpt: item.excerpt,
    text_length: item.textLength,
    version: item.version,
    like_count: item.likeCount,
    comment_count: item.commentCount,
    accepted: item.accepted,
    published_at: item.publishedAt,
    edited_at: item.editedAt,
    author: presentPerson(item.author),
    url: item.url,
  };
}

export const answerPageSchema = z.strictObject({ items: z.array(answerItemSchema), next_cursor: z.string().nullable() });

export function presentAnswerPage(page: { items: AnswerItem[]; nextCursor: string | null }) {
  return { items: page.items.map(presentAnswerItem), next_cursor: page.nextCursor };
}

export const answerDetailSchema = answerItemSchema.extend({
  content: z.string(),
  question: z.strictObject({ id: z.number(), circle_id: z.number(), title: z.string(), url: z.string() }),
  can: z.strictObject({ edit: z.boolean(), delete: z.boolean() }),
});

export function presentAnswerDetail(
  viewer: Viewer | null,
  loaded: { row: AnswerRow; question: QuestionRow; access: CircleAccess },
  item: AnswerItem,
): z.infer<typeof answerDetailSchema> {
  const resource = { question: loaded.question, access: loaded.access, answer: loaded.row };
  return {
    ...presentAnswerItem(item),
    content: loaded.row.markdown,
    question: {
      id: loaded.question.id,
      circle_id: loaded.question.circleId,
      title: loaded.question.title,
      url: questionPath(loaded.question),
    },
    can: { edit: canOnAnswer(viewer, "edit", resource), delete: canOnAnswer(viewer, "delete", resource) },
  };
}

export const similarListSchema = z
  .array(z.strictObject({ id: z.number(), title: z.string(), answer_count: z.number(), url: z.string() }))
  .max(10);

export function presentSimilar(items: SimilarQuestion[]): z.infer<typeof similarListSchema> {
  return items.map((item) => ({ id: item.id, title: item.title, answer_count: item.answerCount, url: item.url }));
}

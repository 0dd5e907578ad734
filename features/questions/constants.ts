/**
 * The fixed values of questions and answers, without zod: route modules and components import
 * these (schema.ts builds the input schemas from them), so reading pages never ship zod.
 */
export const questionLanguageValues = ["zh-CN", "en"] as const;
export type QuestionLanguage = (typeof questionLanguageValues)[number];

/** Question lists of a circle: Latest, Hot, Unanswered. */
export const questionTabValues = ["latest", "hot", "unanswered"] as const;
export type QuestionTab = (typeof questionTabValues)[number];

/** Answers of a question, by votes (likes) or by time. */
export const answerSortValues = ["votes", "time"] as const;
export type AnswerSort = (typeof answerSortValues)[number];

/**
 * The kinds of subject: everything that can be read, commented on, liked, favourited, shared,
 * reported, notified about or searched. Each registers once in features/<domain>/subject.ts
 * (see registry.ts).
 */
export const subjectTypes = ["writing", "book", "chapter", "entry", "comment", "user", "circle", "question", "answer"] as const;
export type SubjectType = (typeof subjectTypes)[number];

/**
 * The kinds with a tab of their own on the ranking page, in tab order, scored from their daily
 * rollups (features/search/ranking.ts). Here, beside the kinds' names, because the ranking page and
 * its zod schemas are built before the registry is complete (and the page is browser code).
 */
export const rankedSubjectTypes = ["writing", "question", "entry", "book"] as const satisfies readonly SubjectType[];

export function isSubjectType(value: string): value is SubjectType {
  return (subjectTypes as readonly string[]).includes(value);
}

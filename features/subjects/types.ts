/**
 * The kinds of subject: everything that can be read, commented on, liked, favourited, shared,
 * reported, notified about or searched. Each registers once in features/<domain>/subject.ts
 * (see registry.ts).
 */
export const subjectTypes = ["writing", "book", "chapter", "entry", "comment", "user", "circle", "question", "answer"] as const;
export type SubjectType = (typeof subjectTypes)[number];

export function isSubjectType(value: string): value is SubjectType {
  return (subjectTypes as readonly string[]).includes(value);
}

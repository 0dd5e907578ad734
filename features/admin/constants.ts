/** The kinds `/admin/content` finds (shared by the page's filter and the service). */
export const contentKinds = ["writing", "book", "chapter", "question", "answer", "entry", "comment"] as const;
export type ContentKind = (typeof contentKinds)[number];

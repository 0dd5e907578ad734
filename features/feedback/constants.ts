/** What a feedback is about, and where it stands; shared by the table, the schemas and the pages. */
export const feedbackCategories = ["suggestion", "bug", "content", "account", "other"] as const;
export type FeedbackCategory = (typeof feedbackCategories)[number];

/** `new` until an admin reads it; `in_progress` while it is worked on; `resolved` or `declined` at the end (the sender sees which). */
export const feedbackStatuses = ["new", "in_progress", "resolved", "declined"] as const;
export type FeedbackStatus = (typeof feedbackStatuses)[number];

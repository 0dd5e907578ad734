/** Names shared by the search and ranking services and their pages (no server code: pages import it). */
export const rankingPeriods = ["day", "week", "month"] as const;
export type RankingPeriod = (typeof rankingPeriods)[number];
export const rankingKinds = ["writing", "question", "entry", "book", "creator"] as const;
export type RankingKind = (typeof rankingKinds)[number];

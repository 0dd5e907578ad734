import { rankedSubjectTypes } from "../subjects/types.ts";

/** Names shared by the search and ranking services and their pages (no server code: pages import it). */
export const rankingPeriods = ["day", "week", "month"] as const;
export type RankingPeriod = (typeof rankingPeriods)[number];
/** The ranking page's tabs: the ranked kinds of content (declared beside the kinds' names), then creators. */
export const rankingKinds = [...rankedSubjectTypes, "creator"] as const;
export type RankingKind = (typeof rankingKinds)[number];

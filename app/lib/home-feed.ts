/** The home feed's tabs and cards, shared by its loader (home-feed.server.ts) and its components. */
import type { FeedCard } from "../../features/feeds/types.ts";

export { feedTabs as homeTabs, type FeedTab as HomeTab } from "../../features/feeds/types.ts";

/** One card of the home feed: a writing, a new book or a new chapter, its circle named. */
export interface FeedCardData extends Omit<FeedCard, "circleId"> {
  circle: { id: number; name: string } | null;
}

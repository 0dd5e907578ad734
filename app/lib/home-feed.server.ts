import type { AppContext } from "../context.ts";
import type { CircleNode } from "../../features/circles/service.ts";
import { listFeed } from "../../features/feeds/service.ts";
import { groupFeedCards, type FeedCardData, type HomeTab } from "./home-feed.ts";

/** Every circle of the tree by id (names in the page's language). */
function circleNames(tree: CircleNode[]): Map<number, string> {
  const names = new Map<number, string>();
  const walk = (nodes: CircleNode[]) => {
    for (const node of nodes) {
      names.set(node.id, node.name);
      walk(node.children);
    }
  };
  walk(tree);
  return names;
}

/**
 * A page of the home feed: the union of every registered feed kind (writings, books, chapters;
 * `listFeed` in features/feeds), paged by its keyset cursor, with each card's circle named in the
 * page's language.
 */
export async function homeFeed(
  app: AppContext,
  tab: HomeTab,
  cursor: string | null,
  tree: CircleNode[],
): Promise<{ cards: FeedCardData[]; nextCursor: string | null }> {
  // Feeds tolerate a short lag: the read replica when it is caught up (server/lib/read-routing.ts).
  const page = await listFeed(app.readDb, app.viewer, { tab, cursor, limit: 20, locale: app.locale });
  const names = circleNames(tree);
  return {
    cards: groupFeedCards(
      page.cards.map(({ circleId, ...card }) => ({
        ...card,
        circle: names.has(circleId) ? { id: circleId, name: names.get(circleId)! } : null,
      })),
    ),
    nextCursor: page.nextCursor,
  };
}

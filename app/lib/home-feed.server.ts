import type { AppContext } from "../context.ts";
import type { CircleNode } from "../../features/circles/service.ts";
import { listWritings } from "../../features/writings/queries.ts";
import { writingPath } from "../../features/writings/paths.ts";
import { listBookFeed } from "../../features/books/feed.ts";
import { countWritingComments } from "../../features/comments/counts.ts";
import type { FeedCardData, HomeTab } from "./home-feed.ts";

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

const cursorTime = (cursor: string | null): Date | null => {
  const match = cursor ? /^t(\d{1,15})_\d{1,10}$/.exec(cursor) : null;
  return match ? new Date(Number(match[1])) : null;
};

/**
 * A page of the home feed. Writings page by their cursor as before; on Latest and All the new
 * books and chapters of the same time span (from this page's last writing up to the cursor) are
 * merged in by time, so paging through the feed shows each exactly once.
 */
export async function homeFeed(
  app: AppContext,
  tab: HomeTab,
  cursor: string | null,
  tree: CircleNode[],
): Promise<{ cards: FeedCardData[]; nextCursor: string | null }> {
  const page = await listWritings(app.db, app.viewer, { tab, cursor, limit: 20, locale: app.locale });
  const withBooks = tab === "latest" || tab === "all";
  const last = page.items.at(-1);
  const [comments, bookItems] = await Promise.all([
    countWritingComments(
      app.db,
      page.items.map((item) => item.id),
    ),
    withBooks
      ? listBookFeed(app.db, app.viewer, {
          upTo: cursorTime(cursor),
          after: page.nextCursor && last ? new Date(last.publishedAt) : null,
          limit: 20,
        })
      : Promise.resolve([]),
  ]);
  const names = circleNames(tree);
  const circleOf = (id: number) => (names.has(id) ? { id, name: names.get(id)! } : null);
  const cards: FeedCardData[] = [
    ...page.items.map((item) => ({
      key: `writing-${item.id}`,
      kind: item.type,
      title: item.title,
      path: writingPath(item),
      excerpt: item.excerpt,
      language: item.language,
      coverFileId: item.coverFileId,
      author: item.author,
      circle: circleOf(item.circleId),
      at: item.publishedAt,
      views: item.views,
      comments: comments.get(item.id) ?? 0,
      partNumber: item.type === "serial" ? item.partNumber : null,
      bookName: null,
      chapterNumber: null,
    })),
    ...bookItems.map((item) => ({
      key: `${item.kind}-${item.id}`,
      kind: item.kind,
      title: item.title,
      path: item.path,
      excerpt: item.excerpt,
      language: null,
      coverFileId: item.coverFileId,
      author: item.author,
      circle: circleOf(item.circleId),
      at: item.at,
      views: item.views,
      comments: null,
      partNumber: null,
      bookName: item.bookName,
      chapterNumber: item.chapterNumber,
    })),
  ];
  // Hot keeps its score order; the others read newest first.
  if (tab !== "hot") cards.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0));
  return { cards, nextCursor: page.nextCursor };
}

/** The home feed's tabs and cards, shared by its loader (home-feed.server.ts) and its components. */
import type { FeedCard } from "../../features/feeds/types.ts";

export { feedTabs as homeTabs, type FeedTab as HomeTab } from "../../features/feeds/types.ts";

/** One card of the home feed: a writing, a new book or a new chapter, its circle named. */
export interface FeedCardData extends Omit<FeedCard, "circleId"> {
  circle: { id: number; name: string } | null;
  /** An answer's question (its title and page): the card names it. */
  question?: { title: string; path: string };
  /** A book's new chapters on this page, newest first: one card for the book. */
  chapters?: { id: number; title: string; path: string; number: number | null }[];
}

/** An answer's page is its question's page and the answerer's name. */
function questionPathOf(answerPath: string): string {
  return answerPath.slice(0, answerPath.lastIndexOf("/"));
}

/** A chapter's page is under its book's (`/circles/{cid}/books/{id}/chapters/{chapter}`). */
function bookPathOf(chapterPath: string): string {
  return chapterPath.replace(/\/chapters\/[^/]+$/, "");
}

/**
 * One card per piece on a page of the feed: an answer's card names its question and takes the
 * place of the question's own card when both are listed; a book's new chapters become one card
 * (the book's, when it is listed too), at the place of the newest of them.
 */
export function groupFeedCards(cards: readonly FeedCardData[]): FeedCardData[] {
  const answeredQuestions = new Set(cards.filter((card) => card.kind === "answer").map((card) => questionPathOf(card.path)));
  const books = new Map<string, FeedCardData>();
  const grouped: FeedCardData[] = [];
  for (const card of cards) {
    if (card.kind === "question" && answeredQuestions.has(card.path)) continue;
    if (card.kind === "answer") {
      grouped.push({ ...card, question: { title: card.title, path: questionPathOf(card.path) } });
      continue;
    }
    if (card.kind !== "chapter" && card.kind !== "book") {
      grouped.push(card);
      continue;
    }
    const bookPath = card.kind === "book" ? card.path : bookPathOf(card.path);
    let group = books.get(bookPath);
    if (!group) {
      group =
        card.kind === "book"
          ? { ...card, chapters: [] }
          : { ...card, key: `book-of-${card.key}`, label: "chapter", title: card.bookName ?? card.title, path: bookPath, chapters: [] };
      books.set(bookPath, group);
      grouped.push(group);
    } else if (card.kind === "book") {
      // The book's own card came after its chapters: the group takes its figures, keeps its place.
      Object.assign(group, { ...card, key: group.key, chapters: group.chapters, at: group.at });
    }
    if (card.kind === "chapter") group.chapters!.push({ id: card.id, title: card.title, path: card.path, number: card.chapterNumber });
  }
  return grouped;
}

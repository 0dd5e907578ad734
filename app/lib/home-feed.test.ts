import { describe, expect, it } from "vitest";
import { groupFeedCards, type FeedCardData } from "./home-feed.ts";

const author = { id: 1, username: "alice", nickname: "Alice", avatar: null } as unknown as FeedCardData["author"];

function card(kind: string, id: number, title: string, path: string, extra: Partial<FeedCardData> = {}): FeedCardData {
  return {
    key: `${kind}-${id}`,
    kind,
    id,
    label: kind,
    title,
    path,
    excerpt: `${title} …`,
    language: "zh-CN",
    coverFileId: null,
    author,
    circle: { id: 2, name: "数学" },
    at: "2026-12-07T00:00:00.000Z",
    views: 0,
    comments: null,
    likes: 0,
    partNumber: null,
    bookName: null,
    chapterNumber: null,
    ...extra,
  };
}

describe("grouping the home feed", () => {
  it("shows a question and its answer as one card that names the question", () => {
    const cards = groupFeedCards([
      card("answer", 9, "勾股定理怎么证明？", "/circles/2/questions/5/alice"),
      card("writing", 3, "欧拉恒等式", "/circles/2/writing/3"),
      card("question", 5, "勾股定理怎么证明？", "/circles/2/questions/5"),
      card("question", 6, "另一个问题？", "/circles/2/questions/6"),
    ]);
    expect(cards.map((item) => item.key)).toEqual(["answer-9", "writing-3", "question-6"]);
    expect(cards[0]!.question).toEqual({ title: "勾股定理怎么证明？", path: "/circles/2/questions/5" });
  });

  it("shows a book and its three new chapters as one card, at the newest one's place", () => {
    const chapter = (id: number, number: number) =>
      card("chapter", id, `第${number}章`, `/circles/2/books/4/chapters/${id}`, { bookName: "数论入门", chapterNumber: number });
    const cards = groupFeedCards([
      chapter(13, 3),
      card("writing", 3, "欧拉恒等式", "/circles/2/writing/3"),
      chapter(12, 2),
      chapter(11, 1),
      card("book", 4, "数论入门", "/circles/2/books/4", { views: 7 }),
      card("chapter", 21, "序章", "/circles/2/books/8/chapters/21", { bookName: "几何入门", chapterNumber: 1 }),
    ]);
    expect(cards).toHaveLength(3);
    const [book, writing, other] = cards;
    expect(writing!.key).toBe("writing-3");
    expect(book!.title).toBe("数论入门");
    expect(book!.path).toBe("/circles/2/books/4");
    expect(book!.views).toBe(7);
    expect(book!.chapters!.map((item) => item.number)).toEqual([3, 2, 1]);
    expect(other!.chapters).toHaveLength(1);
    expect(other!.title).toBe("几何入门");
    expect(other!.path).toBe("/circles/2/books/8");
  });
});

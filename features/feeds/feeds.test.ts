import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { createBook, createCircle, createFollow, createSignedInUser, createUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { bookChapters, books, writings } from "../../server/db/schema/index.ts";
import { presentViewer } from "../accounts/viewer.ts";
import { recomputeHotScores } from "../subjects/hot.ts";
import { listFeed } from "./service.ts";
import { readableCircles } from "../circles/access.server.ts";
import { invalidate } from "../../server/lib/invalidation.ts";
import { circlesTag } from "../../server/lib/cache-tags.ts";
import type { FeedTab } from "./types.ts";

/** The home feeds over every registered kind (issue 21 "Feeds and the creator's desk", issue 20 "books in the feeds"). */
describe.each(databaseKinds)("feeds on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  async function everything(viewer: Parameters<typeof listFeed>[1], tab: FeedTab, limit: number): Promise<string[]> {
    const keys: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 50; page += 1) {
      const result = await listFeed(db(), viewer, { tab, cursor, limit });
      keys.push(...result.cards.map((card) => card.key));
      if (!result.nextCursor) break;
      cursor = result.nextCursor;
    }
    return keys;
  }

  it("Follow lists writings, books and new chapters by followed users, newest first, each once across pages, and only what the viewer may read", async () => {
    const reader = await createUser(db());
    const followed = await createUser(db());
    const stranger = await createUser(db());
    await createFollow(db(), reader, followed);
    const open = await createCircle(db());
    const closed = await createCircle(db(), { visibility: "members" });
    const article = await createWriting(db(), followed, { circleId: open.id, title: "关注的文章" });
    const post = await createWriting(db(), followed, { circleId: open.id, type: "post" });
    const book = await createBook(db(), followed, { circleId: open.id, chapters: ["第一章", "第二章"] });
    const hidden = await createWriting(db(), followed, { circleId: closed.id });
    const hiddenBook = await createBook(db(), followed, { circleId: closed.id, chapters: ["秘密"] });
    const other = await createWriting(db(), stranger, { circleId: open.id });
    const otherBook = await createBook(db(), stranger, { circleId: open.id, chapters: ["别人的章"] });
    // Distinct, known times: the article newest, then the chapters, the book, the post. One chapter
    // shares its time with the post, so the order between kinds at one instant is exercised too.
    const at = (hours: number) => sql`now() - ${hours} * interval '1 hour'`;
    await db()
      .update(writings)
      .set({ publishedAt: at(1) })
      .where(eq(writings.id, article.id));
    await db()
      .update(bookChapters)
      .set({ createdAt: at(2) })
      .where(eq(bookChapters.id, book.chapters[1]!.id));
    await db()
      .update(bookChapters)
      .set({ createdAt: at(3) })
      .where(eq(bookChapters.id, book.chapters[0]!.id));
    await db()
      .update(books)
      .set({ createdAt: at(4) })
      .where(eq(books.id, book.id));
    await db()
      .update(writings)
      .set({ publishedAt: sql`(select created_at from book_chapters where id = ${book.chapters[0]!.id})` })
      .where(eq(writings.id, post.id));

    const viewer = presentViewer(reader);
    const expected = [`writing-${article.id}`, `chapter-${book.chapters[1]!.id}`];
    // At one instant: the higher id first, then the kind (descending).
    const sameInstant = [
      { key: `writing-${post.id}`, id: post.id, kind: "writing" },
      { key: `chapter-${book.chapters[0]!.id}`, id: book.chapters[0]!.id, kind: "chapter" },
    ]
      .sort((a, b) => b.id - a.id || (a.kind < b.kind ? 1 : -1))
      .map((item) => item.key);
    const all = [...expected, ...sameInstant, `book-${book.id}`];
    for (const limit of [1, 2, 3, 20]) expect(await everything(viewer, "follow", limit)).toEqual(all);
    const page = await listFeed(db(), viewer, { tab: "follow" });
    const chapterCard = page.cards.find((card) => card.kind === "chapter")!;
    expect(chapterCard).toMatchObject({
      bookName: book.name,
      author: { id: followed.id },
      path: `/circles/${open.id}/books/${book.id}/chapters/${chapterCard.id}`,
    });
    // Nothing of the members-only circle, nothing by others.
    const keys = page.cards.map((card) => card.key);
    for (const key of [
      `writing-${hidden.id}`,
      `book-${hiddenBook.id}`,
      `chapter-${hiddenBook.chapters[0]!.id}`,
      `writing-${other.id}`,
      `book-${otherBook.id}`,
    ])
      expect(keys).not.toContain(key);
    // Visitors have no Follow feed; the API and the page's tab read the same service.
    expect((await listFeed(db(), null, { tab: "follow" })).cards).toEqual([]);
  });

  it("Follow includes new content in joined circles; Latest and All page through writings, books and chapters once each", async () => {
    const { user: member, visitor } = await createSignedInUser(api.app, db());
    const author = await createUser(db());
    const circle = await createCircle(db());
    await db().execute(sql`insert into circle_members (circle_id, user_id, role) values (${circle.id}, ${member.id}, 'member')`);
    const book = await createBook(db(), author, { circleId: circle.id, chapters: ["加入圈子的章"] });
    const follow = (await listFeed(db(), presentViewer(member), { tab: "follow", limit: 50 })).cards.map((card) => card.key);
    expect(follow).toEqual(expect.arrayContaining([`book-${book.id}`, `chapter-${book.chapters[0]!.id}`]));

    for (const tab of ["latest", "all"] as const) {
      const whole = (await listFeed(db(), null, { tab, limit: 50 })).cards.map((card) => card.key);
      expect(whole).toContain(`book-${book.id}`);
      expect(whole).toContain(`chapter-${book.chapters[0]!.id}`);
      expect(await everything(null, tab, 2)).toEqual(whole);
    }
    // Latest leaves posts to All.
    const post = await createWriting(db(), author, { circleId: circle.id, type: "post" });
    expect((await listFeed(db(), null, { tab: "latest", limit: 50 })).cards.map((card) => card.key)).not.toContain(`writing-${post.id}`);
    expect((await listFeed(db(), null, { tab: "all", limit: 50 })).cards.map((card) => card.key)).toContain(`writing-${post.id}`);
    // The API answers the same page.
    const answer = (await visitor.get("/api/feed/?tab=follow")).json() as { items: { kind: string; id: number }[] };
    expect(answer.items.map((item) => `${item.kind}-${item.id}`)).toEqual(expect.arrayContaining([`book-${book.id}`]));
  });

  it("Hot ranks writings and books by one score over views, likes, favourites, comments and shares", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const author = await createUser(db());
    const circle = await createCircle(db());
    const writing = await createWriting(db(), author, { circleId: circle.id });
    const book = await createBook(db(), author, { circleId: circle.id });
    const hotOrder = async () =>
      (await everything(null, "hot", 3)).filter((key) => key === `writing-${writing.id}` || key === `book-${book.id}`);
    const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000);
    await db().update(writings).set({ publishedAt: twoHoursAgo }).where(eq(writings.id, writing.id));
    await db().update(books).set({ updatedAt: twoHoursAgo }).where(eq(books.id, book.id));
    const score = async () => {
      const [w] = await db().select({ score: writings.hotScore }).from(writings).where(eq(writings.id, writing.id));
      const [b] = await db().select({ score: books.hotScore }).from(books).where(eq(books.id, book.id));
      return { writing: w!.score, book: b!.score };
    };
    // Same age, no engagement: the same score (the tie goes to the higher id, then the kind).
    expect((await score()).book).toBeCloseTo((await score()).writing, 10);

    // A share of the book lifts it above the writing: shares are in the formula (weight 3).
    expect((await visitor.post(`/api/subjects/book/${book.id}/share/`, {})).statusCode).toBe(200);
    const shared = await score();
    expect(shared.book / shared.writing).toBeCloseTo(4, 5);
    expect(await hotOrder()).toEqual([`book-${book.id}`, `writing-${writing.id}`]);

    // A like on the writing (weight 5) puts it back on top; a like on the book (5 + 3 + 1 = 9) above it again.
    expect((await visitor.request("PUT", `/api/subjects/writing/${writing.id}/reaction/`, { json: { reaction: "like" } })).statusCode).toBe(
      200,
    );
    expect(await hotOrder()).toEqual([`writing-${writing.id}`, `book-${book.id}`]);
    expect((await visitor.request("PUT", `/api/subjects/book/${book.id}/reaction/`, { json: { reaction: "like" } })).statusCode).toBe(200);
    expect(await hotOrder()).toEqual([`book-${book.id}`, `writing-${writing.id}`]);
    const liked = await score();
    expect(liked.book / liked.writing).toBeCloseTo(9 / 6, 5);

    // The hourly recompute keeps both on the one formula for the new instant.
    await recomputeHotScores(db());
    const after = await score();
    expect(after.book / after.writing).toBeCloseTo(9 / 6, 5);
    expect(await hotOrder()).toEqual([`book-${book.id}`, `writing-${writing.id}`]);
  });
  it("keeps unreadable circles out whichever list the condition names: the readable circles, or all but the unreadable ones", async () => {
    const author = await createUser(db());
    const member = await createUser(db());
    const open = await createCircle(db());
    const closed = await createCircle(db(), { visibility: "members" });
    await db().execute(sql`insert into circle_members (circle_id, user_id, role) values (${closed.id}, ${member.id}, 'member')`);
    const visible = await createWriting(db(), author, { circleId: open.id });
    const secret = await createWriting(db(), author, { circleId: closed.id });
    const shown = async (viewer: Parameters<typeof listFeed>[1]) =>
      (await everything(viewer, "all", 20)).filter((key) => key === `writing-${visible.id}` || key === `writing-${secret.id}`);

    // Most circles are readable: the condition names the few others.
    const few = await readableCircles(db(), null);
    expect(few).toMatchObject({ except: true });
    expect(few.ids).toContain(closed.id);
    expect(await shown(null)).toEqual([`writing-${visible.id}`]);
    expect(await shown(presentViewer(member))).toEqual([`writing-${secret.id}`, `writing-${visible.id}`]);

    // Most circles closed: the condition names the readable ones.
    const closing = await db().execute(
      sql`update circles set visibility = 'members' where visibility = 'public' and parent_id is not null and id <> ${open.id} returning id`,
    );
    await invalidate([circlesTag]);
    try {
      const many = await readableCircles(db(), null);
      expect(many.except).toBe(false);
      expect(many.ids).toContain(open.id);
      expect(many.ids).not.toContain(closed.id);
      expect(await shown(null)).toEqual([`writing-${visible.id}`]);
      expect(await shown(presentViewer(member))).toEqual([`writing-${secret.id}`, `writing-${visible.id}`]);
    } finally {
      const ids = (closing as unknown as { rows: { id: number }[] }).rows.map((row) => Number(row.id));
      await db().execute(sql`update circles set visibility = 'public' where id = any(${`{${ids.join(",")}}`}::integer[])`);
      await invalidate([circlesTag]);
    }
  });
});

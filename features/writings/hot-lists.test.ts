import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import {
  addMember,
  createCircle,
  createComment,
  createFollow,
  createSignedInUser,
  createUser,
  createWriting,
} from "../../tests/support/factories.ts";
import { presentViewer } from "../accounts/viewer.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { writings } from "../../server/db/schema/index.ts";
import { listWritings } from "./queries.ts";
import { recordView } from "../metrics/views.ts";
import { hotRecomputeDue, recomputeHotScores } from "../subjects/hot.ts";

/** The stored Hot score and keyset paging of the lists (issue 19, "Scale"). */
describe.each(databaseKinds)("Hot score and list paging on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  async function hotIds(circleId: number): Promise<number[]> {
    return (await listWritings(db(), null, { tab: "hot", circleId, limit: 50 })).items.map((item) => item.id);
  }

  it("a writing gaining comments rises in Hot, and falls back when they are deleted", async () => {
    const { user, visitor } = await createSignedInUser(api.app, db());
    const circle = await createCircle(db());
    const older = await createWriting(db(), user, { circleId: circle.id, title: "older" });
    await db()
      .update(writings)
      .set({ publishedAt: sql`now() - interval '3 hours'` })
      .where(eq(writings.id, older.id));
    const newer = await createWriting(db(), user, { circleId: circle.id, title: "newer" });
    // Same engagement: the newer one ranks first.
    expect(await hotIds(circle.id)).toEqual([newer.id, older.id]);

    const posted: number[] = [];
    for (const body of ["第一条评论", "第二条评论"]) {
      const response = await visitor.post(`/api/writings/${older.id}/comments/`, { body });
      expect(response.statusCode, response.body).toBe(201);
      posted.push((response.json() as { id: number }).id);
    }
    const [row] = await db().select().from(writings).where(eq(writings.id, older.id));
    expect(row!.commentCount).toBe(2);
    expect(await hotIds(circle.id)).toEqual([older.id, newer.id]);
    // The home feed's Hot tab (the API) shows the same order.
    const feed = (await visitor.get("/api/writings/?tab=hot")).json() as { items: { id: number }[] };
    const order = feed.items.map((item) => item.id).filter((id) => id === older.id || id === newer.id);
    expect(order).toEqual([older.id, newer.id]);

    for (const id of posted) expect((await visitor.request("DELETE", `/api/comments/${id}/`)).statusCode).toBeLessThan(300);
    const [after] = await db().select().from(writings).where(eq(writings.id, older.id));
    expect(after!.commentCount).toBe(0);
    expect(await hotIds(circle.id)).toEqual([newer.id, older.id]);
  });

  it("views raise the score; the hourly recompute recounts comments and keeps the ranking's meaning", async () => {
    const author = await createUser(db());
    const circle = await createCircle(db());
    const viewed = await createWriting(db(), author, { circleId: circle.id });
    await db()
      .update(writings)
      .set({ publishedAt: sql`now() - interval '1 hour'` })
      .where(eq(writings.id, viewed.id));
    const plain = await createWriting(db(), author, { circleId: circle.id });
    expect(await hotIds(circle.id)).toEqual([plain.id, viewed.id]);
    for (let visitor = 0; visitor < 5; visitor += 1)
      await recordView({ db: db() }, { type: "writing", id: viewed.id }, `v:test-${visitor}`, { bot: false });
    expect(await hotIds(circle.id)).toEqual([viewed.id, plain.id]);

    // A comment written without an event (as when rows arrive another way) is counted by the recompute.
    const commented = await createWriting(db(), author, { circleId: circle.id });
    await createComment(db(), commented.id, author);
    await createComment(db(), commented.id, author);
    await createComment(db(), commented.id, author, { deleted: true });
    // Small batches: several transactions, the same result.
    await recomputeHotScores(db(), 2);
    const rows = await db()
      .select({
        id: writings.id,
        commentCount: writings.commentCount,
        stored: writings.hotScore,
        formula: sql<number>`((${writings.views} + 10 * ${writings.commentCount} + 1)::float8 / power(extract(epoch from ((select reference_at from hot_clock) - ${writings.publishedAt})) / 3600.0 + 2, 1.5))`,
      })
      .from(writings)
      .where(eq(writings.circleId, circle.id));
    expect(rows.find((row) => row.id === commented.id)!.commentCount).toBe(2);
    for (const row of rows) expect(row.stored).toBeCloseTo(row.formula, 9);
    expect(await hotIds(circle.id)).toEqual([commented.id, viewed.id, plain.id]);
  });

  it("a start-up recompute is due only when the last one is over an interval old", async () => {
    const hour = 60 * 60 * 1000;
    await recomputeHotScores(db());
    expect(await hotRecomputeDue(db(), hour)).toBe(false);
    await db().execute(sql`update hot_clock set reference_at = now() - interval '2 hours' where id = 1`);
    expect(await hotRecomputeDue(db(), hour)).toBe(true);
    await recomputeHotScores(db());
    expect(await hotRecomputeDue(db(), hour)).toBe(false);
  });

  it("keyset paging returns every item once, in order, for Latest, All, Hot and an author's list", async () => {
    const author = await createUser(db());
    const circle = await createCircle(db());
    const ids: number[] = [];
    for (let index = 0; index < 23; index += 1) {
      ids.push((await createWriting(db(), author, { circleId: circle.id, type: index % 4 === 0 ? "post" : "article" })).id);
    }
    // Ties and microseconds: five share one instant, three more differ within one millisecond.
    await db()
      .update(writings)
      .set({ publishedAt: sql`timestamptz '2026-01-01 00:00:00.123456+00'` })
      .where(sql`${writings.id} in (${sql.join(ids.slice(0, 5), sql`, `)})`);
    for (const [offset, id] of ids.slice(5, 8).entries()) {
      await db()
        .update(writings)
        .set({ publishedAt: sql`timestamptz '2026-01-01 00:00:00.123456+00' + ${offset + 1} * interval '1 microsecond'` })
        .where(eq(writings.id, id));
    }
    for (const [index, id] of ids.entries()) {
      for (let view = 0; view < index % 3; view += 1)
        await recordView({ db: db() }, { type: "writing", id: id }, `v:page-${view}`, { bot: false });
    }
    // Follow: the author followed, and another author's writings in a joined circle.
    const reader = presentViewer(await createUser(db()));
    await createFollow(db(), reader, author);
    const joined = await createCircle(db());
    await addMember(db(), joined.id, reader.id);
    const other = await createUser(db());
    const joinedIds: number[] = [];
    for (let index = 0; index < 6; index += 1) joinedIds.push((await createWriting(db(), other, { circleId: joined.id })).id);
    const cases = [
      { tab: "latest" as const, circleId: circle.id, expected: ids.filter((_, index) => index % 4 !== 0) },
      { tab: "all" as const, circleId: circle.id, expected: ids },
      { tab: "hot" as const, circleId: circle.id, expected: ids },
      { tab: "all" as const, authorId: author.id, expected: ids },
      { tab: "follow" as const, viewer: reader, expected: [...ids, ...joinedIds] },
    ];
    for (const { expected, viewer = null, ...options } of cases) {
      const seen: number[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const page = await listWritings(db(), viewer, { ...options, cursor, limit: 4 });
        seen.push(...page.items.map((item) => item.id));
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor && pages < 20);
      expect(seen.length, options.tab).toBe(expected.length);
      expect(new Set(seen), options.tab).toEqual(new Set(expected));
      const full = (await listWritings(db(), viewer, { ...options, limit: 50 })).items.map((item) => item.id);
      expect(seen, options.tab).toEqual(full);
    }
  });

  it("a malformed cursor reads the first page", async () => {
    const first = await listWritings(db(), null, { tab: "hot", limit: 3 });
    for (const cursor of ["h_1", "hNaN_2", "u12_", "x", "t1_1_1"]) {
      expect((await listWritings(db(), null, { tab: "hot", cursor, limit: 3 })).items).toEqual(first.items);
    }
  });
});

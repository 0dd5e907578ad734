import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createEntry, createQuestion, createSignedInUser, createWriting } from "../../tests/support/factories.ts";
import { parsePosition, positionCookieName, replicaMayServe } from "./read-routing.ts";

describe("read replica positions", () => {
  it("parses WAL positions and compares them as numbers", () => {
    expect(parsePosition("0/16B3748")).toBe(0x16b3748n);
    expect(parsePosition("1A/0")! > parsePosition("19/FFFFFFFF")!).toBe(true);
    expect(parsePosition("not a position")).toBeNull();
    expect(parsePosition(undefined)).toBeNull();
  });

  it("serves from the replica only when it has replayed the reader's write and what this process knows changed", () => {
    expect(replicaMayServe("caught-up", 5n, 9n)).toBe(true);
    expect(replicaMayServe(10n, 5n, 9n)).toBe(true);
    expect(replicaMayServe(8n, 5n, 9n)).toBe(false); // the reader's own write is not replayed yet
    expect(replicaMayServe(8n, 9n, null)).toBe(false); // a change this process was told of is not replayed
    expect(replicaMayServe(null, 0n, null)).toBe(false); // the replica did not answer
    expect(replicaMayServe(100n, -1n, null)).toBe(false); // the primary could not say where it is
  });
});

/**
 * With DATABASE_REPLICA_URL, search, rankings, feeds and anonymous pages read from the replica.
 * Here the "replica" is the same database on read-only connections, so a write through that path
 * fails loudly: every anonymous page below must render from it.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)("read replica routing on postgres", () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi("postgres", { pages: true, readOnlyReplica: true });
  });
  afterAll(() => api.close());

  it("reaches the replica on read-only connections (so the tests below would catch a write)", async () => {
    const replica = await api.app.readRouting!.forRead();
    expect(replica).not.toBe(api.database.db);
    const failure = await replica.execute(sql`create temporary table replica_probe (id int)`).then(
      () => null,
      (error: Error) => error,
    );
    expect(String((failure?.cause as Error | undefined)?.message)).toMatch(/read-only transaction/);
  });

  it("answers search, suggestions, rankings and the feed from the replica", async () => {
    const visitor = new Visitor(api.app);
    const before = api.app.readRouting!.counts.replica;
    for (const path of ["/api/search/?q=%E6%95%B0%E5%AD%A6", "/api/search/suggest/?q=shuxue", "/api/ranking/", "/api/feed/?tab=latest"]) {
      const response = await visitor.get(path);
      expect(response.statusCode, path).toBe(200);
    }
    expect(api.app.readRouting!.counts.replica - before).toBe(4);
  });

  it("renders anonymous pages from the replica and keeps page writes on the primary", async () => {
    const author = await createSignedInUser(api.app, api.database.db);
    const writing = await createWriting(api.database.db, author.user, { title: "副本上的文章" });
    const question = await createQuestion(api.database.db, author.user, { title: "副本上的问题？" });
    const entry = await createEntry(api.database.db, 1, author.user, { name: "副本词条" });
    const visitor = new Visitor(api.app);
    const before = api.app.readRouting!.counts.replica;
    const pages = [
      "/",
      "/en",
      "/circles/1",
      `/circles/1/writing/${writing.id}`,
      `/circles/1/questions/${question.id}`,
      `/circles/1/encyclopedia/${entry.id}`,
      "/wiki",
      "/ranking",
      "/search?q=%E5%89%AF%E6%9C%AC",
      `/profile/${author.user.username}`,
      "/login",
    ];
    for (const path of pages) {
      const response = await visitor.get(path);
      expect([200, 301, 302], `${path}: ${response.body.slice(0, 200)}`).toContain(response.statusCode);
    }
    expect(api.app.readRouting!.counts.replica - before).toBe(pages.length);
  });

  it("answers a signed-in user's write with the primary's position, which their next reads must see", async () => {
    const author = await createSignedInUser(api.app, api.database.db);
    const created = await author.visitor.post("/api/circles/1/writings/", { title: "我的新文章", content: "正文" });
    expect(created.statusCode).toBe(201);
    const position = author.visitor.cookies.get(positionCookieName);
    expect(parsePosition(position)).not.toBeNull();
    // Reads carry the cookie; the same server is not a standby, so it counts as caught up.
    const feed = await author.visitor.get("/api/feed/?tab=latest");
    expect(feed.statusCode).toBe(200);
    expect(JSON.stringify(feed.json())).toContain("我的新文章");
    // Anonymous writes (view beacons) never ask the primary for its position.
    const anonymous = new Visitor(api.app);
    await anonymous.get("/api/feed/");
    expect(anonymous.cookies.has(positionCookieName)).toBe(false);
  });
});

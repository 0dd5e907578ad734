import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { addMember, createBook, createCircle, createSignedInUser, createUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { books, writings } from "../../server/db/schema/index.ts";
import { inTransaction } from "../../server/lib/transactions.ts";
import { emit } from "../events/bus.ts";
import { searchPlan } from "./candidates.ts";
import { indexSubjects, rebuildIndex } from "./indexer.ts";

interface Answer {
  results: { type: string; id: number; title: string; snippet: string; url: string; circle: { id: number } | null }[];
  next_cursor: string | null;
  total_estimate: number;
  did_you_mean: string | null;
}

/** Search over every kind (issue 25): words, folding, aliases, pinyin, visibility, hostile queries. */
describe.each(databaseKinds)("search API on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  const find = async (q: string, visitor = new Visitor(api.app), extra = ""): Promise<Answer> => {
    const response = await visitor.get(`/api/search/?q=${encodeURIComponent(q)}${extra}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as Answer;
  };
  const keys = (answer: Answer) => answer.results.map((result) => `${result.type}-${result.id}`);

  it("finds a published article on the next request by a two-character word inside longer words and by traditional characters; deleted, it is gone", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const published = await visitor.post("/api/circles/1/writings/", {
      title: "建国以来的发展史",
      content: "中华人民共和国成立以来，数学研究取得了长足进步。",
    });
    expect(published.statusCode, published.body).toBe(201);
    const { id } = published.json() as { id: number };
    const byWord = await find("人民");
    expect(keys(byWord)).toContain(`writing-${id}`);
    expect(byWord.results.find((result) => result.id === id)!.snippet).toContain("<mark>人民</mark>");
    expect(keys(await find("數學"))).toContain(`writing-${id}`);
    expect(keys(await find("数学", visitor, "&type=book"))).not.toContain(`writing-${id}`);
    const deleted = await visitor.request("DELETE", `/api/writings/${id}/`);
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    expect(keys(await find("人民"))).not.toContain(`writing-${id}`);
  });

  it("takes an alias as a synonym: it finds the entry and the writings related to it; pinyin and initials suggest the entry", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const created = await visitor.post("/api/circles/1/encyclopedia/entries/", {
      name: "令狐冲",
      aliases: ["令狐少侠"],
      content: "《笑傲江湖》的主人公，华山派弟子。",
    });
    expect(created.statusCode, created.body).toBe(201);
    const entryId = (created.json() as { id: number }).id;
    const article = await visitor.post("/api/circles/1/writings/", {
      title: "读笑傲江湖",
      content: "主人公的剑法是独孤九剑。",
      related_entries: [entryId],
    });
    expect(article.statusCode, article.body).toBe(201);
    const articleId = (article.json() as { id: number }).id;
    const byAlias = await find("令狐少侠");
    expect(keys(byAlias)).toEqual(expect.arrayContaining([`entry-${entryId}`, `writing-${articleId}`]));
    expect(keys(await find("令狐冲"))).toContain(`writing-${articleId}`);
    for (const typed of ["linghuchong", "linghu", "lhc"]) {
      const response = await new Visitor(api.app).get(`/api/search/suggest/?q=${typed}`);
      expect(response.statusCode).toBe(200);
      const { suggestions } = response.json() as { suggestions: { type: string; id: number; title: string }[] };
      expect(
        suggestions.map((item) => `${item.type}-${item.id}`),
        typed,
      ).toContain(`entry-${entryId}`);
      expect(suggestions.length).toBeLessThanOrEqual(8);
    }
  });

  it("finds by pinyin what the suggestions find: names, titles and aliases, never body text", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const entry = await visitor.post("/api/circles/1/encyclopedia/entries/", {
      name: "费马大定理",
      aliases: ["勾股数猜想"],
      content: "数论中的著名定理。",
    });
    expect(entry.statusCode, entry.body).toBe(201);
    const entryId = (entry.json() as { id: number }).id;
    const titled = await visitor.post("/api/circles/1/writings/", { title: "数学的乐趣", content: "一篇关于证明的随笔。" });
    const bodyOnly = await visitor.post("/api/circles/1/writings/", { title: "周末随笔", content: "今天读了一本数学书，讲勾股和费马。" });
    const titledKey = `writing-${(titled.json() as { id: number }).id}`;
    const bodyKey = `writing-${(bodyOnly.json() as { id: number }).id}`;
    for (const [typed, expected] of [
      ["shuxue", titledKey],
      ["feima", `entry-${entryId}`],
      ["gougu", `entry-${entryId}`],
    ] as const) {
      const suggested = (await new Visitor(api.app).get(`/api/search/suggest/?q=${typed}`)).json() as {
        suggestions: { type: string; id: number }[];
      };
      expect(
        suggested.suggestions.map((item) => `${item.type}-${item.id}`),
        typed,
      ).toContain(expected);
      const found = keys(await find(typed));
      expect(found, typed).toContain(expected);
      expect(found, typed).not.toContain(bodyKey);
    }
  });

  it("shows formulas in snippets as a marker, never their source, and leaves code blocks out", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const published = await visitor.post("/api/circles/1/writings/", {
      title: "直角三角形札记",
      content: "```python\nprint(hypotenuse)\n```\n\n毕达哥拉斯关系 $$ a^2 + b^2 = c^2 $$ 对每个直角三角形成立。",
    });
    expect(published.statusCode, published.body).toBe(201);
    const { id } = published.json() as { id: number };
    const found = (await find("毕达哥拉斯")).results.find((result) => result.id === id && result.type === "writing");
    expect(found?.snippet).toContain("[公式]");
    for (const source of ["$$", "a^2", "print", "hypotenuse"]) expect(found?.snippet).not.toContain(source);
  });

  it("never shows what the viewer may not read: members-only circles to others, hidden writings to anyone", async () => {
    const author = await createUser(db());
    const outsider = await createSignedInUser(api.app, db());
    const closed = await createCircle(db(), { visibility: "members" });
    await addMember(db(), closed.id, author.id);
    const secret = await createWriting(db(), author, { circleId: closed.id, title: "机密的量子计算笔记" });
    const open = await createWriting(db(), author, { circleId: 1, title: "公开的量子计算笔记" });
    await rebuildIndex(db());
    const member = await createSignedInUser(api.app, db());
    await addMember(db(), closed.id, member.user.id);
    expect(keys(await find("量子计算", member.visitor))).toEqual(expect.arrayContaining([`writing-${secret.id}`, `writing-${open.id}`]));
    expect(keys(await find("量子计算", outsider.visitor))).not.toContain(`writing-${secret.id}`);
    expect(keys(await find("量子计算"))).not.toContain(`writing-${secret.id}`);

    await db().update(writings).set({ hiddenAt: new Date() }).where(eq(writings.id, open.id));
    await db().transaction(async (tx) => indexSubjects(tx as never, "writing", [open.id]));
    expect(keys(await find("量子计算", member.visitor))).not.toContain(`writing-${open.id}`);

    // A book hidden by moderation takes its chapters out of search; restored, both come back.
    const book = await createBook(db(), author, { name: "量子力学讲义", chapters: ["量子纠缠入门"] });
    await rebuildIndex(db());
    const chapterKey = `chapter-${book.chapters[0]!.id}`;
    expect(keys(await find("量子纠缠"))).toContain(chapterKey);
    const decide = async (hiddenAt: Date | null, action: "hide" | "restore") => {
      await db().update(books).set({ hiddenAt }).where(eq(books.id, book.id));
      await inTransaction({ db: db() }, (tx) =>
        emit(tx, {
          verb: "moderation.decided",
          actorId: null,
          subjectType: "book",
          subjectId: book.id,
          data: { caseId: 1, action, note: "" },
        }),
      );
    };
    await decide(new Date(), "hide");
    expect(keys(await find("量子纠缠"))).not.toContain(chapterKey);
    await decide(null, "restore");
    expect(keys(await find("量子纠缠"))).toContain(chapterKey);
  });

  it("answers hostile and odd queries with results or an empty list, never an error; pages by cursor; suggests a near title", async () => {
    const author = await createUser(db());
    for (let index = 0; index < 3; index += 1) await createWriting(db(), author, { circleId: 1, title: `Photosynthesis notes ${index}` });
    await rebuildIndex(db());
    for (const q of ["&|!():*", "'", "\\", "a:*", "<script>alert(1)</script>", "x".repeat(10000), "", " ", "中", "C++", "e=mc^2", "%_%"]) {
      const answer = await find(q);
      expect(Array.isArray(answer.results), q).toBe(true);
    }
    const bad = await new Visitor(api.app).get("/api/search/?q=a&type=nope&circle_id=abc&cursor=zz&sort=x");
    expect(bad.statusCode).toBe(200);
    const first = await find("photosynthesis", new Visitor(api.app), "&sort=newest");
    expect(first.results).toHaveLength(3);
    expect(first.results[0]!.title).toMatch(/^Photosynthesis notes/);
    expect((await find("photosynthesis", new Visitor(api.app), "&cursor=o2")).results).toHaveLength(1);
    expect((await find("photosynthesis", new Visitor(api.app), "&language=en")).results).toHaveLength(0);
    const typo = await find("photosinthesis");
    expect(typo.results).toHaveLength(0);
    expect(typo.did_you_mean).toMatch(/^Photosynthesis notes/);
  });

  it("ranks the same results whether the matches are read through the word indexes first (rare words) or in rank order (common words)", async () => {
    const author = await createUser(db());
    for (let index = 0; index < 4; index += 1) {
      await createWriting(db(), author, {
        circleId: 1,
        title: `Topology lecture ${index}`,
        content: `manifold ${"common ".repeat(index)}`,
      });
    }
    await rebuildIndex(db());
    const saved = { ...searchPlan };
    const read = async (q: string, extra = "") => {
      const answer = await find(q, new Visitor(api.app), extra);
      return { keys: keys(answer), total: answer.total_estimate };
    };
    const queries = [["topology"], ["manifold"], ["lecture", "&sort=newest"], ["topology lecture", "&cursor=o2"]] as const;
    try {
      const rare = await Promise.all(queries.map(([q, extra]) => read(q, extra)));
      expect(rare[0]!.keys).toHaveLength(4);
      expect(rare[0]!.total).toBe(4);
      Object.assign(searchPlan, { rareMatches: -1, rareShare: 0 });
      expect(await Promise.all(queries.map(([q, extra]) => read(q, extra)))).toEqual(rare);
      // The estimate said rare but there were more matches than the rare plan reads: the common plan answers.
      Object.assign(searchPlan, { ...saved, rareCap: 2 });
      expect(await Promise.all(queries.map(([q, extra]) => read(q, extra)))).toEqual(rare);
    } finally {
      Object.assign(searchPlan, saved);
    }
  });
});

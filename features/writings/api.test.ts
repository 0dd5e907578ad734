import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { addCategory, addMember, createCircle, createEntry, createSignedInUser, createFollow } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { testPng } from "../../tests/support/images.ts";
import { events, writings } from "../../server/db/schema/index.ts";
import { onInvalidate } from "../../server/lib/invalidation.ts";
import { recordView } from "../metrics/views.ts";

const article = (overrides: Record<string, unknown> = {}) => ({
  title: "勾股定理的证明",
  content: "# 引言\n\n设 $a^2 + b^2 = c^2$。\n\n```ts\nconst x = 1;\n```\n",
  ...overrides,
});

describe.each(databaseKinds)("writings API on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());

  const db = () => api.database.db;
  const signedIn = () => createSignedInUser(api.app, db());
  const publish = async (visitor: Visitor, circleId = 1, body: Record<string, unknown> = article()) => {
    const response = await visitor.post(`/api/circles/${circleId}/writings/`, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: number; url: string };
  };

  describe("publishing", () => {
    it("publishes an article: 201 with id and url, rendered HTML with math and code, an event, tags invalidated", async () => {
      const { user, visitor } = await signedIn();
      const circle = await createCircle(db());
      const category = await addCategory(db(), circle.id);
      const entries: number[] = [];
      for (let index = 0; index < 5; index += 1) entries.push((await createEntry(db(), index < 3 ? circle.id : 1, user)).id);
      const tags: string[] = [];
      const stop = onInvalidate((invalidated) => tags.push(...invalidated));
      const { id, url } = await publish(
        visitor,
        circle.id,
        article({
          categories: [category.id],
          kind: "custom",
          kind_name: "读书笔记",
          related_entries: [...entries, entries[0]],
          disable_copy: true,
          tip_enabled: true,
          pay_to_view_price: 5,
        }),
      );
      stop();
      expect(url).toBe(`/circles/${circle.id}/writing/${id}`);
      const got = (await visitor.get(`/api/writings/${id}/`)).json();
      expect(got).toMatchObject({
        id,
        type: "article",
        kind: "custom",
        kind_name: "读书笔记",
        language: "zh-CN",
        title: "勾股定理的证明",
        version: 1,
        views: 0,
        related_entries: entries,
        disable_copy: true,
        tip_enabled: true,
        pay_to_view_price: 5,
        author: { id: user.id },
        categories: [{ id: category.id }],
        can: { edit: true, delete: true },
      });
      expect(got.html).toContain("katex");
      expect(got.html).toContain("shiki");
      expect(got.toc).toEqual([expect.objectContaining({ text: "引言" })]);
      expect(got.text_length).toBeGreaterThan(5);
      expect(
        await db()
          .select()
          .from(events)
          .where(and(eq(events.verb, "writing.published"), eq(events.subjectId, id))),
      ).toHaveLength(1);
      expect(tags).toEqual(expect.arrayContaining([`writing:${id}`, `circle:${circle.id}`, "home", "sitemap"]));
    });

    it("refuses a sixth related entry, a foreign category, a bad cover and a missing title with localized field messages", async () => {
      const { visitor } = await signedIn();
      const circle = await createCircle(db());
      const elsewhere = await addCategory(db(), (await createCircle(db())).id);
      const six = await visitor.post(`/api/circles/${circle.id}/writings/`, article({ related_entries: [1, 2, 3, 4, 5, 6, 6] }), {
        "accept-language": "en",
      });
      expect(six.statusCode).toBe(400);
      expect(six.json()).toMatchObject({
        code: "validation_failed",
        fields: { related_entries: "At most five related entries per content item." },
      });
      const foreign = await visitor.post(`/api/circles/${circle.id}/writings/`, article({ categories: [elsewhere.id] }), {
        "accept-language": "en",
      });
      expect(foreign.statusCode).toBe(400);
      expect(foreign.json().fields).toEqual({ categories: "Please choose categories of this circle." });
      expect((await visitor.post(`/api/circles/${circle.id}/writings/`, article({ cover_file_id: "nope" }))).statusCode).toBe(400);
      const untitled = await visitor.post(`/api/circles/${circle.id}/writings/`, article({ title: "  " }), { "accept-language": "en" });
      expect(untitled.json()).toMatchObject({ code: "validation_failed", fields: { title: "Please enter a title." } });
      const empty = await visitor.post(`/api/circles/${circle.id}/writings/`, article({ content: " " }));
      expect(empty.statusCode).toBe(400);
      expect((await visitor.post(`/api/circles/${circle.id}/writings/`, article({ type: "book" }))).statusCode).toBe(400);
      expect((await visitor.post(`/api/circles/${circle.id}/writings/`, article({ is_repost: true }))).json().fields).toHaveProperty(
        "source_url",
      );
      expect((await visitor.post(`/api/circles/${circle.id}/writings/`, "not json")).statusCode).toBe(400);
    });

    it("takes documents far above the small-form body limit, and refuses more than 200 KiB of Markdown with 400", async () => {
      const { visitor } = await signedIn();
      const long = `# 长文\n\n${"中文段落，".repeat(12_000)}\n`;
      const { id } = await publish(visitor, 1, article({ content: long }));
      expect((await visitor.get(`/api/writings/${id}/`)).json().text_length).toBeGreaterThan(50_000);
      const draft = await visitor.request("PUT", "/api/drafts/long-one/", { json: { title: "长", body: long, version: 0 } });
      expect(draft.statusCode).toBe(200);
      const tooLong = await visitor.post("/api/circles/1/writings/", article({ content: "字".repeat(70_000) }), {
        "accept-language": "en",
      });
      expect(tooLong.statusCode).toBe(400);
      expect(tooLong.json().fields).toEqual({ content: "The text can be at most 200 KB." });
    });

    it("keeps a category that files a writing from being deleted", async () => {
      const { user, visitor } = await signedIn();
      const circle = await createCircle(db());
      await addMember(db(), circle.id, user.id, "admin");
      const category = await addCategory(db(), circle.id);
      const { id } = await publish(visitor, circle.id, article({ categories: [category.id] }));
      expect((await visitor.request("DELETE", `/api/circles/${circle.id}/categories/${category.id}/`)).json().code).toBe("category_in_use");
      await visitor.request("PATCH", `/api/writings/${id}/`, { json: { categories: [], version: 1 } });
      expect((await visitor.request("DELETE", `/api/circles/${circle.id}/categories/${category.id}/`)).statusCode).toBe(204);
    });

    it("takes an uploaded image as cover", async () => {
      const { visitor } = await signedIn();
      const upload = await visitor.upload("/api/uploads/", { bytes: await testPng(), filename: "c.png" });
      const { id } = await publish(visitor, 1, article({ cover_file_id: upload.json().file_id }));
      expect((await visitor.get(`/api/writings/${id}/`)).json().cover_url).toBe(`/attach/${upload.json().file_id}`);
    });

    it("needs a session and CSRF; a members-only circle takes its members' writings only; a hidden circle is 404", async () => {
      const anonymous = new Visitor(api.app);
      expect((await anonymous.post("/api/circles/1/writings/", article())).statusCode).toBe(401);
      const { user, visitor } = await signedIn();
      expect((await visitor.request("POST", "/api/circles/1/writings/", { json: article(), csrf: false })).statusCode).toBe(403);
      const closed = await createCircle(db(), { visibility: "circle" });
      expect((await visitor.post(`/api/circles/${closed.id}/writings/`, article())).statusCode).toBe(403);
      await addMember(db(), closed.id, user.id);
      await publish(visitor, closed.id);
      const hidden = await createCircle(db(), { visibility: "members" });
      expect((await visitor.post(`/api/circles/${hidden.id}/writings/`, article())).statusCode).toBe(404);
    });
  });

  describe("reading", () => {
    it("hides a hidden circle's writing (404 like an unknown id) and lists it nowhere for outsiders", async () => {
      const { user, visitor } = await signedIn();
      const hidden = await createCircle(db(), { visibility: "members" });
      await addMember(db(), hidden.id, user.id);
      const { id } = await publish(visitor, hidden.id, article({ title: "秘密" }));
      expect((await visitor.get(`/api/writings/${id}/`)).statusCode).toBe(200);
      const { visitor: outsider } = await signedIn();
      expect((await outsider.get(`/api/writings/${id}/`)).statusCode).toBe(404);
      expect((await outsider.get(`/api/writings/999999/`)).statusCode).toBe(404);
      const feed = (await outsider.get("/api/writings/?tab=all")).json();
      expect(feed.items.map((item: { id: number }) => item.id)).not.toContain(id);
      expect((await visitor.get("/api/writings/?tab=all")).json().items.map((item: { id: number }) => item.id)).toContain(id);
      expect((await outsider.get(`/api/circles/${hidden.id}/writings/`)).json().items).toEqual([]);
    });

    it("counts a view once per visitor per day, not per reload", async () => {
      const { visitor } = await signedIn();
      const { id } = await publish(visitor);
      const reader = new Visitor(api.app);
      const first = await reader.get(`/api/writings/${id}/view.gif`);
      expect(first.statusCode).toBe(200);
      expect(first.headers["content-type"]).toBe("image/gif");
      await reader.get(`/api/writings/${id}/view.gif`);
      await visitor.get(`/api/writings/${id}/view.gif`);
      await visitor.get(`/api/writings/${id}/view.gif`);
      expect((await visitor.get(`/api/writings/${id}/`)).json().views).toBe(2);
      // The next day in Asia/Shanghai counts again.
      expect(await recordView({ db: db() }, { type: "writing", id }, "u:424242", { bot: false }, new Date("2030-01-01T15:00:00Z"))).toBe(
        "counted",
      );
      expect(await recordView({ db: db() }, { type: "writing", id }, "u:424242", { bot: false }, new Date("2030-01-01T16:30:00Z"))).toBe(
        "counted",
      );
      expect(await recordView({ db: db() }, { type: "writing", id }, "u:424242", { bot: false }, new Date("2030-01-01T17:00:00Z"))).toBe(
        "repeat",
      );
    });

    it("lists the home tabs with cursor paging; Follow shows followed authors and joined circles", async () => {
      const { user: author, visitor: writer } = await signedIn();
      const circle = await createCircle(db());
      const ids: number[] = [];
      for (let index = 0; index < 3; index += 1) ids.push((await publish(writer, circle.id, article({ title: `第${index}篇` }))).id);
      const post = await publish(writer, circle.id, article({ type: "post", title: "一个帖子" }));
      const first = (await writer.get(`/api/circles/${circle.id}/writings/?type=articles`)).json();
      expect(first.items.map((item: { id: number }) => item.id)).toEqual(ids.toReversed());
      // Lists speak snake_case like every other answer.
      expect(first.items[0]).toMatchObject({ circle_id: circle.id, text_length: expect.any(Number), part_number: expect.any(Number) });
      expect(Object.keys(first.items[0]).filter((key) => /[A-Z]/.test(key))).toEqual([]);
      expect(first).toHaveProperty("next_cursor");
      expect(
        (await writer.get(`/api/circles/${circle.id}/writings/?type=posts`)).json().items.map((item: { id: number }) => item.id),
      ).toEqual([post.id]);
      const latest = (await writer.get("/api/writings/?tab=latest")).json();
      expect(latest.items.map((item: { id: number }) => item.id)).not.toContain(post.id);
      const { user: reader, visitor: readerVisitor } = await signedIn();
      expect((await readerVisitor.get("/api/writings/?tab=follow")).json().items.map((item: { id: number }) => item.id)).not.toContain(
        ids[0],
      );
      await createFollow(db(), reader, author);
      expect((await readerVisitor.get("/api/writings/?tab=follow")).json().items.map((item: { id: number }) => item.id)).toContain(ids[0]);
      expect((await new Visitor(api.app).get("/api/writings/?tab=follow")).json().items).toEqual([]);
      const hot = (await writer.get("/api/writings/?tab=hot")).json();
      expect(hot.items.length).toBeGreaterThan(0);
      // Paging: a page of one at a time through the circle walks every writing once.
      const { listWritings } = await import("./queries.ts");
      const seen: number[] = [];
      let cursor: string | null = null;
      do {
        const page = await listWritings(db(), null, { tab: "all", circleId: circle.id, limit: 1, cursor });
        seen.push(...page.items.map((item) => item.id));
        cursor = page.nextCursor;
      } while (cursor);
      expect(seen).toEqual([post.id, ...ids.toReversed()]);
    });

    it("counts a circle's articles and posts on /api/circles", async () => {
      const { visitor } = await signedIn();
      const circle = await createCircle(db());
      await publish(visitor, circle.id);
      await publish(visitor, circle.id, article({ type: "post" }));
      const page = (await visitor.get(`/api/circles/${circle.id}/`)).json();
      expect(page.counts.content).toMatchObject({ articles: 1, posts: 1 });
    });
  });

  describe("editing and deleting", () => {
    it("lets only the author edit; a stale version answers 409 edit_conflict with the current version", async () => {
      const { visitor: author } = await signedIn();
      const { id } = await publish(author);
      const { user: moderatorUser, visitor: moderator } = await signedIn();
      await addMember(db(), 1, moderatorUser.id, "master");
      expect((await moderator.request("PATCH", `/api/writings/${id}/`, { json: { title: "改", version: 1 } })).statusCode).toBe(403);
      expect((await new Visitor(api.app).request("PATCH", `/api/writings/${id}/`, { json: { title: "改", version: 1 } })).statusCode).toBe(
        401,
      );
      const edited = await author.request("PATCH", `/api/writings/${id}/`, { json: { title: "新标题", content: "新的正文", version: 1 } });
      expect(edited.statusCode).toBe(200);
      expect(edited.json()).toMatchObject({ title: "新标题", version: 2, content: "新的正文" });
      expect(edited.json().edited_at).not.toBeNull();
      const stale = await author.request("PATCH", `/api/writings/${id}/`, {
        json: { title: "旧的", version: 1 },
        headers: { "accept-language": "en" },
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toMatchObject({
        code: "edit_conflict",
        current_version: 2,
        current: { title: "新标题", content: "新的正文", version: 2 },
      });
      expect(stale.json().message).toMatch(/saved this writing/);
      expect((await author.request("PATCH", `/api/writings/${id}/`, { json: { title: "x" } })).statusCode).toBe(400);
    });

    it("lets the author and the circle's moderators delete, nobody else; deleting is final", async () => {
      const { visitor: author } = await signedIn();
      const circle = await createCircle(db());
      const first = await publish(author, circle.id);
      const second = await publish(author, circle.id);
      const { visitor: stranger } = await signedIn();
      expect((await stranger.request("DELETE", `/api/writings/${first.id}/`)).statusCode).toBe(403);
      const { user: masterUser, visitor: master } = await signedIn();
      await addMember(db(), circle.id, masterUser.id, "master");
      expect((await master.request("DELETE", `/api/writings/${first.id}/`)).statusCode).toBe(204);
      expect((await author.get(`/api/writings/${first.id}/`)).statusCode).toBe(404);
      expect((await author.request("DELETE", `/api/writings/${second.id}/`)).statusCode).toBe(204);
      expect(await db().select().from(writings).where(eq(writings.id, second.id))).toEqual([]);
      expect(
        await db()
          .select()
          .from(events)
          .where(and(eq(events.verb, "writing.deleted"), eq(events.subjectId, first.id))),
      ).toHaveLength(1);
    });
  });

  describe("language versions and series", () => {
    it("adds the other language version once; versions list each other", async () => {
      const { visitor } = await signedIn();
      const { id } = await publish(visitor);
      const english = await publish(visitor, 1, article({ title: "A proof", language: "en", translation_of: id }));
      const got = (await visitor.get(`/api/writings/${english.id}/`)).json();
      expect(got.versions).toEqual([
        { id, language: "zh-CN", title: "勾股定理的证明" },
        { id: english.id, language: "en", title: "A proof" },
      ]);
      const again = await visitor.post("/api/circles/1/writings/", article({ language: "en", translation_of: id }));
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ code: "language_version_exists", existing_id: english.id });
      const { visitor: other } = await signedIn();
      expect((await other.post("/api/circles/1/writings/", article({ language: "en", translation_of: id }))).statusCode).toBe(403);
    });

    it("numbers the parts of a serialized article with previous and next", async () => {
      const { visitor } = await signedIn();
      const one = await publish(visitor, 1, article({ type: "serial", title: "第一回" }));
      const two = await publish(visitor, 1, article({ series_id: one.id, title: "第二回" }));
      const three = await publish(visitor, 1, article({ series_id: two.id, title: "第三回" }));
      const middle = (await visitor.get(`/api/writings/${two.id}/`)).json();
      expect(middle.series).toMatchObject({ id: one.id, part_number: 2, previous: one.id, next: three.id });
      expect(middle.series.parts.map((part: { part_number: number }) => part.part_number)).toEqual([1, 2, 3]);
      const plain = await publish(visitor, 1);
      expect((await visitor.post("/api/circles/1/writings/", article({ series_id: plain.id }))).statusCode).toBe(400);
      // Deleting part 1 keeps the series together.
      await visitor.request("DELETE", `/api/writings/${one.id}/`);
      const after = (await visitor.get(`/api/writings/${three.id}/`)).json();
      expect(after.series).toMatchObject({ id: two.id, previous: two.id, next: null });
    });
  });

  describe("summary", () => {
    it("stores an optional summary that becomes the excerpt of lists and the answer; clearing it brings back the text's own", async () => {
      const { visitor } = await signedIn();
      const circle = await createCircle(db());
      const { id } = await publish(visitor, circle.id, article({ summary: "  三种证明，\n一次读懂。  " }));
      const got = (await visitor.get(`/api/writings/${id}/`)).json();
      // Line breaks and runs of spaces become one space; the summary is the excerpt.
      expect(got).toMatchObject({ summary: "三种证明， 一次读懂。", excerpt: "三种证明， 一次读懂。" });
      const listed = (await visitor.get(`/api/circles/${circle.id}/writings/`)).json();
      expect(listed.items.find((item: { id: number }) => item.id === id)?.excerpt).toBe("三种证明， 一次读懂。");
      const cleared = await visitor.request("PATCH", `/api/writings/${id}/`, { json: { summary: "", version: got.version } });
      expect(cleared.statusCode, cleared.body).toBe(200);
      expect(cleared.json().summary).toBe("");
      expect(cleared.json().excerpt).toContain("设");
      expect(cleared.json().excerpt).not.toContain("三种证明");
      // A summary added later wins over the text without touching it.
      const added = await visitor.request("PATCH", `/api/writings/${id}/`, {
        json: { summary: "后来的摘要", version: cleared.json().version },
      });
      expect(added.json()).toMatchObject({ summary: "后来的摘要", excerpt: "后来的摘要", content: article().content });
    });

    it("refuses a summary over 200 characters with the field's localized message", async () => {
      const { visitor } = await signedIn();
      const long = await visitor.post("/api/circles/1/writings/", article({ summary: "长".repeat(201) }));
      expect(long.statusCode).toBe(400);
      expect(long.json().fields.summary).toBe("摘要最多 200 个字符。");
      const english = await visitor.request("POST", "/api/circles/1/writings/", {
        json: article({ summary: "x".repeat(201) }),
        headers: { "accept-language": "en" },
      });
      expect(english.json().fields.summary).toBe("A summary has at most 200 characters.");
      expect((await visitor.post("/api/circles/1/writings/", article({ summary: "长".repeat(200) }))).statusCode).toBe(201);
    });
  });

  describe("drafts and preview", () => {
    it("saves, lists, reads and deletes drafts; a stale version answers 409 with both versions", async () => {
      const { visitor } = await signedIn();
      const saved = await visitor.request("PUT", "/api/drafts/new-article-1/", {
        json: { title: "草稿", body: "正文", fields: { kind: "note" }, version: 0 },
      });
      expect(saved.statusCode).toBe(200);
      expect(saved.json()).toMatchObject({ key: "new-article-1", version: 1 });
      const next = await visitor.request("PUT", "/api/drafts/new-article-1/", { json: { title: "草稿", body: "正文二", version: 1 } });
      expect(next.json().version).toBe(2);
      const conflict = await visitor.request("PUT", "/api/drafts/new-article-1/", {
        json: { title: "另一个标签页", body: "旧", version: 1 },
      });
      expect(conflict.statusCode).toBe(409);
      expect(conflict.json()).toMatchObject({
        code: "draft_conflict",
        current: { body: "正文二", version: 2 },
        yours: { body: "旧", version: 1 },
      });
      const forced = await visitor.request("PUT", "/api/drafts/new-article-1/", {
        json: { title: "另一个标签页", body: "旧", version: 1, force: true },
      });
      expect(forced.json()).toMatchObject({ body: "旧", version: 3 });
      expect((await visitor.get("/api/drafts/")).json().drafts).toEqual([
        expect.objectContaining({ key: "new-article-1", title: "另一个标签页" }),
      ]);
      const { visitor: other } = await signedIn();
      expect((await other.get("/api/drafts/new-article-1/")).statusCode).toBe(404);
      expect((await visitor.request("PUT", "/api/drafts/Bad Key/", { json: { version: 0 } })).statusCode).toBe(400);
      expect((await visitor.request("DELETE", "/api/drafts/new-article-1/")).statusCode).toBe(204);
      expect((await visitor.get("/api/drafts/")).json().drafts).toEqual([]);
      expect((await new Visitor(api.app).get("/api/drafts/")).statusCode).toBe(401);
    });

    it("previews Markdown through the pipeline for signed-in users only", async () => {
      const { visitor } = await signedIn();
      const preview = await visitor.post("/api/content/preview/", { content: "## 标题\n\n$x^2$ <script>alert(1)</script>" });
      expect(preview.statusCode).toBe(200);
      expect(preview.json().html).toContain("katex");
      expect(preview.json().html).not.toContain("<script");
      expect(preview.json().toc).toEqual([expect.objectContaining({ text: "标题" })]);
      expect((await new Visitor(api.app).post("/api/content/preview/", { content: "x" })).statusCode).toBe(401);
    });
  });
});

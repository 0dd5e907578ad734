import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { addMember, createCircle, createEntry, createSignedInUser, createUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { getEntry } from "./service.ts";
import { recordView } from "../metrics/views.ts";

const article = (overrides: Record<string, unknown> = {}) => ({ title: "关联词条", content: "正文。", ...overrides });
let counter = 0;
/** A word no other test's entries contain. */
const word = (prefix: string) => `${prefix}${process.pid % 1000}x${(counter += 1)}`;

describe.each(databaseKinds)("encyclopedia API on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());

  const db = () => api.database.db;
  const search = async (visitor: Visitor, query: string) => {
    const response = await visitor.get(`/api/encyclopedia/entries/?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return (
      response.json() as {
        results: {
          id: number;
          name: string;
          aliases: string[];
          disambiguation: string | null;
          circle_id: number;
          circle_name: string;
          url: string;
        }[];
      }
    ).results;
  };

  describe("search", () => {
    it("matches names and aliases case-insensitively, name prefixes first, and says each entry's circle and page", async () => {
      const creator = await createUser(db());
      const circle = await createCircle(db(), { nameZh: word("数学圈"), nameEn: word("Maths ") });
      const stem = word("Recur");
      const inside = await createEntry(db(), circle.id, creator, { name: `Tail ${stem}sion`, disambiguation: "programming" });
      const prefixed = await createEntry(db(), circle.id, creator, {
        name: `${stem}sion`,
        aliases: ["自我调用"],
        disambiguation: "computer science",
      });
      const aliased = await createEntry(db(), 1, creator, { name: word("递归"), aliases: [`${stem.toUpperCase()}SIVE DEFINITION`] });
      await createEntry(db(), circle.id, creator, { name: word("Unrelated") });
      const visitor = new Visitor(api.app, { "accept-language": "en" });
      const results = await search(visitor, `q=${encodeURIComponent(stem.toLowerCase())}`);
      expect(results.map((entry) => entry.id)).toEqual([prefixed.id, aliased.id, inside.id]);
      expect(results[0]).toEqual({
        id: prefixed.id,
        name: `${stem}sion`,
        aliases: ["自我调用"],
        disambiguation: "computer science",
        language: "zh-CN",
        circle_id: circle.id,
        circle_name: circle.nameEn,
        url: `/circles/${circle.id}/encyclopedia/${prefixed.id}`,
      });
      // By alias alone, and within one circle.
      expect((await search(visitor, `q=${encodeURIComponent("自我调用")}`)).map((entry) => entry.id)).toEqual([prefixed.id]);
      expect((await search(visitor, `q=${stem}&circle=1`)).map((entry) => entry.id)).toEqual([aliased.id]);
      // LIKE's wildcards are plain characters.
      expect(await search(visitor, `q=${encodeURIComponent("%")}`)).toEqual([]);
      expect(await search(visitor, `q=${encodeURIComponent("_")}`)).toEqual([]);
    });

    it("answers at most ten; an empty q lists the circle's newest entries, nothing without a circle; bad queries are localized 400s", async () => {
      const creator = await createUser(db());
      const circle = await createCircle(db());
      const stem = word("Many");
      const made = [];
      for (let index = 0; index < 12; index += 1) made.push(await createEntry(db(), circle.id, creator, { name: `${stem} ${index}` }));
      const visitor = new Visitor(api.app);
      expect(await search(visitor, `q=${stem}`)).toHaveLength(10);
      expect(await search(visitor, `q=${stem}&limit=3`)).toHaveLength(3);
      expect((await search(visitor, `q=&circle=${circle.id}`)).map((entry) => entry.id)).toEqual(
        made
          .slice(2)
          .reverse()
          .map((entry) => entry.id),
      );
      expect(await search(visitor, "q=")).toEqual([]);
      expect(await search(visitor, "")).toEqual([]);
      for (const query of ["limit=11", "limit=0", "circle=abc", `q=${"x".repeat(101)}`]) {
        const response = await visitor.get(`/api/encyclopedia/entries/?${query}`, { "accept-language": "en" });
        expect(response.statusCode, query).toBe(400);
        expect(response.json().message).toMatch(/[A-Za-z]/);
      }
    });

    it("never shows entries of a circle whose content the viewer may not read", async () => {
      const { user: member, visitor: memberVisitor } = await createSignedInUser(api.app, db());
      const hidden = await createCircle(db(), { visibility: "members" });
      const closed = await createCircle(db(), { visibility: "circle" });
      await addMember(db(), hidden.id, member.id);
      await addMember(db(), closed.id, member.id);
      const stem = word("Secret");
      const secret = await createEntry(db(), hidden.id, member, { name: `${stem} hidden` });
      const inner = await createEntry(db(), closed.id, member, { name: `${stem} closed` });
      expect((await search(memberVisitor, `q=${stem}`)).map((entry) => entry.id).sort()).toEqual([secret.id, inner.id].sort());
      const { visitor: outsider } = await createSignedInUser(api.app, db());
      expect(await search(outsider, `q=${stem}`)).toEqual([]);
      expect(await search(outsider, `q=&circle=${hidden.id}`)).toEqual([]);
      expect(await search(new Visitor(api.app), `q=${stem}`)).toEqual([]);
      const response = await outsider.get(`/api/encyclopedia/entries/?q=${stem}`);
      expect(response.headers["cache-control"]).toContain("no-store");
    });

    it("is in the OpenAPI document", async () => {
      const docs = await new Visitor(api.app).get("/api/docs/json");
      expect(Object.keys(docs.json().paths)).toContain("/api/encyclopedia/entries/");
    });
  });

  describe("related entries of a writing", () => {
    it("takes existing readable entries (duplicates collapsed) and refuses unknown, unreadable or more than five, on create and on PATCH", async () => {
      const { user, visitor } = await createSignedInUser(api.app, db());
      const entries = [];
      for (let index = 0; index < 6; index += 1) entries.push(await createEntry(db(), 1, user));
      const ids = entries.map((entry) => entry.id);
      const hidden = await createCircle(db(), { visibility: "members" });
      const secret = await createEntry(db(), hidden.id, await createUser(db()));
      const en = { "accept-language": "en" };
      const refused = async (response: Awaited<ReturnType<Visitor["get"]>>, message: string) => {
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json()).toMatchObject({ code: "validation_failed", fields: { related_entries: message } });
      };
      const unknownMessage = "One of the related entries does not exist or is not yours to read: choose existing entries in the picker.";
      await refused(
        await visitor.post("/api/circles/1/writings/", article({ related_entries: [ids[0], 2_000_000_000] }), en),
        unknownMessage,
      );
      await refused(await visitor.post("/api/circles/1/writings/", article({ related_entries: [secret.id] }), en), unknownMessage);
      await refused(
        await visitor.post("/api/circles/1/writings/", article({ related_entries: ids }), en),
        "At most five related entries per content item.",
      );
      const zh = await visitor.post("/api/circles/1/writings/", article({ related_entries: [secret.id] }));
      expect(zh.json().fields.related_entries).toBe("找不到这个词条，或你无权查看它：请从选择器中选取已有的词条。");

      const created = await visitor.post("/api/circles/1/writings/", article({ related_entries: [ids[1], ids[0], ids[1]] }));
      expect(created.statusCode, created.body).toBe(201);
      const { id } = created.json();
      expect((await visitor.get(`/api/writings/${id}/`)).json().related_entries).toEqual([ids[1], ids[0]]);

      const patch = (body: Record<string, unknown>) =>
        visitor.request("PATCH", `/api/writings/${id}/`, { json: { version: 1, ...body }, headers: en });
      await refused(await patch({ related_entries: [ids[0], 2_000_000_001] }), unknownMessage);
      await refused(await patch({ related_entries: [secret.id] }), unknownMessage);
      await refused(await patch({ related_entries: ids }), "At most five related entries per content item.");
      const saved = await patch({ related_entries: [...ids.slice(1), ids[1]] });
      expect(saved.statusCode, saved.body).toBe(200);
      expect(saved.json().related_entries).toEqual(ids.slice(1));
    });
  });

  describe("circle counts", () => {
    it("counts a circle's entries", async () => {
      const creator = await createUser(db());
      const circle = await createCircle(db());
      await createEntry(db(), circle.id, creator);
      await createEntry(db(), circle.id, creator);
      const response = await new Visitor(api.app).get(`/api/circles/${circle.id}/`);
      expect(response.json().counts.content.entries).toBe(2);
    });
  });

  describe("entry counters", () => {
    const counters = async (entryId: number) => {
      const entry = await getEntry(db(), null, entryId);
      return { views: entry.views, cites: entry.citeCount };
    };

    it("counts the writings citing an entry at once, as related entries are added, changed and deleted", async () => {
      const { visitor } = await createSignedInUser(api.app, db());
      const creator = await createUser(db());
      const entry = await createEntry(db(), 1, creator, { name: word("被引词条") });
      const other = await createEntry(db(), 1, creator, { name: word("另一词条") });
      const first = (await visitor.post("/api/circles/1/writings/", article({ related_entries: [entry.id] }))).json() as { id: number };
      const second = (await visitor.post("/api/circles/1/writings/", article({ related_entries: [other.id, entry.id] }))).json() as {
        id: number;
      };
      expect(await counters(entry.id)).toMatchObject({ cites: 2 });
      expect(await counters(other.id)).toMatchObject({ cites: 1 });
      const patched = await visitor.request("PATCH", `/api/writings/${second.id}/`, { json: { version: 1, related_entries: [other.id] } });
      expect(patched.statusCode, patched.body).toBe(200);
      expect(await counters(entry.id)).toMatchObject({ cites: 1 });
      // An edit that leaves the related entries alone leaves the count alone.
      await visitor.request("PATCH", `/api/writings/${second.id}/`, { json: { version: 2, title: "改了标题" } });
      expect(await counters(other.id)).toMatchObject({ cites: 1 });
      expect((await visitor.request("DELETE", `/api/writings/${first.id}/`)).statusCode).toBe(204);
      expect(await counters(entry.id)).toMatchObject({ cites: 0 });
    });

    it("counts the writings, answers and entries linking to an entry, each source once, as they are saved and deleted", async () => {
      const { visitor } = await createSignedInUser(api.app, db());
      const creator = await createUser(db());
      const entry = await createEntry(db(), 1, creator, { name: word("被链接词条") });
      const link = `[它](/circles/1/encyclopedia/${entry.id})`;
      // Related and linked: one writing, counted once.
      const writing = (
        await visitor.post("/api/circles/1/writings/", article({ content: `见${link}。`, related_entries: [entry.id] }))
      ).json() as {
        id: number;
      };
      expect(await counters(entry.id)).toMatchObject({ cites: 1 });
      const question = (await visitor.post("/api/circles/1/questions/", { title: word("问题") })).json() as { id: number };
      const answer = await visitor.post(`/api/questions/${question.id}/answers/`, { content: `参见 ${link}。\n` });
      expect(answer.statusCode, answer.body).toBe(201);
      expect(await counters(entry.id)).toMatchObject({ cites: 2 });
      const citing = await visitor.post("/api/circles/1/encyclopedia/entries/", {
        name: word("引用者"),
        language: "zh-CN",
        content: `英文页面 [x](/en/circles/1/encyclopedia/${entry.id}/en) 和 ${link}。`,
      });
      expect(citing.statusCode, citing.body).toBe(201);
      expect(await counters(entry.id)).toMatchObject({ cites: 3 });
      const answerId = (answer.json() as { id: number }).id;
      const edited = await visitor.request("PATCH", `/api/answers/${answerId}/`, { json: { content: "不再链接。\n", version: 1 } });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(await counters(entry.id)).toMatchObject({ cites: 2 });
      expect((await visitor.request("DELETE", `/api/writings/${writing.id}/`)).statusCode).toBe(204);
      expect(await counters(entry.id)).toMatchObject({ cites: 1 });
      // A question deleted with its answers: their links go too.
      const other = (await visitor.post("/api/circles/1/questions/", { title: word("另一问题") })).json() as { id: number };
      expect((await visitor.post(`/api/questions/${other.id}/answers/`, { content: `见 ${link}。\n` })).statusCode).toBe(201);
      expect(await counters(entry.id)).toMatchObject({ cites: 2 });
      expect((await visitor.request("DELETE", `/api/questions/${other.id}/`)).statusCode).toBe(204);
      expect(await counters(entry.id)).toMatchObject({ cites: 1 });
    });

    it("counts a view once per visitor per day through the entry page's beacon", async () => {
      const creator = await createUser(db());
      const entry = await createEntry(db(), 1, creator, { name: word("浏览词条") });
      const anonymous = new Visitor(api.app);
      const first = await anonymous.get(`/api/encyclopedia/entries/${entry.id}/view.gif`);
      expect(first.statusCode).toBe(200);
      expect(first.headers["content-type"]).toBe("image/gif");
      await anonymous.get(`/api/encyclopedia/entries/${entry.id}/view.gif`);
      const { visitor: member } = await createSignedInUser(api.app, db());
      await member.get(`/api/encyclopedia/entries/${entry.id}/view.gif`);
      await member.get(`/api/encyclopedia/entries/${entry.id}/view.gif`);
      expect(await counters(entry.id)).toMatchObject({ views: 2 });
      // An unknown entry answers the pixel and counts nothing.
      expect((await anonymous.get("/api/encyclopedia/entries/2000000000/view.gif")).statusCode).toBe(200);
      expect(
        await recordView({ db: db() }, { type: "entry", id: entry.id }, "u:424242", { bot: false }, new Date("2030-01-01T15:00:00Z")),
      ).toBe("counted");
      expect(
        await recordView({ db: db() }, { type: "entry", id: entry.id }, "u:424242", { bot: false }, new Date("2030-01-01T16:30:00Z")),
      ).toBe("counted");
      expect(
        await recordView({ db: db() }, { type: "entry", id: entry.id }, "u:424242", { bot: false }, new Date("2030-01-01T17:00:00Z")),
      ).toBe("repeat");
    });
  });
});

import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import {
  addMember,
  createCircle,
  createEntry,
  createQuestion,
  createSignedInUser,
  createUser,
  createWriting,
} from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { answers, encyclopediaEntries, entryCitations, questions, writings } from "../../server/db/schema/index.ts";
import { getEntry } from "./service.ts";

let counter = 0;
const word = (prefix: string) => `${prefix}${process.pid % 1000}c${(counter += 1)}`;

/** The hand-written backfill of migration 0033 (its statements after the generated ones), run as the migration runs it. */
const backfill = readFileSync(new URL("../../server/db/migrations/0036_entry_citations_backfill.sql", import.meta.url), "utf8")
  .split("--> statement-breakpoint")
  .slice(2)
  .map((statement) => statement.trim());

describe.each(databaseKinds)("entry cite counts on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const apiCount = async (visitor: Visitor, id: number) => {
    const response = await visitor.get(`/api/encyclopedia/entries/${id}/`);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { cite_count: number }).cite_count;
  };
  const stored = async (id: number) =>
    (await db().select({ count: encyclopediaEntries.citeCount }).from(encyclopediaEntries).where(eq(encyclopediaEntries.id, id)))[0]!.count;

  it("the migration fills the citations of content written before it, each source once, and running it again changes nothing", async () => {
    const creator = await createUser(db());
    const entry = await createEntry(db(), 1, creator, { name: word("旧词条") });
    const link = `<p><a href="/circles/1/encyclopedia/${entry.id}">它</a></p>`;
    const related = await createWriting(db(), creator);
    await db()
      .update(writings)
      .set({ relatedEntryIds: [entry.id], html: link })
      .where(eq(writings.id, related.id));
    const linking = await createWriting(db(), creator);
    await db()
      .update(writings)
      .set({ html: `<p><a href="https://example.org/en/circles/1/encyclopedia/${entry.id}/en">x</a></p>` })
      .where(eq(writings.id, linking.id));
    const question = await createQuestion(db(), creator, { answerers: [creator] });
    await db()
      .update(questions)
      .set({ relatedEntryIds: [entry.id] })
      .where(eq(questions.id, question.id));
    await db().update(answers).set({ html: link }).where(eq(answers.questionId, question.id));
    const citing = await createEntry(db(), 1, creator, { name: word("旧引用者") });
    // An entry linking to itself does not cite itself; a link to a page that is no entry cites nothing.
    await db()
      .update(encyclopediaEntries)
      .set({
        descriptionHtml: `${link}<a href="/circles/1/encyclopedia/${citing.id}">self</a><a href="/circles/1/encyclopedia/write">w</a>`,
      })
      .where(eq(encyclopediaEntries.id, citing.id));
    await db().delete(entryCitations).where(eq(entryCitations.entryId, entry.id));
    await db().update(encyclopediaEntries).set({ citeCount: 0 }).where(eq(encyclopediaEntries.id, entry.id));
    for (const round of [1, 2]) {
      for (const statement of backfill) await db().execute(sql.raw(statement));
      const rows = await db()
        .select({ type: entryCitations.sourceType, id: entryCitations.sourceId })
        .from(entryCitations)
        .where(eq(entryCitations.entryId, entry.id));
      expect(rows.map((row) => `${row.type}:${row.id}`).sort(), `round ${round}`).toEqual(
        [
          `writing:${related.id}`,
          `writing:${linking.id}`,
          `question:${question.id}`,
          `answer:${question.answers[0]!.id}`,
          `entry:${citing.id}`,
        ].sort(),
      );
      expect(await stored(entry.id)).toBe(5);
      expect(await stored(citing.id)).toBe(0);
    }
  });

  it("counts questions relating to an entry as they are asked, edited and deleted", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const creator = await createUser(db());
    const entry = await createEntry(db(), 1, creator, { name: word("问题关联") });
    const asked = await visitor.post("/api/circles/1/questions/", { title: word("关于词条的问题"), related_entries: [entry.id] });
    expect(asked.statusCode, asked.body).toBe(201);
    const { id } = asked.json() as { id: number };
    expect(await apiCount(visitor, entry.id)).toBe(1);
    const edited = await visitor.request("PATCH", `/api/questions/${id}/`, { json: { version: 1, related_entries: [] } });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await apiCount(visitor, entry.id)).toBe(0);
    await visitor.request("PATCH", `/api/questions/${id}/`, { json: { version: 2, related_entries: [entry.id] } });
    expect(await apiCount(visitor, entry.id)).toBe(1);
    expect((await visitor.request("DELETE", `/api/questions/${id}/`)).statusCode).toBe(204);
    expect(await apiCount(visitor, entry.id)).toBe(0);
  });

  it("counts for each reader only the sources they may read: hidden ones never, those of a members-only circle for its members", async () => {
    const { visitor: author, user } = await createSignedInUser(api.app, db());
    const creator = await createUser(db());
    const entry = await createEntry(db(), 1, creator, { name: word("可见性") });
    const secret = await createCircle(db(), { visibility: "members" });
    await addMember(db(), secret.id, user.id);
    const open = await author.post("/api/circles/1/writings/", { title: "公开", content: "正文。", related_entries: [entry.id] });
    expect(open.statusCode, open.body).toBe(201);
    const closed = await author.post(`/api/circles/${secret.id}/writings/`, {
      title: "内部",
      content: "正文。",
      related_entries: [entry.id],
    });
    expect(closed.statusCode, closed.body).toBe(201);
    const anonymous = new Visitor(api.app);
    expect(await apiCount(author, entry.id)).toBe(2);
    expect(await apiCount(anonymous, entry.id)).toBe(1);
    expect((await getEntry(db(), null, entry.id)).citeCount).toBe(1);
    // Hidden by moderation: out of every reader's count (its author's too), back once restored.
    const openId = (open.json() as { id: number }).id;
    await db().update(writings).set({ hiddenAt: new Date() }).where(eq(writings.id, openId));
    expect(await apiCount(anonymous, entry.id)).toBe(0);
    expect(await apiCount(author, entry.id)).toBe(1);
    await db().update(writings).set({ hiddenAt: null }).where(eq(writings.id, openId));
    expect(await apiCount(anonymous, entry.id)).toBe(1);
    // An answer under a hidden question does not count either.
    const question = await createQuestion(db(), creator, { answerers: [creator] });
    await db()
      .update(answers)
      .set({ html: `<a href="/circles/1/encyclopedia/${entry.id}">x</a>` })
      .where(eq(answers.questionId, question.id));
    await db().insert(entryCitations).values({ entryId: entry.id, sourceType: "answer", sourceId: question.answers[0]!.id });
    expect(await apiCount(anonymous, entry.id)).toBe(2);
    await db().update(questions).set({ hiddenAt: new Date() }).where(eq(questions.id, question.id));
    expect(await apiCount(anonymous, entry.id)).toBe(1);
  });
});

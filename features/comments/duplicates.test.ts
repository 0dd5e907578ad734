import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { createTestApi, type TestApi, type Visitor } from "../../tests/support/api.ts";
import { createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { comments, events } from "../../server/db/schema/index.ts";
import { repeatedPostWindowSeconds } from "./duplicates.ts";
import type { PresentedComment } from "./schema.ts";

describe.each(databaseKinds)("repeated comment posts on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());

  const db = () => api.database.db;
  const publish = async (visitor: Visitor) => {
    const response = await visitor.post("/api/circles/1/writings/", { title: "重复提交", content: "正文。\n" });
    expect(response.statusCode, response.body).toBe(201);
    return (response.json() as { id: number }).id;
  };
  const stored = (writingId: number) =>
    db()
      .select()
      .from(comments)
      .where(and(eq(comments.subjectType, "writing"), eq(comments.subjectId, writingId)));

  it("stores one comment for 20 identical posts sent at once, and answers each with that comment", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const writingId = await publish(visitor);
    await visitor.csrfToken();
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => visitor.post(`/api/writings/${writingId}/comments/`, { body: "说得好！" })),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(20).fill(201));
    const ids = new Set(answers.map((answer) => (answer.json() as PresentedComment).id));
    expect(ids.size).toBe(1);
    const rows = await stored(writingId);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).toBe([...ids][0]);
    const created = await db()
      .select()
      .from(events)
      .where(and(eq(events.verb, "comment.created"), eq(events.subjectId, rows[0]!.id)));
    expect(created).toHaveLength(1);
  });

  it("treats a retried reply as the first one, and keeps other texts, threads, users and later posts apart", async () => {
    const { visitor: author } = await createSignedInUser(api.app, db());
    const { visitor } = await createSignedInUser(api.app, db());
    const writingId = await publish(author);
    const post = async (who: Visitor, body: Record<string, unknown>) => {
      const response = await who.post(`/api/writings/${writingId}/comments/`, body);
      expect(response.statusCode, response.body).toBe(201);
      return response.json() as PresentedComment;
    };
    const first = await post(author, { body: "第一条" });
    const reply = await post(visitor, { body: "同意", parent_id: first.id });
    // Retried, also as a reply to a reply of the same thread: the same reply, with its mention.
    expect(await post(visitor, { body: "同意", parent_id: first.id })).toEqual(reply);
    // Whitespace around is trimmed before comparing, as before storing.
    expect((await post(visitor, { body: "  同意\n", parent_id: first.id })).id).toBe(reply.id);
    // The same words as a top-level comment, by someone else, or another text: new comments.
    const topLevel = await post(visitor, { body: "同意" });
    expect(topLevel.id).not.toBe(reply.id);
    expect((await post(author, { body: "同意", parent_id: first.id })).id).not.toBe(reply.id);
    expect((await post(visitor, { body: "同意！", parent_id: first.id })).id).not.toBe(reply.id);
    // Saying it again later is a new comment.
    await db()
      .update(comments)
      .set({ createdAt: sql`now() - make_interval(secs => ${repeatedPostWindowSeconds + 1})` })
      .where(eq(comments.id, topLevel.id));
    expect((await post(visitor, { body: "同意" })).id).not.toBe(topLevel.id);
    // A deleted comment is not answered again.
    const again = await post(visitor, { body: "删掉再发" });
    expect((await visitor.request("DELETE", `/api/comments/${again.id}/`)).statusCode).toBe(204);
    expect((await post(visitor, { body: "删掉再发" })).id).not.toBe(again.id);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { createComment, createSignedInUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { comments } from "../../server/db/schema/index.ts";

/**
 * The reading page's comment forms as a browser without JavaScript posts them: they run the same
 * operations as the API (features/comments/operations.ts) through the form adapter.
 */
describe.each(databaseKinds)("comment forms on the reading page on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("comments on the writing of the URL, whatever writing id the form names", async () => {
    const author = await createSignedInUser(api.app, db());
    const shown = await createWriting(db(), author.user);
    const other = await createWriting(db(), author.user);
    const reader = await createSignedInUser(api.app, db());
    const path = `/circles/1/writing/${shown.id}`;
    const posted = await reader.visitor.postForm(path, {
      csrftoken: await reader.visitor.csrfToken(),
      intent: "comment",
      writing_id: String(other.id),
      body: "写在这篇下面",
    });
    expect(posted.statusCode).toBe(302);
    expect(posted.headers.location).toMatch(new RegExp(`^${path}\\?notice=commented#comment-\\d+$`));
    const rows = await db().select().from(comments).where(eq(comments.authorId, reader.user.id));
    expect(rows.map((row) => [row.subjectType, row.subjectId, row.body])).toEqual([["writing", shown.id, "写在这篇下面"]]);
  });

  it("answers a refused comment in the form with the typed text, in the page's language", async () => {
    const author = await createSignedInUser(api.app, db());
    const writing = await createWriting(db(), author.user);
    const reader = await createSignedInUser(api.app, db());
    const empty = await reader.visitor.postForm(`/en/circles/1/writing/${writing.id}`, {
      csrftoken: await reader.visitor.csrfToken(),
      intent: "comment",
      body: "   ",
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain("Please enter your comment.");
    const parent = await createComment(db(), writing.id, author.user);
    const elsewhere = await createWriting(db(), author.user);
    // A reply to a comment of another writing is refused on the reply's own form, the text kept.
    const reply = await reader.visitor.postForm(`/circles/1/writing/${elsewhere.id}`, {
      csrftoken: await reader.visitor.csrfToken(),
      intent: "reply",
      parent_id: String(parent.id),
      body: "跨文章的回复",
    });
    expect(reply.statusCode).toBe(400);
    expect(reply.body).toContain("跨文章的回复");
    expect(await db().select().from(comments).where(eq(comments.authorId, reader.user.id))).toEqual([]);
  });

  it("asks before deleting, then deletes and returns to the comments", async () => {
    const author = await createSignedInUser(api.app, db());
    const writing = await createWriting(db(), author.user);
    const comment = await createComment(db(), writing.id, author.user);
    const path = `/circles/1/writing/${writing.id}`;
    const fields = { csrftoken: await author.visitor.csrfToken(), intent: "delete-comment", comment_id: String(comment.id) };
    const asked = await author.visitor.postForm(path, fields);
    expect(asked.statusCode).toBe(200);
    expect((await db().select().from(comments).where(eq(comments.id, comment.id)))[0]!.deletedAt).toBeNull();
    const deleted = await author.visitor.postForm(path, { ...fields, confirmed: "1" });
    expect(deleted.statusCode).toBe(302);
    expect(deleted.headers.location).toBe(`${path}?notice=deleted#comments`);
    expect((await db().select().from(comments).where(eq(comments.id, comment.id)))[0]!.deletedAt).not.toBeNull();
    const unknown = await author.visitor.postForm(path, { csrftoken: fields.csrftoken, intent: "like" });
    expect(unknown.statusCode).toBe(400);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { addCategory, addMember, createCircle, createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { grant } from "../../tests/support/money.ts";
import { presentViewer } from "../accounts/viewer.ts";
import { questionReading } from "./reading.ts";

/**
 * Issue 39 ("Speed"): the question page's content and its viewer's follow and answer are
 * remembered between requests (features/questions/reading.ts). These read, change what the page
 * shows through the real API, and read again: every change shows on the very next read.
 */
describe.each(databaseKinds)("remembered question page on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const put = (visitor: Visitor, url: string, json?: unknown) => visitor.request("PUT", url, { json });
  const patch = (visitor: Visitor, url: string, json?: unknown) => visitor.request("PATCH", url, { json });

  it("shows edits, answers, likes, comments counts, accepts, follows, badges, hiding and deletion at once", async () => {
    const asker = await createSignedInUser(api.app, db());
    const answerer = await createSignedInUser(api.app, db());
    const reader = await createSignedInUser(api.app, db());
    const circle = await createCircle(db());
    await addMember(db(), circle.id, asker.user.id, "founder");
    const category = await addCategory(db(), circle.id, { name: "代数" });
    const asked = await asker.visitor.post(`/api/circles/${circle.id}/questions/`, {
      title: "初问",
      content: "描述\n",
      categories: [category.id],
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const { id } = asked.json() as { id: number };
    const read = (viewer = reader.user) => questionReading(db(), presentViewer(viewer), id);

    // Twice: the second read is the remembered one.
    expect((await read()).row.title).toBe("初问");
    expect((await read()).categories).toEqual([{ id: category.id, name: "代数" }]);

    expect((await patch(asker.visitor, `/api/questions/${id}/`, { title: "改后的问题", version: 1 })).statusCode).toBe(200);
    expect((await read()).row.title).toBe("改后的问题");

    // A new answer: in the list, in the count, and the answerer's "Edit my answer".
    expect((await read(answerer.user)).myAnswer).toBeNull();
    const answered = await answerer.visitor.post(`/api/questions/${id}/answers/`, { content: "第一版\n" });
    expect(answered.statusCode, answered.body).toBe(201);
    const answerId = (answered.json() as { id: number }).id;
    expect((await read()).firstAnswers.items.map((item) => item.id)).toEqual([answerId]);
    expect((await read()).row.answerCount).toBe(1);
    expect((await read(answerer.user)).myAnswer).toEqual({ id: answerId, version: 1 });

    expect((await patch(answerer.visitor, `/api/answers/${answerId}/`, { content: "第二版\n", version: 1 })).statusCode).toBe(200);
    expect((await read()).firstAnswers.items[0]!.html).toContain("第二版");
    expect((await read(answerer.user)).myAnswer).toEqual({ id: answerId, version: 2 });

    expect((await put(reader.visitor, `/api/subjects/answer/${answerId}/reaction/`, { reaction: "like" })).statusCode).toBe(200);
    expect((await read()).firstAnswers.items[0]!.likeCount).toBe(1);
    const commented = await reader.visitor.post(`/api/subjects/answer/${answerId}/comments/`, { body: "说得好" });
    expect(commented.statusCode, commented.body).toBe(201);
    expect((await read()).firstAnswers.items[0]!.commentCount).toBe(1);

    expect((await put(asker.visitor, `/api/questions/${id}/accepted_answer/`, { answer_id: answerId })).statusCode).toBe(200);
    expect((await read()).row.acceptedAnswerId).toBe(answerId);
    expect((await read()).firstAnswers.items[0]!.accepted).toBe(true);

    expect((await read()).following).toBe(false);
    expect((await put(reader.visitor, `/api/questions/${id}/follow/`, {})).statusCode).toBeLessThan(300);
    expect((await read()).following).toBe(true);
    expect((await reader.visitor.request("DELETE", `/api/questions/${id}/follow/`)).statusCode).toBeLessThan(300);
    expect((await read()).following).toBe(false);

    // The answerer wears a badge: their author card has it.
    await grant(db(), answerer.user.id, "gold", 1000);
    const bought = await answerer.visitor.request("POST", "/api/shop/purchases/", {
      json: { item: "badge_scholar", currency: "gold" },
      headers: { "idempotency-key": `question-memory-${kind}-${Date.now()}` },
    });
    expect(bought.statusCode, bought.body).toBe(201);
    const owned = (bought.json() as { owned_id: number }).owned_id;
    expect((await answerer.visitor.request("PUT", `/api/shop/owned/${owned}/wear/`)).statusCode).toBe(204);
    expect((await read()).firstAnswers.items[0]!.author.badge).toBe("badge_scholar");

    // A new nickname on the asker's card.
    expect((await patch(asker.visitor, "/api/Users/profile/", { nickname: "新名字" })).statusCode).toBe(200);
    expect((await read()).author?.nickname).toBe("新名字");

    // Hidden by moderation: out of the list; deleted by its author: gone, and no longer "my answer".
    const reported = await reader.visitor.request("POST", `/api/subjects/answer/${answerId}/reports/`, {
      json: { reason: "spam", description: "广告" },
    });
    expect(reported.statusCode, reported.body).toBe(201);
    const moderator = await createSignedInUser(api.app, db(), { siteRole: "moderator" });
    const caseId = (reported.json() as { case_id: number }).case_id;
    const hidden = await moderator.visitor.request("POST", `/api/moderation/cases/${caseId}/resolve/`, {
      json: { action: "hide", note: "" },
    });
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect((await read()).firstAnswers.items).toEqual([]);
    expect((await read()).row.answerCount).toBe(0);
    expect((await answerer.visitor.request("DELETE", `/api/answers/${answerId}/`)).statusCode).toBeLessThan(300);
    expect((await read(answerer.user)).myAnswer).toBeNull();
  });
});

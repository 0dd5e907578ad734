import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { addMember, createCircle, createFollow, createQuestion, createSignedInUser, createUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { answers, questions } from "../../server/db/schema/index.ts";
import { presentViewer } from "../accounts/viewer.ts";
import { countCircleContent } from "../circles/counts.ts";
import { listFeed } from "../feeds/service.ts";
import { countSitemapQuestions } from "./service.ts";
import { recomputeQuestionHotScores } from "./hot.ts";

/** Issue 22: hiding questions and answers through reports, the home feeds, comments on answers. */
describe.each(databaseKinds)("questions in moderation and feeds on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  const report = (visitor: Visitor, type: string, id: number) =>
    visitor.request("POST", `/api/subjects/${type}/${id}/reports/`, { json: { reason: "spam", description: "广告" } });
  const resolve = (visitor: Visitor, caseId: number, action: string) =>
    visitor.request("POST", `/api/moderation/cases/${caseId}/resolve/`, { json: { action, note: "" } });
  async function decide(type: string, id: number, action: "hide" | "restore" | "delete") {
    const reporter = await createSignedInUser(api.app, db());
    const filed = await report(reporter.visitor, type, id);
    expect(filed.statusCode, filed.body).toBe(201);
    const moderator = await createSignedInUser(api.app, db(), { siteRole: "moderator" });
    const decided = await resolve(moderator.visitor, filed.json().case_id, action);
    expect(decided.statusCode, decided.body).toBe(200);
    return { caseId: filed.json().case_id as number, moderator };
  }

  it("a hidden answer leaves the list, the count and the feeds; its author still reads it; restored, it comes back", async () => {
    const asker = await createUser(db());
    const answerer = await createSignedInUser(api.app, db());
    const other = await createUser(db());
    const circle = await createCircle(db());
    const question = await createQuestion(db(), asker, { circleId: circle.id, answerers: [answerer.user, other] });
    const hiddenId = question.answers[0]!.id;
    const reader = new Visitor(api.app);

    const filed = await decide("answer", hiddenId, "hide");
    const [row] = await db().select().from(questions).where(eq(questions.id, question.id));
    expect(row!.answerCount).toBe(1);
    const listed = await reader.get(`/api/questions/${question.id}/answers/`);
    expect(listed.json().items.map((item: { id: number }) => item.id)).toEqual([question.answers[1]!.id]);
    expect((await reader.get(`/api/answers/${hiddenId}/`)).statusCode).toBe(404);
    expect((await answerer.visitor.get(`/api/answers/${hiddenId}/`)).statusCode).toBe(200);
    const feed = await listFeed(db(), null, { tab: "all", limit: 50 });
    expect(feed.cards.map((card) => card.key)).not.toContain(`answer-${hiddenId}`);
    expect(feed.cards.map((card) => card.key)).toContain(`answer-${question.answers[1]!.id}`);
    const profile = await reader.get(`/api/questions/${question.id}/`);
    expect(profile.json().answer_count).toBe(1);
    // The hourly recount agrees.
    await recomputeQuestionHotScores(db());
    expect((await db().select().from(questions).where(eq(questions.id, question.id)))[0]!.answerCount).toBe(1);

    expect((await resolve(filed.moderator.visitor, filed.caseId, "restore")).statusCode).toBe(200);
    const [restored] = await db().select().from(questions).where(eq(questions.id, question.id));
    expect(restored!.answerCount).toBe(2);
    expect((await reader.get(`/api/answers/${hiddenId}/`)).statusCode).toBe(200);
  });

  it("a hidden question is a 404 but for its asker and moderators, and leaves lists, counts, the sitemap, similar questions and feeds; deleting it through the queue takes its answers", async () => {
    const asker = await createSignedInUser(api.app, db());
    const answerer = await createUser(db());
    const circle = await createCircle(db());
    const question = await createQuestion(db(), asker.user, { circleId: circle.id, title: "隐藏的线性代数问题", answerers: [answerer] });
    const reader = new Visitor(api.app);
    const before = await countSitemapQuestions(db(), [circle.id]);

    const { caseId, moderator } = await decide("question", question.id, "hide");
    expect((await reader.get(`/api/questions/${question.id}/`)).statusCode).toBe(404);
    expect((await reader.get(`/api/answers/${question.answers[0]!.id}/`)).statusCode).toBe(404);
    expect((await asker.visitor.get(`/api/questions/${question.id}/`)).statusCode).toBe(200);
    expect((await moderator.visitor.get(`/api/questions/${question.id}/`)).statusCode).toBe(200);
    const list = await reader.get(`/api/circles/${circle.id}/questions/`);
    expect(list.json().items).toEqual([]);
    expect((await countCircleContent(db(), [circle.id])).get(circle.id)?.questions ?? 0).toBe(0);
    expect(await countSitemapQuestions(db(), [circle.id])).toBe(before - 1);
    const similar = await reader.get(`/api/questions/similar/?q=${encodeURIComponent("线性代数")}&circle_id=${circle.id}`);
    expect(similar.json()).toEqual([]);
    const keys = (await listFeed(db(), null, { tab: "all", limit: 50 })).cards.map((card) => card.key);
    expect(keys).not.toContain(`question-${question.id}`);
    expect(keys).not.toContain(`answer-${question.answers[0]!.id}`);

    expect((await resolve(moderator.visitor, caseId, "delete")).statusCode).toBe(200);
    expect(await db().select().from(questions).where(eq(questions.id, question.id))).toEqual([]);
    expect(await db().select().from(answers).where(eq(answers.questionId, question.id))).toEqual([]);
  });

  it("the home feeds show questions and answers: Latest and All by time, Hot by score, Follow by followed users, joined circles and followed questions", async () => {
    const reader = await createSignedInUser(api.app, db());
    const followed = await createUser(db());
    const stranger = await createUser(db());
    await createFollow(db(), reader.user, followed);
    const open = await createCircle(db());
    const joined = await createCircle(db(), { visibility: "members" });
    await addMember(db(), joined.id, reader.user.id);
    const closed = await createCircle(db(), { visibility: "members" });
    const byFollowed = await createQuestion(db(), followed, { circleId: open.id, title: "关注的人的问题" });
    const inJoined = await createQuestion(db(), stranger, { circleId: joined.id, title: "加入的圈子的问题" });
    const elsewhere = await createQuestion(db(), stranger, { circleId: open.id, title: "别人的问题", answerers: [followed, stranger] });
    const secret = await createQuestion(db(), stranger, { circleId: closed.id, title: "看不到的问题", answerers: [followed] });
    const viewer = presentViewer(reader.user);

    const latest = (await listFeed(db(), null, { tab: "latest", limit: 50 })).cards;
    const keys = latest.map((card) => card.key);
    expect(keys).toEqual(
      expect.arrayContaining([`question-${byFollowed.id}`, `question-${elsewhere.id}`, `answer-${elsewhere.answers[0]!.id}`]),
    );
    expect(keys).not.toContain(`question-${inJoined.id}`);
    expect(keys).not.toContain(`question-${secret.id}`);
    expect(keys).not.toContain(`answer-${secret.answers[0]!.id}`);
    const answerCard = latest.find((card) => card.key === `answer-${elsewhere.answers[0]!.id}`)!;
    expect(answerCard).toMatchObject({
      label: "answer",
      title: "别人的问题",
      path: `/circles/${open.id}/questions/${elsewhere.id}/${followed.username}`,
    });
    expect((await listFeed(db(), null, { tab: "hot", limit: 50 })).cards.map((card) => card.key)).toContain(`question-${elsewhere.id}`);

    // Follow: the followed user's question and answers, the joined circle's question, the followed question's answers.
    const follow = async () => (await listFeed(db(), viewer, { tab: "follow", limit: 50 })).cards.map((card) => card.key);
    const first = await follow();
    expect(first).toEqual(
      expect.arrayContaining([`question-${byFollowed.id}`, `question-${inJoined.id}`, `answer-${elsewhere.answers[0]!.id}`]),
    );
    expect(first).not.toContain(`question-${elsewhere.id}`);
    expect(first).not.toContain(`answer-${elsewhere.answers[1]!.id}`);
    expect(first).not.toContain(`answer-${secret.answers[0]!.id}`);
    expect((await reader.visitor.request("PUT", `/api/questions/${elsewhere.id}/follow/`)).statusCode).toBeLessThan(300);
    expect(await follow()).toContain(`answer-${elsewhere.answers[1]!.id}`);
  });

  it("answers take comments: the answer list carries each one's comment count", async () => {
    const asker = await createUser(db());
    const answerer = await createUser(db());
    const question = await createQuestion(db(), asker, { answerers: [answerer] });
    const answerId = question.answers[0]!.id;
    const commenter = await createSignedInUser(api.app, db());
    const posted = await commenter.visitor.post(`/api/subjects/answer/${answerId}/comments/`, { body: "说得好" });
    expect(posted.statusCode, posted.body).toBe(201);
    const listed = await new Visitor(api.app).get(`/api/questions/${question.id}/answers/`);
    expect(listed.json().items[0]).toMatchObject({ id: answerId, comment_count: 1 });
  });
});

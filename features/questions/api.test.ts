import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, inArray } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { addCategory, addMember, createCircle, createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { countCircleContent } from "../circles/counts.ts";
import { answers, events, questions, reactions } from "../../server/db/schema/index.ts";

describe.each(databaseKinds)("questions API on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());

  const db = () => api.database.db;
  const signedIn = () => createSignedInUser(api.app, db());
  const english = { "accept-language": "en" };
  const put = (visitor: Visitor, url: string, json?: unknown, headers?: Record<string, string>) =>
    visitor.request("PUT", url, { json, headers });
  const patch = (visitor: Visitor, url: string, json?: unknown, headers?: Record<string, string>) =>
    visitor.request("PATCH", url, { json, headers });
  const del = (visitor: Visitor, url: string) => visitor.request("DELETE", url);
  const eventsOf = (verb: string, subjectId: number) =>
    db()
      .select()
      .from(events)
      .where(and(eq(events.verb, verb), eq(events.subjectId, subjectId)));

  async function ask(visitor: Visitor, circleId: number, body: Record<string, unknown>) {
    const response = await visitor.post(`/api/circles/${circleId}/questions/`, body);
    expect(response.statusCode, response.body).toBe(201);
    return response.json() as { id: number; url: string };
  }

  /** A question by a fresh asker in a fresh public circle. */
  async function questionWithAsker(title = "如何学习线性代数？") {
    const asker = await signedIn();
    const circle = await createCircle(db());
    const question = await ask(asker.visitor, circle.id, { title, content: "我想系统地学一遍。\n\n$$a^2+b^2=c^2$$\n" });
    return { asker, circle, question };
  }

  describe("asking", () => {
    it("asks: 201 with id and url, renders the description, files categories, counts in the circle, records question.asked", async () => {
      const { user, visitor } = await signedIn();
      const circle = await createCircle(db());
      const category = await addCategory(db(), circle.id, { name: "数学" });
      const created = await ask(visitor, circle.id, {
        title: "  如何学习线性代数？ ",
        content: "**认真**学习\n",
        categories: [category.id],
        language: "zh-CN",
      });
      expect(created.url).toBe(`/circles/${circle.id}/questions/${created.id}`);
      const read = await new Visitor(api.app).get(`/api/questions/${created.id}/`);
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json()).toMatchObject({
        id: created.id,
        title: "如何学习线性代数？",
        content: "**认真**学习\n",
        categories: [{ id: category.id, name: "数学" }],
        author: { id: user.id },
        answer_count: 0,
        accepted_answer_id: null,
        version: 1,
        my_answer: null,
        can: { edit: false, answer: false },
      });
      expect(read.json().html).toContain("<strong>认真</strong>");
      expect(await eventsOf("question.asked", created.id)).toHaveLength(1);
      expect((await countCircleContent(db(), [circle.id])).get(circle.id)?.questions).toBe(1);
    });

    it("refuses a missing or too long title and another circle's category with localized field errors; visitors get 401", async () => {
      const { visitor } = await signedIn();
      const circle = await createCircle(db());
      const other = await addCategory(db(), (await createCircle(db())).id);
      const empty = await visitor.post(`/api/circles/${circle.id}/questions/`, { title: " " }, english);
      expect(empty.statusCode).toBe(400);
      expect(empty.json().fields.title).toBe("Please enter a title.");
      const long = await visitor.post(`/api/circles/${circle.id}/questions/`, { title: "问".repeat(101) });
      expect(long.statusCode).toBe(400);
      const category = await visitor.post(`/api/circles/${circle.id}/questions/`, { title: "标题", categories: [other.id] });
      expect(category.statusCode).toBe(400);
      expect(category.json().fields.categories).toBeTruthy();
      const related = await visitor.post(`/api/circles/${circle.id}/questions/`, { title: "标题", related_entries: [1, 2, 3, 4, 5, 6] });
      expect(related.statusCode).toBe(400);
      expect((await new Visitor(api.app).post(`/api/circles/${circle.id}/questions/`, { title: "标题" })).statusCode).toBe(401);
    });
  });

  describe("answering", () => {
    it("takes one answer per user: a second answers 409 already_answered with the message and the existing answer's url", async () => {
      const { question, circle } = await questionWithAsker();
      const { user, visitor } = await signedIn();
      const first = await visitor.post(`/api/questions/${question.id}/answers/`, { content: "先学矩阵。\n" });
      expect(first.statusCode, first.body).toBe(201);
      expect(first.json().url).toBe(`/circles/${circle.id}/questions/${question.id}/${user.username}`);
      const second = await visitor.post(`/api/questions/${question.id}/answers/`, { content: "再来一次。\n" }, english);
      expect(second.statusCode).toBe(409);
      expect(second.json()).toMatchObject({
        code: "already_answered",
        message: "You have answered this question.",
        answer_id: first.json().id,
        url: first.json().url,
      });
      const chinese = await visitor.post(`/api/questions/${question.id}/answers/`, { content: "再来一次。\n" });
      expect(chinese.json().message).toBe("你已经回答过这个问题了。");
      const read = await visitor.get(`/api/questions/${question.id}/`);
      expect(read.json()).toMatchObject({ answer_count: 1, my_answer: { id: first.json().id, url: first.json().url } });
    });

    it("keeps one answer under ten simultaneous submits by the same user", async () => {
      const { question } = await questionWithAsker();
      const { user, visitor } = await signedIn();
      const responses = await Promise.all(
        Array.from({ length: 10 }, (_, index) => visitor.post(`/api/questions/${question.id}/answers/`, { content: `回答 ${index}\n` })),
      );
      const statuses = responses.map((response) => response.statusCode).sort();
      expect(statuses).toEqual([201, ...Array.from({ length: 9 }, () => 409)]);
      expect(
        responses.filter((response) => response.statusCode === 409).every((response) => response.json().code === "already_answered"),
      ).toBe(true);
      const rows = await db()
        .select()
        .from(answers)
        .where(and(eq(answers.questionId, question.id), eq(answers.authorId, user.id)));
      expect(rows).toHaveLength(1);
      const [row] = await db().select({ count: questions.answerCount }).from(questions).where(eq(questions.id, question.id));
      expect(row!.count).toBe(1);
    });

    it("tells the asker and the question's followers of a new answer, never the answerer", async () => {
      const { question, asker } = await questionWithAsker();
      const follower = await signedIn();
      const followed = await put(follower.visitor, `/api/questions/${question.id}/follow/`, {});
      expect(followed.statusCode, followed.body).toBe(200);
      expect(followed.json()).toEqual({ following: true });
      const answerer = await signedIn();
      await put(answerer.visitor, `/api/questions/${question.id}/follow/`, {});
      const created = await answerer.visitor.post(`/api/questions/${question.id}/answers/`, { content: "答案\n" });
      const [event] = await eventsOf("answer.created", created.json().id);
      expect(new Set(event!.recipientIds)).toEqual(new Set([asker.user.id, follower.user.id]));
    });

    it("lets only the author edit an answer; a stale version is an edit_conflict carrying the current one", async () => {
      const { question } = await questionWithAsker();
      const answerer = await signedIn();
      const created = await answerer.visitor.post(`/api/questions/${question.id}/answers/`, { content: "第一版\n" });
      const id = created.json().id as number;
      const stranger = await signedIn();
      expect((await patch(stranger.visitor, `/api/answers/${id}/`, { content: "篡改\n", version: 1 })).statusCode).toBe(403);
      expect((await patch(new Visitor(api.app), `/api/answers/${id}/`, { content: "篡改\n", version: 1 })).statusCode).toBe(401);
      const edited = await patch(answerer.visitor, `/api/answers/${id}/`, { content: "第二版\n", version: 1 });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json()).toMatchObject({ version: 2, content: "第二版\n", can: { edit: true } });
      expect(edited.json().edited_at).not.toBeNull();
      const stale = await patch(answerer.visitor, `/api/answers/${id}/`, { content: "旧的\n", version: 1 });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toMatchObject({ code: "edit_conflict", current_version: 2, current: { content: "第二版\n" } });
      const read = await new Visitor(api.app).get(`/api/answers/${id}/`);
      expect(read.json()).toMatchObject({ content: "第二版\n", question: { id: question.id }, can: { edit: false, delete: false } });
    });

    it("lets only the asker edit the question, with edit conflicts on a stale version", async () => {
      const { question, asker } = await questionWithAsker();
      const stranger = await signedIn();
      expect((await patch(stranger.visitor, `/api/questions/${question.id}/`, { title: "改", version: 1 })).statusCode).toBe(403);
      const edited = await patch(asker.visitor, `/api/questions/${question.id}/`, { title: "怎样学好线性代数", version: 1 });
      expect(edited.statusCode, edited.body).toBe(200);
      expect(edited.json()).toMatchObject({ title: "怎样学好线性代数", version: 2 });
      const stale = await patch(asker.visitor, `/api/questions/${question.id}/`, { title: "又改", version: 1 }, english);
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toMatchObject({ code: "edit_conflict", current_version: 2, current: { title: "怎样学好线性代数" } });
    });
  });

  describe("accepting and listing", () => {
    it("lets only the asker accept; the accepted answer leads the list and the answerer is told; withdrawing clears it", async () => {
      const { question, asker } = await questionWithAsker();
      const first = await signedIn();
      const second = await signedIn();
      const a1 = (await first.visitor.post(`/api/questions/${question.id}/answers/`, { content: "一\n" })).json().id as number;
      const a2 = (await second.visitor.post(`/api/questions/${question.id}/answers/`, { content: "二\n" })).json().id as number;
      // The first answer gets a like: by votes it leads until another is accepted.
      expect((await put(asker.visitor, `/api/subjects/answer/${a1}/reaction/`, { reaction: "like" })).statusCode).toBe(200);
      const byVotes = await new Visitor(api.app).get(`/api/questions/${question.id}/answers/?sort=votes`);
      expect(byVotes.json().items.map((item: { id: number }) => item.id)).toEqual([a1, a2]);
      expect(byVotes.json().items[0].like_count).toBe(1);

      expect((await put(second.visitor, `/api/questions/${question.id}/accepted_answer/`, { answer_id: a2 })).statusCode).toBe(403);
      const accepted = await put(asker.visitor, `/api/questions/${question.id}/accepted_answer/`, { answer_id: a2 });
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(accepted.json()).toEqual({ accepted_answer_id: a2 });
      const [event] = await eventsOf("answer.accepted", a2);
      expect(event!.recipientIds).toEqual([second.user.id]);
      for (const sort of ["votes", "time"]) {
        const list = await new Visitor(api.app).get(`/api/questions/${question.id}/answers/?sort=${sort}`);
        expect(list.json().items.map((item: { id: number; accepted: boolean }) => [item.id, item.accepted])).toEqual([
          [a2, true],
          [a1, false],
        ]);
      }
      const foreign = await put(asker.visitor, `/api/questions/${question.id}/accepted_answer/`, { answer_id: 999_999 });
      expect(foreign.statusCode).toBe(400);
      const withdrawn = await del(asker.visitor, `/api/questions/${question.id}/accepted_answer/`);
      expect(withdrawn.json()).toEqual({ accepted_answer_id: null });
      expect((await new Visitor(api.app).get(`/api/questions/${question.id}/`)).json().accepted_answer_id).toBeNull();
    });

    it("pages answers by cursor without repeating one", async () => {
      const { question } = await questionWithAsker();
      const ids: number[] = [];
      for (let index = 0; index < 23; index += 1) {
        const { visitor } = await signedIn();
        ids.push((await visitor.post(`/api/questions/${question.id}/answers/`, { content: `第 ${index} 个\n` })).json().id);
      }
      const seen: number[] = [];
      let cursor: string | null = "";
      while (cursor !== null) {
        const page = await new Visitor(api.app).get(`/api/questions/${question.id}/answers/?sort=time${cursor ? `&cursor=${cursor}` : ""}`);
        expect(page.statusCode, page.body).toBe(200);
        seen.push(...page.json().items.map((item: { id: number }) => item.id));
        cursor = page.json().next_cursor;
      }
      expect(seen).toEqual([...ids].reverse());
    });

    it("lists a circle's questions: latest, unanswered without the answered, hot; with the best answer's opening lines", async () => {
      const asker = await signedIn();
      const circle = await createCircle(db());
      const quiet = await ask(asker.visitor, circle.id, { title: "没人回答的问题" });
      const busy = await ask(asker.visitor, circle.id, { title: "有人回答的问题" });
      const answerer = await signedIn();
      await answerer.visitor.post(`/api/questions/${busy.id}/answers/`, { content: "这是回答的开头。\n\n后面还有更多。\n" });
      const latest = (await new Visitor(api.app).get(`/api/circles/${circle.id}/questions/`)).json();
      expect(latest.items.map((item: { id: number }) => item.id)).toEqual([busy.id, quiet.id]);
      expect(latest.items[0]).toMatchObject({ answer_count: 1, best_answer: { author: { id: answerer.user.id }, accepted: false } });
      expect(latest.items[0].best_answer.excerpt).toContain("这是回答的开头");
      const unanswered = (await new Visitor(api.app).get(`/api/circles/${circle.id}/questions/?tab=unanswered`)).json();
      expect(unanswered.items.map((item: { id: number }) => item.id)).toEqual([quiet.id]);
      const hot = (await new Visitor(api.app).get(`/api/circles/${circle.id}/questions/?tab=hot`)).json();
      expect(hot.items[0].id).toBe(busy.id);
    });
  });

  describe("visibility", () => {
    it.each([
      ["public", 200, 200, 200],
      ["circle", 401, 404, 200],
      ["parent", 404, 404, 200],
      ["members", 404, 404, 200],
    ] as const)(
      "a question in a %s circle: visitor %i, outsider %i, member %i",
      async (visibility, visitorStatus, outsiderStatus, memberStatus) => {
        const circle = await createCircle(db(), { visibility });
        const asker = await signedIn();
        await addMember(db(), circle.id, asker.user.id);
        const question = await ask(asker.visitor, circle.id, { title: `${visibility} 圈的问题` });
        const outsider = await signedIn();
        const member = await signedIn();
        await addMember(db(), circle.id, member.user.id);
        expect((await new Visitor(api.app).get(`/api/questions/${question.id}/`)).statusCode).toBe(visitorStatus);
        const outsiderRead = await outsider.visitor.get(`/api/questions/${question.id}/`);
        expect(outsiderRead.statusCode).toBe(visibility === "circle" ? 404 : outsiderStatus);
        expect((await member.visitor.get(`/api/questions/${question.id}/`)).statusCode).toBe(memberStatus);
        // Answering is writing in the circle: members everywhere, anyone signed in only in public circles.
        const outsiderAnswer = await outsider.visitor.post(`/api/questions/${question.id}/answers/`, { content: "外人\n" });
        expect(outsiderAnswer.statusCode).toBe(visibility === "public" ? 201 : 404);
        expect((await member.visitor.post(`/api/questions/${question.id}/answers/`, { content: "成员\n" })).statusCode).toBe(201);
        // Lists and similar questions show it only to who may read it.
        const similar = await outsider.visitor.get(`/api/questions/similar/?q=${encodeURIComponent(`${visibility} 圈的问题`)}`);
        expect(similar.json().some((item: { id: number }) => item.id === question.id)).toBe(visibility === "public");
      },
    );
  });

  describe("similar questions", () => {
    it("matches Chinese titles by shared two-character words, not by substring", async () => {
      const asker = await signedIn();
      const circle = await createCircle(db());
      const algebra = await ask(asker.visitor, circle.id, { title: "如何学习线性代数？" });
      const cooking = await ask(asker.visitor, circle.id, { title: "红烧肉怎么做才好吃" });
      const found = await new Visitor(api.app).get(
        `/api/questions/similar/?q=${encodeURIComponent("线性代数入门书推荐")}&circle_id=${circle.id}`,
      );
      expect(found.statusCode, found.body).toBe(200);
      expect(found.json()).toEqual([{ id: algebra.id, title: "如何学习线性代数？", answer_count: 0, url: algebra.url }]);
      const part = await new Visitor(api.app).get(`/api/questions/similar/?q=${encodeURIComponent("代数")}&circle_id=${circle.id}`);
      expect(part.json().map((item: { id: number }) => item.id)).toEqual([algebra.id]);
      const question = await new Visitor(api.app).get(`/api/questions/similar/?q=${encodeURIComponent("如何")}&circle_id=${circle.id}`);
      expect(question.json()).toEqual([]);
      expect(cooking.id).toBeGreaterThan(0);
    });

    it("matches English titles by whole words, case-insensitively, the most shared words first", async () => {
      const asker = await signedIn();
      const circle = await createCircle(db());
      const rust = await ask(asker.visitor, circle.id, { title: "How does Rust ownership work?", language: "en" });
      const borrow = await ask(asker.visitor, circle.id, { title: "Rust borrow checker and ownership rules", language: "en" });
      const similar = (q: string) =>
        new Visitor(api.app)
          .get(`/api/questions/similar/?q=${encodeURIComponent(q)}&circle_id=${circle.id}`)
          .then((response) => response.json());
      expect((await similar("rust OWNERSHIP borrow")).map((item: { id: number }) => item.id)).toEqual([borrow.id, rust.id]);
      expect((await similar("own")).map((item: { id: number }) => item.id)).toEqual([]);
      expect((await similar("how does it work")).map((item: { id: number }) => item.id)).toEqual([rust.id]);
      expect(await similar("")).toEqual([]);
    });
  });

  describe("deleting", () => {
    it("deletes a question with its answers and their reactions in one go (asker only, or a moderator)", async () => {
      const { question, asker, circle } = await questionWithAsker();
      const answerer = await signedIn();
      const answerId = (await answerer.visitor.post(`/api/questions/${question.id}/answers/`, { content: "答\n" })).json().id as number;
      await put(asker.visitor, `/api/subjects/answer/${answerId}/reaction/`, { reaction: "like" });
      await put(answerer.visitor, `/api/subjects/question/${question.id}/reaction/`, { reaction: "like" });
      expect((await del(answerer.visitor, `/api/questions/${question.id}/`)).statusCode).toBe(403);
      const moderator = await signedIn();
      await addMember(db(), circle.id, moderator.user.id, "master");
      expect((await del(moderator.visitor, `/api/questions/${question.id}/`)).statusCode).toBe(204);
      expect(await db().select().from(questions).where(eq(questions.id, question.id))).toEqual([]);
      expect(await db().select().from(answers).where(eq(answers.id, answerId))).toEqual([]);
      expect(
        await db()
          .select()
          .from(reactions)
          .where(inArray(reactions.subjectId, [answerId, question.id])),
      ).toSatisfy((rows: { subjectType: string }[]) => rows.every((row) => row.subjectType !== "answer" && row.subjectType !== "question"));
      expect((await new Visitor(api.app).get(`/api/questions/${question.id}/`)).statusCode).toBe(404);
      expect(await eventsOf("question.deleted", question.id)).toHaveLength(1);
    });

    it("deletes an answer (its author); the question counts one fewer and may be answered again", async () => {
      const { question } = await questionWithAsker();
      const answerer = await signedIn();
      const answerId = (await answerer.visitor.post(`/api/questions/${question.id}/answers/`, { content: "答\n" })).json().id as number;
      expect((await del(answerer.visitor, `/api/answers/${answerId}/`)).statusCode).toBe(204);
      expect((await new Visitor(api.app).get(`/api/questions/${question.id}/`)).json().answer_count).toBe(0);
      expect((await answerer.visitor.post(`/api/questions/${question.id}/answers/`, { content: "再答\n" })).statusCode).toBe(201);
    });
  });
});

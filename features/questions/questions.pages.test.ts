import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createCircle, createSignedInUser } from "../../tests/support/factories.ts";
import { wholeSitemap } from "../../tests/support/sitemap.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { answers, questions } from "../../server/db/schema/index.ts";

/**
 * The question pages as plain HTML documents (no JavaScript), in this process: reading in both
 * languages, asking (with the similar questions of a "check" post), answering once, accepting,
 * editing, the answer's own page, redirects.
 */
describe.each(databaseKinds)("question pages on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const signedIn = () => createSignedInUser(api.app, db());
  const form = async (visitor: Visitor, path: string, fields: Record<string, string>) =>
    visitor.postForm(path, { csrftoken: await visitor.csrfToken(), ...fields });

  async function askedQuestion(circleId = 1) {
    const asker = await signedIn();
    const created = await asker.visitor.post(`/api/circles/${circleId}/questions/`, {
      title: "怎样入门量子力学？",
      content: "需要哪些**数学**基础？\n",
    });
    expect(created.statusCode, created.body).toBe(201);
    return { asker, question: created.json() as { id: number; url: string } };
  }

  it("reads a question with its answers in both languages without JavaScript, with its SEO and the list", async () => {
    const circle = await createCircle(db());
    const { asker, question } = await askedQuestion(circle.id);
    const answerer = await signedIn();
    const answered = await answerer.visitor.post(`/api/questions/${question.id}/answers/`, { content: "先学线性代数和微积分。\n" });
    expect(answered.statusCode).toBe(201);
    await asker.visitor.request("PUT", `/api/questions/${question.id}/accepted_answer/`, { json: { answer_id: answered.json().id } });

    const zh = await new Visitor(api.app).get(question.url);
    expect(zh.statusCode).toBe(200);
    expect(zh.body).toContain("怎样入门量子力学？");
    expect(zh.body).toContain("<strong>数学</strong>");
    expect(zh.body).toContain("先学线性代数和微积分。");
    expect(zh.body).toContain("已采纳");
    expect(zh.body).toContain("1 个回答");
    expect(zh.body).toContain('"@type":"QAPage"');
    expect(zh.body).toContain('"acceptedAnswer"');
    expect(zh.body).toMatch(new RegExp(`<link rel="canonical" href="[^"]*${question.url}"`));
    expect(zh.body).toContain("登录后回答");

    const en = await new Visitor(api.app).get(`/en${question.url}`);
    expect(en.statusCode).toBe(200);
    expect(en.body).toContain("1 answer");
    expect(en.body).toContain("Accepted");
    expect(en.body).toContain("Sign in to answer");
    expect(en.body).toMatch(new RegExp(`<link rel="canonical" href="[^"]*/en${question.url}"`));

    const list = await new Visitor(api.app).get(`/circles/${circle.id}/questions`);
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain("怎样入门量子力学？");
    expect(list.body).toContain("先学线性代数和微积分。");
    const unanswered = await new Visitor(api.app).get(`/en/circles/${circle.id}/questions?tab=unanswered`);
    expect(unanswered.body).toContain("Every question has an answer.");

    const answerPage = await new Visitor(api.app).get(`/en${answered.json().url}`);
    expect(answerPage.statusCode).toBe(200);
    expect(answerPage.body).toContain(`Answer by ${answerer.user.nickname}`);
    expect(answerPage.body).toContain("See the 1 answer");

    const circlePage = await new Visitor(api.app).get(`/circles/${circle.id}?tab=questions`);
    expect(circlePage.body).toContain("怎样入门量子力学？");
    expect(circlePage.body).toContain("1 个问题");
    const askerProfile = await new Visitor(api.app).get(`/en/profile/${asker.user.username}?tab=questions`);
    expect(askerProfile.body).toContain("怎样入门量子力学？");
    const answererProfile = await new Visitor(api.app).get(`/profile/${answerer.user.username}?tab=answers`);
    expect(answererProfile.body).toContain("先学线性代数和微积分。");
    expect(answererProfile.body).toContain("已采纳");

    const sitemap = await wholeSitemap(async (path) => (await new Visitor(api.app).get(path)).body);
    expect(sitemap).toContain(`${question.url}</loc>`);
  });

  it("redirects the legacy address and a question under another circle with 301", async () => {
    const circle = await createCircle(db());
    const { question } = await askedQuestion(circle.id);
    const legacy = await new Visitor(api.app).get(`/community/questions/${question.id}`);
    expect(legacy.statusCode).toBe(301);
    expect(legacy.headers.location).toBe(`/circles/1/questions/${question.id}`);
    const english = await new Visitor(api.app).get(`/en/community/questions/${question.id}`);
    expect(english.headers.location).toBe(`/en/circles/1/questions/${question.id}`);
    const moved = await new Visitor(api.app).get(`/circles/1/questions/${question.id}`);
    expect(moved.statusCode).toBe(301);
    expect(moved.headers.location).toBe(question.url);
    expect((await new Visitor(api.app).get(`/circles/${circle.id}/questions/999999`)).statusCode).toBe(404);
  });

  it("asks without JavaScript: visitors sign in first; a check post shows similar questions; asking opens the question", async () => {
    const circle = await createCircle(db());
    const asker = await signedIn();
    await asker.visitor.post(`/api/circles/${circle.id}/questions/`, { title: "如何入门量子计算" });
    // The list offers Ask to visitors too; the ask page sends them to sign in first.
    const list = await new Visitor(api.app).get(`/circles/${circle.id}/questions`);
    expect(list.body).toContain(`href="/circles/${circle.id}/ask"`);
    const visitor = await new Visitor(api.app).get(`/circles/${circle.id}/ask`);
    expect(visitor.statusCode).toBe(302);
    expect(visitor.headers.location).toBe(`/login?next=${encodeURIComponent(`/circles/${circle.id}/ask`)}`);
    const { user, visitor: browser } = await signedIn();
    const page = await browser.get(`/circles/${circle.id}/ask`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("查找相似问题");
    const checked = await form(browser, `/circles/${circle.id}/ask`, { intent: "check", title: "量子计算难学吗", content: "" });
    expect(checked.statusCode).toBe(200);
    expect(checked.body).toContain("已有的相似问题");
    expect(checked.body).toContain("如何入门量子计算");
    expect(checked.body).toContain('value="量子计算难学吗"');
    const empty = await form(browser, `/en/circles/${circle.id}/ask`, { intent: "ask", title: "", content: "" });
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain("Please enter a title.");
    const asked = await form(browser, `/circles/${circle.id}/ask`, {
      intent: "ask",
      title: "量子计算难学吗",
      content: "想听听经验。\n",
      language: "zh-CN",
    });
    expect(asked.statusCode).toBe(303);
    const [row] = await db()
      .select()
      .from(questions)
      .where(and(eq(questions.authorId, user.id), eq(questions.circleId, circle.id)));
    expect(row).toMatchObject({ title: "量子计算难学吗", markdown: "想听听经验。\n" });
    expect(asked.headers.location).toBe(`/circles/${circle.id}/questions/${row!.id}`);
  });

  it("answers, refuses a second answer with the message, accepts and edits, all as plain form posts", async () => {
    const { asker, question } = await askedQuestion();
    const answerer = await signedIn();
    const posted = await form(answerer.visitor, question.url, { intent: "answer", content: "从《费曼物理学讲义》开始。\n" });
    expect(posted.statusCode).toBe(303);
    const [row] = await db().select().from(answers).where(eq(answers.questionId, question.id));
    expect(posted.headers.location).toBe(`${question.url}?notice=answered#answer-${row!.id}`);
    const again = await form(answerer.visitor, question.url, { intent: "answer", content: "再答一次。\n" });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain("你已经回答过这个问题了。");
    expect(again.body).toContain("编辑我的回答");
    const english = await form(answerer.visitor, `/en${question.url}`, { intent: "answer", content: "Once more.\n" });
    expect(english.body).toContain("You have answered this question.");
    expect(english.body).toContain("Edit my answer");

    const stranger = await signedIn();
    expect((await form(stranger.visitor, question.url, { intent: "accept", answer_id: String(row!.id) })).statusCode).toBe(403);
    const accepted = await form(asker.visitor, question.url, { intent: "accept", answer_id: String(row!.id) });
    expect(accepted.statusCode).toBe(303);
    expect((await db().select().from(questions).where(eq(questions.id, question.id)))[0]!.acceptedAnswerId).toBe(row!.id);

    const answerUrl = `${question.url}/${answerer.user.username}`;
    const editPage = await answerer.visitor.get(`${answerUrl}?edit=1`);
    expect(editPage.body).toContain("从《费曼物理学讲义》开始。");
    const edited = await form(answerer.visitor, answerUrl, { intent: "edit-answer", content: "从费曼讲义第一卷开始。\n", version: "1" });
    expect(edited.statusCode).toBe(303);
    const stale = await form(answerer.visitor, answerUrl, { intent: "edit-answer", content: "旧版本的修改。\n", version: "1" });
    expect(stale.statusCode).toBe(409);
    expect(stale.body).toContain("从费曼讲义第一卷开始。");
    const read = await new Visitor(api.app).get(answerUrl);
    expect(read.body).toContain("从费曼讲义第一卷开始。");
    expect(read.body).toContain("编辑于");
  });

  it("edits the question on the ask page and comments on an answer, as plain form posts; the question page opens an answer's comments", async () => {
    const { asker, question } = await askedQuestion();
    const page = await asker.visitor.get(question.url);
    expect(page.body).toContain(`/circles/1/ask?edit=${question.id}`);
    const stranger = await signedIn();
    expect((await stranger.visitor.get(`/circles/1/ask?edit=${question.id}`)).statusCode).toBe(403);
    const editor = await asker.visitor.get(`/en/circles/1/ask?edit=${question.id}`);
    expect(editor.statusCode).toBe(200);
    expect(editor.body).toContain("Edit the question");
    expect(editor.body).toContain('value="怎样入门量子力学？"');
    const saved = await form(asker.visitor, `/circles/1/ask?edit=${question.id}`, {
      intent: "save",
      title: "怎样自学量子力学？",
      content: "需要哪些数学基础？\n",
      language: "zh-CN",
      version: "1",
    });
    expect(saved.statusCode, saved.body).toBe(303);
    expect(saved.headers.location).toBe(`${question.url}?notice=edited_question`);
    const stale = await form(asker.visitor, `/circles/1/ask?edit=${question.id}`, {
      intent: "save",
      title: "旧的标题",
      content: "",
      language: "zh-CN",
      version: "1",
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.body).toContain("你打开后这个问题已被修改");
    expect(stale.body).toContain("怎样自学量子力学？");
    expect(stale.body).toContain('value="旧的标题"');

    const answerer = await signedIn();
    const answered = await answerer.visitor.post(`/api/questions/${question.id}/answers/`, { content: "先学线性代数。\n" });
    const answerId = answered.json().id as number;
    const answerUrl = `${question.url}/${answerer.user.username}`;
    const commenter = await signedIn();
    const commented = await form(commenter.visitor, answerUrl, { intent: "comment", body: "同意，线性代数最重要。" });
    expect(commented.statusCode).toBe(302);
    expect(commented.headers.location).toMatch(new RegExp(`^${answerUrl}\\?notice=commented#comment-\\d+$`));
    const answerPage = await new Visitor(api.app).get(answerUrl);
    expect(answerPage.body).toContain("同意，线性代数最重要。");
    const closed = await new Visitor(api.app).get(question.url);
    expect(closed.body).toContain("1 条评论");
    expect(closed.body).not.toContain("同意，线性代数最重要。");
    const opened = await new Visitor(api.app).get(`/en${question.url}?answer_comments=${answerId}`);
    expect(opened.body).toContain("同意，线性代数最重要。");
    expect(opened.body).toContain("Hide comments");
  });
});

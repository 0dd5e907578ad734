import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createUser, signedInVisitor } from "../../tests/support/factories.ts";
import { oneDatabaseKind } from "../../tests/support/database.ts";
import { grant } from "../../tests/support/money.ts";

/** The task market's pages as plain forms, in both languages: post, accept, submit, approve, and both parties' pages after. */
describe.each(oneDatabaseKind)("task market pages on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? "";
  const member = async () => {
    const user = await createUser(db());
    return { user, visitor: await signedInVisitor(api.app, db(), user) };
  };
  const tomorrow = () => {
    // A datetime-local value in Asia/Shanghai, a day ahead.
    const shanghai = new Date(Date.now() + 86_400_000 + 8 * 3_600_000);
    return shanghai.toISOString().slice(0, 16);
  };

  it("posts a task, lets another user accept and submit, and the poster approve; both see it on their pages", async () => {
    const poster = await member();
    await grant(db(), poster.user.id, "sinecoin", 50);
    const market = (await poster.visitor.get("/trade")).body;
    expect(market).toContain("发布任务");
    expect((await poster.visitor.get("/en/trade")).body).toContain("Post a task");
    const posted = await poster.visitor.postForm("/trade", {
      csrftoken: await poster.visitor.csrfToken(),
      idempotency_key: hidden(market, "idempotency_key"),
      intent: "post",
      circle_id: "1",
      title: "把词条译成英文",
      description: "翻译**全文**",
      reward: "20",
      slots: "2",
      deadline: tomorrow(),
    });
    expect(posted.statusCode, posted.body).toBe(303);
    const taskPath = posted.headers.location as string;
    expect(taskPath).toMatch(/^\/trade\/missions\/\d+$/);
    expect((await poster.visitor.get("/api/wallet/")).json()).toMatchObject({ sinecoin: 10 });
    expect((await poster.visitor.get("/trade")).body).toContain("把词条译成英文");

    const worker = await member();
    const taskPage = (await worker.visitor.get(taskPath)).body;
    expect(taskPage).toContain("剩余 2 / 2 个名额");
    const accepted = await worker.visitor.postForm(taskPath, { csrftoken: await worker.visitor.csrfToken(), intent: "accept" });
    expect(accepted.statusCode).toBe(303);
    const recordPath = accepted.headers.location as string;
    expect(recordPath).toMatch(/^\/trade\/missions\/progress\/\d+$/);
    const submitted = await worker.visitor.postForm(recordPath, {
      csrftoken: await worker.visitor.csrfToken(),
      intent: "submit",
      content: "The entry in English.",
    });
    expect(submitted.statusCode).toBe(303);
    expect((await worker.visitor.get(`/en${recordPath}`)).body).toContain("Awaiting review");

    const review = (await poster.visitor.get(recordPath)).body;
    expect(review).toContain("The entry in English.");
    expect(review).toContain("通过并支付");
    const approved = await poster.visitor.postForm(recordPath, { csrftoken: await poster.visitor.csrfToken(), intent: "approve" });
    expect(approved.statusCode).toBe(303);

    expect((await worker.visitor.get(recordPath)).body).toContain("已通过");
    expect((await worker.visitor.get("/trade/missions/me/accept")).body).toContain("把词条译成英文");
    expect((await worker.visitor.get("/en/trade/missions/me/reward")).body).toContain("Task reward from");
    expect((await worker.visitor.get("/wallet")).body).toContain("任务赏金");
    expect((await poster.visitor.get("/trade/missions/progress")).body).toContain("已通过");
    expect((await poster.visitor.get("/en/wallet")).body).toContain("Task reward held");
    expect((await worker.visitor.get("/api/wallet/")).json()).toMatchObject({ sinecoin: 20, sinecoin_total_profit: 20 });
  });

  it("asks visitors to log in for the personal pages and hides a record from others", async () => {
    const anonymous = new Visitor(api.app);
    expect((await anonymous.get("/trade/missions/me/accept")).statusCode).toBe(302);
    expect((await anonymous.get("/trade")).statusCode).toBe(200);
    const stranger = await member();
    expect((await stranger.visitor.get("/trade/missions/progress/999999")).statusCode).toBe(404);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { createUser, signedInVisitor } from "../../tests/support/factories.ts";
import { oneDatabaseKind } from "../../tests/support/database.ts";
import { grant } from "../../tests/support/money.ts";

/** Refund requests on the reading page and the free top-up allowance on the top-up page, as plain forms, in both languages. */
describe.each(oneDatabaseKind)("refund requests and top-up allowance pages on %s", (kind) => {
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

  it("lets a reader ask for a refund with a reason and the author approve it on the reading page", async () => {
    const author = await member();
    const published = await author.visitor.post("/api/circles/1/writings/", {
      title: "付费页面",
      content: "开头\n\n<!-- paywall -->\n\n付费的句子\n",
      pay_to_view: { price: 4 },
    });
    const { id } = published.json() as { id: number };
    const path = `/circles/1/writing/${id}`;
    const reader = await member();
    await grant(db(), reader.user.id, "sinecoin", 10);
    const token = await reader.visitor.csrfToken();
    const page = (await reader.visitor.get(path)).body;
    expect(
      (await reader.visitor.postForm(path, { csrftoken: token, idempotency_key: hidden(page, "idempotency_key"), intent: "unlock" }))
        .statusCode,
    ).toBe(303);
    const unlocked = (await reader.visitor.get(path)).body;
    expect(unlocked).toContain("退款理由");
    expect(unlocked).toContain("申请退回 4 圈币");
    const asked = await reader.visitor.postForm(path, {
      csrftoken: token,
      idempotency_key: hidden(unlocked, "idempotency_key"),
      intent: "refund_request",
      reason: "内容与标题不符",
    });
    expect(asked.statusCode).toBe(303);
    expect((await reader.visitor.get(`/en${path}`)).body).toContain("You asked for a refund: the author decides.");

    const authorPage = (await author.visitor.get(path)).body;
    expect(authorPage).toContain("退款申请");
    expect(authorPage).toContain("内容与标题不符");
    const requestId = hidden(authorPage, "refund_request");
    expect(requestId).toMatch(/^\d+$/);
    const authorToken = await author.visitor.csrfToken();
    const approved = await author.visitor.postForm(path, {
      csrftoken: authorToken,
      idempotency_key: hidden(authorPage, "idempotency_key"),
      refund_request: requestId,
      intent: "approve_refund",
    });
    expect(approved.statusCode).toBe(303);
    expect((await author.visitor.get(path)).body).not.toContain("内容与标题不符");
    expect((await reader.visitor.get("/api/wallet/")).json()).toMatchObject({ sinecoin: 10 });
  });

  it("says how much may still be topped up free today, in both languages", async () => {
    const { visitor } = await member();
    expect((await visitor.get("/wallet/sinecoin_recharge")).body).toContain("今天还可充值 500 圈币");
    const created = await visitor.request("POST", "/api/wallet/topups/", {
      json: { amount: 200, method: "wechat" },
      headers: { "idempotency-key": "pages-topup-0001" },
    });
    expect(created.statusCode).toBe(201);
    expect((await visitor.get("/en/wallet/sinecoin_recharge")).body).toContain("300 left today");
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { grant } from "../../tests/support/money.ts";
import { checkLedger, ledgerIsConsistent } from "../ledger/check.ts";

const secret = "付费部分的秘密句子";

describe.each(databaseKinds)("pay-to-view on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  let keys = 0;
  const key = () => ({ "idempotency-key": `paywall-${Date.now()}-${(keys += 1)}` });
  const read = async (visitor: Visitor, id: number) =>
    (await visitor.get(`/api/writings/${id}/`)).json() as {
      html: string;
      content?: string;
      pay_to_view: { price: number; unlocked: boolean } | null;
    };

  it("never shows the paid part to readers who have not unlocked, charges once, refunds once on the author's approval", async () => {
    const author = await createSignedInUser(api.app, db());
    const published = await author.visitor.post("/api/circles/1/writings/", {
      title: "付费文章",
      content: `免费的开头 freeword${kind}。\n\n<!-- paywall -->\n\n${secret} paidword${kind}\n`,
      pay_to_view: { price: 5 },
    });
    expect(published.statusCode, published.body).toBe(201);
    const { id } = published.json() as { id: number };
    // Search finds the free part only, and its snippets never quote the paid part.
    const found = await new Visitor(api.app).get(`/api/search/?q=freeword${kind}`);
    expect(found.body).toContain(`/writing/${id}`);
    expect(found.body).not.toContain(secret);
    expect((await new Visitor(api.app).get(`/api/search/?q=paidword${kind}`)).body).not.toContain(`/writing/${id}`);
    const authorView = await read(author.visitor, id);
    expect(authorView.html).toContain(secret);
    expect(authorView.pay_to_view).toEqual({ price: 5, unlocked: true });

    const visitor = new Visitor(api.app);
    const anonymous = await read(visitor, id);
    expect(anonymous.html).toContain("免费的开头");
    expect(JSON.stringify(anonymous)).not.toContain(secret);
    expect(anonymous.pay_to_view).toEqual({ price: 5, unlocked: false });

    const reader = await createSignedInUser(api.app, db());
    expect(JSON.stringify(await read(reader.visitor, id))).not.toContain(secret);
    const broke = await reader.visitor.request("POST", `/api/writings/${id}/unlock/`, { json: {}, headers: key() });
    expect(broke.json()).toMatchObject({ code: "insufficient_balance" });
    await grant(db(), reader.user.id, "sinecoin", 12);
    const unlockKey = key();
    const unlocked = await reader.visitor.request("POST", `/api/writings/${id}/unlock/`, { json: {}, headers: unlockKey });
    expect(unlocked.statusCode, unlocked.body).toBe(200);
    expect(unlocked.json()).toMatchObject({ charged: 5, balance: 7 });
    expect((unlocked.json() as { html: string }).html).toContain(secret);
    // The same request again, and a new one: nothing more is charged.
    expect((await reader.visitor.request("POST", `/api/writings/${id}/unlock/`, { json: {}, headers: unlockKey })).json()).toMatchObject({
      charged: 5,
    });
    expect((await reader.visitor.request("POST", `/api/writings/${id}/unlock/`, { json: {}, headers: key() })).json()).toMatchObject({
      charged: 0,
      balance: 7,
    });
    expect((await read(reader.visitor, id)).html).toContain(secret);
    expect((await author.visitor.get("/api/wallet/")).json()).toMatchObject({ sinecoin: 5, sinecoin_total_profit: 5 });

    // No self-service refund: the reader asks, with a reason, and the author decides.
    expect((await reader.visitor.request("POST", `/api/writings/${id}/unlock/refund/`, { json: {}, headers: key() })).statusCode).toBe(404);
    const ask = (visitor: Visitor, reason = "不是我想要的内容") =>
      visitor.request("POST", `/api/writings/${id}/unlock/refund_requests/`, { json: { reason }, headers: key() });
    expect((await ask(reader.visitor, " ")).statusCode).toBe(400);
    const asked = await ask(reader.visitor);
    expect(asked.statusCode, asked.body).toBe(201);
    const { id: requestId } = asked.json() as { id: number };
    // One request per unlock; someone who never unlocked has nothing to ask back.
    expect((await ask(reader.visitor)).json()).toMatchObject({ code: "refund_unavailable" });
    const stranger = await createSignedInUser(api.app, db());
    expect((await ask(stranger.visitor)).json()).toMatchObject({ code: "refund_unavailable" });
    // Only the author (or a moderator) sees and decides the requests; the reader cannot approve their own.
    expect((await reader.visitor.get(`/api/writings/${id}/unlock/refund_requests/`)).statusCode).toBe(403);
    expect(
      (await reader.visitor.request("POST", `/api/unlock_refund_requests/${requestId}/approve/`, { json: {}, headers: key() })).statusCode,
    ).toBe(403);
    const listed = (await author.visitor.get(`/api/writings/${id}/unlock/refund_requests/`)).json() as {
      results: { id: number; status: string; reason: string }[];
    };
    expect(listed.results).toMatchObject([{ id: requestId, status: "open", reason: "不是我想要的内容" }]);
    // The author was told.
    const notices = (await author.visitor.get("/api/messages/system/")).body;
    expect(notices).toContain("unlock.refund_requested");
    const approved = await author.visitor.request("POST", `/api/unlock_refund_requests/${requestId}/approve/`, {
      json: {},
      headers: key(),
    });
    expect(approved.json()).toEqual({ id: requestId, status: "approved" });
    expect(
      (await author.visitor.request("POST", `/api/unlock_refund_requests/${requestId}/reject/`, { json: {}, headers: key() })).json(),
    ).toMatchObject({
      code: "refund_request_decided",
    });
    expect((await reader.visitor.get("/api/wallet/")).json()).toMatchObject({ sinecoin: 12 });
    // The refund takes the income back out of the author's profit.
    expect((await author.visitor.get("/api/wallet/")).json()).toMatchObject({
      sinecoin: 0,
      sinecoin_total_profit: 0,
      cashoutable_sinecoin_profit: 0,
    });
    expect(JSON.stringify(await read(reader.visitor, id))).not.toContain(secret);
    // Unlocking again pays again, and cannot be refunded a second time.
    expect((await reader.visitor.request("POST", `/api/writings/${id}/unlock/`, { json: {}, headers: key() })).json()).toMatchObject({
      charged: 5,
      balance: 7,
    });
    expect((await ask(reader.visitor)).json()).toMatchObject({ code: "refund_unavailable" });
    expect(ledgerIsConsistent(await checkLedger(db()))).toBe(true);
  });

  it("lets the author reject a refund request (the reader keeps reading) and limits requests per reader per day", async () => {
    const author = await createSignedInUser(api.app, db());
    const reader = await createSignedInUser(api.app, db());
    await grant(db(), reader.user.id, "sinecoin", 100);
    const ids: number[] = [];
    for (let index = 0; index < 5; index += 1) {
      const published = await author.visitor.post("/api/circles/1/writings/", {
        title: `付费 ${index}`,
        content: `开头\n\n<!-- paywall -->\n\n${secret}\n`,
        pay_to_view: { price: 2 },
      });
      const { id } = published.json() as { id: number };
      ids.push(id);
      expect((await reader.visitor.request("POST", `/api/writings/${id}/unlock/`, { json: {}, headers: key() })).statusCode).toBe(200);
    }
    const ask = (id: number) =>
      reader.visitor.request("POST", `/api/writings/${id}/unlock/refund_requests/`, { json: { reason: "试试" }, headers: key() });
    const first = (await ask(ids[0]!)).json() as { id: number };
    const rejected = await author.visitor.request("POST", `/api/unlock_refund_requests/${first.id}/reject/`, { json: {}, headers: key() });
    expect(rejected.json()).toEqual({ id: first.id, status: "rejected" });
    expect((await read(reader.visitor, ids[0]!)).html).toContain(secret);
    expect((await ask(ids[1]!)).statusCode).toBe(201);
    expect((await ask(ids[2]!)).statusCode).toBe(201);
    const limited = await ask(ids[3]!);
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: "refund_request_limit" });
    expect((await author.visitor.get("/api/wallet/")).json()).toMatchObject({ sinecoin: 10, sinecoin_total_profit: 10 });
    expect(ledgerIsConsistent(await checkLedger(db()))).toBe(true);
  });

  it("keeps a writing free without a price, and moves the paid part when the author edits", async () => {
    const author = await createSignedInUser(api.app, db());
    const published = await author.visitor.post("/api/circles/1/writings/", {
      title: "免费",
      content: `开头\n\n<!-- paywall -->\n\n${secret}\n`,
    });
    const { id } = published.json() as { id: number };
    const reader = await createSignedInUser(api.app, db());
    expect((await read(reader.visitor, id)).html).toContain(secret);
    const edited = await author.visitor.request("PATCH", `/api/writings/${id}/`, { json: { version: 1, pay_to_view: { price: 3 } } });
    expect(edited.statusCode, edited.body).toBe(200);
    const after = await read(reader.visitor, id);
    expect(JSON.stringify(after)).not.toContain(secret);
    expect(after.pay_to_view).toEqual({ price: 3, unlocked: false });
  });
});

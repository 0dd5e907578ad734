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

  it("never shows the paid part to readers who have not unlocked, charges once, refunds once within 24 hours", async () => {
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

    const refunded = await reader.visitor.request("POST", `/api/writings/${id}/unlock/refund/`, { json: {}, headers: key() });
    expect(refunded.json()).toEqual({ refunded: 5, balance: 12 });
    expect(JSON.stringify(await read(reader.visitor, id))).not.toContain(secret);
    const again = await reader.visitor.request("POST", `/api/writings/${id}/unlock/refund/`, { json: {}, headers: key() });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: "refund_unavailable" });
    // Unlocking again pays again, and cannot be refunded a second time.
    expect((await reader.visitor.request("POST", `/api/writings/${id}/unlock/`, { json: {}, headers: key() })).json()).toMatchObject({
      charged: 5,
      balance: 7,
    });
    expect((await reader.visitor.request("POST", `/api/writings/${id}/unlock/refund/`, { json: {}, headers: key() })).statusCode).toBe(409);
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

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { grant } from "../../tests/support/money.ts";
import { checkLedger, ledgerIsConsistent } from "../ledger/check.ts";

describe.each(databaseKinds)("settlement through the job queue on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { jobs: true });
  });
  afterAll(() => api.close());

  it("makes a tip cashable after the window, once, however often the job runs", async () => {
    const author = await createSignedInUser(api.app, api.database.db);
    const writing = await createWriting(api.database.db, author.user, { title: "结算测试", tipEnabled: true });
    const reader = await createSignedInUser(api.app, api.database.db);
    await grant(api.database.db, reader.user.id, "sinecoin", 40);
    const tipped = await reader.visitor.request("POST", `/api/subjects/writing/${writing.id}/tips/`, {
      json: { amount: 40 },
      headers: { "idempotency-key": `settle-tip-${Date.now()}` },
    });
    expect(tipped.statusCode, tipped.body).toBe(201);
    const wallet = async () => (await author.visitor.get("/api/wallet/")).json() as Record<string, number>;
    expect(await wallet()).toMatchObject({ sinecoin: 40, sinecoin_total_profit: 40, cashoutable_sinecoin_profit: 0 });
    // Inside the window the job moves nothing.
    await api.jobs!.runJobNow("settle-income", {});
    expect(await wallet()).toMatchObject({ cashoutable_sinecoin_profit: 0 });
    const asOf = new Date(Date.now() + 8 * 24 * 60 * 60 * 1000).toISOString();
    for (let run = 0; run < 2; run += 1) {
      expect((await api.jobs!.runJobNow("settle-income", { asOf })).map((result) => result.outcome)).toEqual(["completed"]);
    }
    expect(await wallet()).toMatchObject({ sinecoin: 40, sinecoin_total_profit: 40, cashoutable_sinecoin_profit: 40 });
    expect(ledgerIsConsistent(await checkLedger(api.database.db))).toBe(true);
  });
});

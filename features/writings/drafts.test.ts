import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { drafts } from "../../server/db/schema/index.ts";
import { draftListLimit } from "./drafts.ts";
import { draftFieldsLimits } from "./schema.ts";

describe.each(databaseKinds)("draft quotas on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());

  const english = { "accept-language": "en" };
  const chinese = { "accept-language": "zh-CN" };

  it("keeps at most the listed number of drafts per user: a new one beyond it is refused, saving an existing one is not", async () => {
    const { user, visitor } = await createSignedInUser(api.app, api.database.db);
    await api.database.db
      .insert(drafts)
      .values(Array.from({ length: draftListLimit }, (_, index) => ({ userId: user.id, key: `kept-${index}`, title: `草稿 ${index}` })));
    const refused = await visitor.request("PUT", "/api/drafts/one-more/", { json: { title: "多一篇", version: 0 }, headers: english });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: "draft_limit_reached", message: expect.stringContaining(`${draftListLimit} drafts`) });
    const inChinese = await visitor.request("PUT", "/api/drafts/one-more/", { json: { version: 0 }, headers: chinese });
    expect(inChinese.json().message).toContain("已达上限");
    const updated = await visitor.request("PUT", "/api/drafts/kept-3/", { json: { title: "改过", version: 1 } });
    expect(updated.statusCode, updated.body).toBe(200);
    expect((await visitor.get("/api/drafts/")).json().drafts).toHaveLength(draftListLimit);
    expect((await visitor.get("/api/drafts/one-more/")).statusCode).toBe(404);
    // A deleted draft frees its place.
    expect((await visitor.request("DELETE", "/api/drafts/kept-0/")).statusCode).toBe(204);
    expect((await visitor.request("PUT", "/api/drafts/one-more/", { json: { version: 0 } })).statusCode).toBe(200);
  });

  it("lets only the free places go to drafts started at the same moment", async () => {
    const { user, visitor } = await createSignedInUser(api.app, api.database.db);
    await api.database.db
      .insert(drafts)
      .values(Array.from({ length: draftListLimit - 2 }, (_, index) => ({ userId: user.id, key: `kept-${index}` })));
    await visitor.csrfToken();
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, index) => visitor.request("PUT", `/api/drafts/race-${index}/`, { json: { version: 0 } })),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 200, 409, 409, 409, 409]);
  });

  it("bounds the size and depth of a draft's other fields, with localized messages and no stack overflow", async () => {
    const { visitor } = await createSignedInUser(api.app, api.database.db);
    const deep = `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`;
    const tooDeep = await visitor.request("PUT", "/api/drafts/deep/", {
      body: `{"version":0,"fields":${deep}}`,
      headers: { ...english, "content-type": "application/json" },
    });
    expect(tooDeep.statusCode, tooDeep.body).toBe(400);
    expect(tooDeep.json()).toMatchObject({
      code: "validation_failed",
      fields: { fields: "The draft's other fields are nested too deeply." },
    });
    const large = { notes: "x".repeat(draftFieldsLimits.maxBytes) };
    const tooLarge = await visitor.request("PUT", "/api/drafts/large/", { json: { version: 0, fields: large }, headers: chinese });
    expect(tooLarge.statusCode).toBe(400);
    expect(tooLarge.json().fields).toEqual({ fields: "草稿的其他字段最多 16 KB。" });
    // What the editor stores fits easily.
    const editorFields = { type: "article", kind: "ordinary", categories: [1, 2, 3], is_repost: false, circle_id: 7 };
    const saved = await visitor.request("PUT", "/api/drafts/normal/", { json: { version: 0, fields: editorFields } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().fields).toEqual(editorFields);
  });
});

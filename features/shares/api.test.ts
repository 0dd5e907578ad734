import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createCircle, createSignedInUser, createUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { events } from "../../server/db/schema/index.ts";

describe.each(databaseKinds)("shares API on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;
  const share = (visitor: Visitor, type: string, id: number) => visitor.post(`/api/subjects/${type}/${id}/share/`, {});

  it("counts a share once per visitor and day, signed in or not, and records the event", async () => {
    const writing = await createWriting(db(), await createUser(db()));
    const { user, visitor } = await createSignedInUser(api.app, db());
    expect((await share(visitor, "writing", writing.id)).json()).toEqual({ share_count: 1 });
    expect((await share(visitor, "writing", writing.id)).json()).toEqual({ share_count: 1 });
    const anonymous = new Visitor(api.app);
    expect((await share(anonymous, "writing", writing.id)).json()).toEqual({ share_count: 2 });
    // The visitor cookie it was given keeps the same visitor.
    expect((await share(anonymous, "writing", writing.id)).json()).toEqual({ share_count: 2 });
    const recorded = await db()
      .select({ actorId: events.actorId })
      .from(events)
      .where(and(eq(events.verb, "subject.shared"), eq(events.subjectId, writing.id)));
    expect(recorded).toEqual([{ actorId: user.id }, { actorId: null }]);
  });

  it("refuses what the visitor may not read, and draws the QR code of a page of this site only", async () => {
    const hidden = await createCircle(db(), { visibility: "members" });
    const secret = await createWriting(db(), await createUser(db()), { circleId: hidden.id });
    const visitor = new Visitor(api.app);
    expect((await share(visitor, "writing", secret.id)).statusCode).toBe(404);
    expect((await share(visitor, "nothing", 1)).statusCode).toBe(404);
    const qr = await visitor.get(`/api/qr.svg?path=${encodeURIComponent("/circles/1/writing/1")}`);
    expect(qr.statusCode).toBe(200);
    expect(qr.headers["content-type"]).toContain("image/svg+xml");
    expect(qr.body).toContain("<svg");
    expect((await visitor.get(`/api/qr.svg?path=${encodeURIComponent("//evil.example/")}`)).statusCode).toBe(400);
    expect((await visitor.get(`/api/qr.svg?path=${encodeURIComponent("https://evil.example/")}`)).statusCode).toBe(400);
  });
});

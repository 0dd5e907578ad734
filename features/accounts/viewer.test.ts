import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../tests/support/database.ts";
import { createSessionFor, createUser } from "../../tests/support/factories.ts";
import { findSessionViewer, revokeSessionsOf } from "./service.ts";

describe.each(databaseKinds)("the presented viewer on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.dispose());

  it("holds who is asking, never the account row (no password hash, no balances)", async () => {
    const user = await createUser(database.db, { userType: "VIP users" });
    const token = await createSessionFor(database.db, user);
    const viewer = await findSessionViewer(database.db, token);
    expect(viewer).toEqual({ id: user.id, username: user.username, nickname: user.nickname, userType: "VIP users", avatar: null });
    // The second lookup comes from the session cache: the same presented shape.
    expect(Object.keys((await findSessionViewer(database.db, token))!).sort()).toEqual(["avatar", "id", "nickname", "userType", "username"]);
  });

  it("forgets cached sessions when they are revoked, so a revoked cookie stops working at once", async () => {
    const user = await createUser(database.db);
    const kept = await createSessionFor(database.db, user);
    const revoked = await createSessionFor(database.db, user);
    expect(await findSessionViewer(database.db, revoked)).not.toBeNull();
    await revokeSessionsOf({ db: database.db }, user.id, kept);
    expect(await findSessionViewer(database.db, revoked)).toBeNull();
    expect(await findSessionViewer(database.db, kept)).not.toBeNull();
  });
});

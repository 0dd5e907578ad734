import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../tests/support/database.ts";
import { createSessionFor, createUser } from "../../tests/support/factories.ts";
import { eq } from "drizzle-orm";
import { findSessionViewer, registerUser, revokeSessionsOf } from "./service.ts";
import { events, sessions, users } from "../../server/db/schema/index.ts";
import { inTransaction } from "../../server/lib/transactions.ts";
import { newUser } from "../../tests/support/api.ts";

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
    expect(Object.keys((await findSessionViewer(database.db, token))!).sort()).toEqual([
      "avatar",
      "id",
      "nickname",
      "userType",
      "username",
    ]);
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

  it("lets a use case join the caller's transaction: registration and its session commit or fail together", async () => {
    const input = newUser();
    await expect(
      inTransaction({ db: database.db }, async (tx) => {
        await registerUser(
          { db: database.db, tx },
          { ...input, confirm_password: input.password } as never,
          { ip: "127.0.0.1", userAgent: "test" },
          { captcha: false, signupsPerHour: 100 },
        );
        throw new Error("the outer use case failed");
      }),
    ).rejects.toThrow("the outer use case failed");
    expect(await database.db.select().from(users).where(eq(users.username, input.username))).toEqual([]);

    const signedIn = await registerUser(
      { db: database.db },
      input as never,
      { ip: "127.0.0.1", userAgent: "test" },
      { captcha: false, signupsPerHour: 100 },
    );
    const [session] = await database.db.select().from(sessions).where(eq(sessions.userId, signedIn.user.id));
    expect(session).toBeDefined();
    const [event] = await database.db.select().from(events).where(eq(events.subjectId, signedIn.user.id));
    expect(event).toMatchObject({ verb: "user.registered", actorId: signedIn.user.id, subjectType: "user" });
  });
});

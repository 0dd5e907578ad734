import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser, createUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { embeddedDataPath, openEmbeddedDatabase } from "../../server/db/client.ts";
import { events, users } from "../../server/db/schema/index.ts";
import { parseUserType, setUserType } from "./user-type.ts";

describe("user types by short or full name", () => {
  it.each([
    ["registered", "Registered users"],
    ["Official", "Official users"],
    ["vip", "VIP users"],
    ["SVIP", "SVIP users"],
    ["VIP users", "VIP users"],
    ["admin", null],
    ["", null],
  ])("%s → %s", (input, expected) => {
    expect(parseUserType(input)).toBe(expected);
  });
});

describe.each(databaseKinds)("setting a user's type on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());

  it("changes the type, records an event and shows at once to the signed-in user", async () => {
    const { user, visitor } = await createSignedInUser(api.app, api.database.db);
    // The session is now in the 2 s cache…
    expect(((await visitor.get("/api/Users/LoginAuth/")).json() as { user_type: string }).user_type).toBe("Registered users");
    const result = await setUserType({ db: api.database.db }, user.username.toUpperCase(), "SVIP users");
    expect(result).toEqual({ id: user.id, previous: "Registered users" });
    // …and forgotten by the change, so the badge changes without waiting.
    expect(((await visitor.get("/api/Users/LoginAuth/")).json() as { user_type: string }).user_type).toBe("SVIP users");
    expect(((await visitor.get(`/api/Users/profile/${user.username}/`)).json() as { user_type_key: string }).user_type_key).toBe("svip");
    const [event] = await api.database.db.select().from(events).where(eq(events.verb, "user.type_changed"));
    expect(event).toMatchObject({ actorId: null, subjectId: user.id, data: { from: "Registered users", to: "SVIP users" } });
    await expect(setUserType({ db: api.database.db }, "nobody_here", "VIP users")).rejects.toMatchObject({ code: "not_found" });
  });
});

describe("npm run admin -- set-type", () => {
  it("sets a type on the embedded store and explains bad input", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "circles-admin-"));
    const database = await openEmbeddedDatabase(embeddedDataPath(dataDir));
    await database.migrate();
    const user = await createUser(database.db);
    await database.close();
    const run = promisify(execFile);
    const script = path.resolve(import.meta.dirname, "../../scripts/admin.ts");
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" };
    const done = await run(process.execPath, [script, "set-type", user.username, "vip"], { env });
    expect(done.stdout.trim()).toBe(`${user.username}: Registered users → VIP users`);
    await expect(run(process.execPath, [script, "set-type", user.username, "king"], { env })).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Unknown user type "king"'),
    });
    const reopened = await openEmbeddedDatabase(embeddedDataPath(dataDir));
    const [row] = await reopened.db.select({ userType: users.userType }).from(users).where(eq(users.id, user.id));
    await reopened.close();
    expect(row!.userType).toBe("VIP users");
  }, 300_000);
});

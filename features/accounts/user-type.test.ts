import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser, createUser } from "../../tests/support/factories.ts";
import { createTestDatabase, databaseKinds, migratedTemplate } from "../../tests/support/database.ts";
import { embeddedDataPath, openEmbeddedDatabase } from "../../server/db/client.ts";
import { events, users } from "../../server/db/schema/index.ts";
import lockfile from "proper-lockfile";
import { run } from "../../scripts/admin.ts";
import type { User } from "./service.ts";
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

/** The command's exit code and what it printed, run in this process. */
async function admin(args: string[], env: Record<string, string>) {
  const out = vi.spyOn(console, "log").mockImplementation(() => {});
  const err = vi.spyOn(console, "error").mockImplementation(() => {});
  try {
    const code = await run(args, env);
    return { code, stdout: out.mock.calls.join("\n"), stderr: err.mock.calls.join("\n") };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

describe("npm run admin -- set-type on the embedded store", () => {
  // One store on disk for these tests (opening one is slow), started from the run's migrated template.
  // They run in order, and each command prints the type it replaced: so each shows what the one before left.
  const dataDir = mkdtempSync(path.join(tmpdir(), "circles-admin-"));
  const env = { DATA_DIR: dataDir, DATABASE_URL: "" };
  let user: User;
  beforeAll(async () => {
    const database = await openEmbeddedDatabase(embeddedDataPath(dataDir), await migratedTemplate());
    await database.migrate();
    user = await createUser(database.db);
    await database.close();
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
  const typeInStore = async () => {
    const reopened = await openEmbeddedDatabase(embeddedDataPath(dataDir));
    try {
      const [row] = await reopened.db.select({ userType: users.userType }).from(users).where(eq(users.id, user.id));
      return row!.userType;
    } finally {
      await reopened.close();
    }
  };

  it("refuses a store a server holds, changing nothing", async () => {
    const release = await lockfile.lock(dataDir, { lockfilePath: path.join(dataDir, "server.lock"), realpath: false });
    try {
      expect(await admin(["set-type", user.username, "svip"], env)).toMatchObject({
        code: 1,
        stderr: expect.stringContaining("A Circles server is using the embedded store"),
      });
    } finally {
      await release();
    }
  });

  it("sets a type and explains bad input", async () => {
    expect(await admin(["set-type", user.username, "vip"], env)).toEqual({
      code: 0,
      stdout: `${user.username}: Registered users → VIP users`,
      stderr: "",
    });
    expect(await admin(["set-type", user.username, "king"], env)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Unknown user type "king"'),
    });
    expect(await admin(["set-type", user.username], env)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("Usage: npm run admin"),
    });
    expect(await admin(["set-type", "nobody_here", "svip"], env)).toMatchObject({ code: 1, stderr: 'No user named "nobody_here".' });
  });

  it("grants a site role (moderators review every report) and explains bad input", async () => {
    expect(await admin(["set-site-role", user.username, "moderator"], env)).toEqual({
      code: 0,
      stdout: `${user.username}: site role none → moderator`,
      stderr: "",
    });
    expect(await admin(["set-site-role", user.username, "king"], env)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Unknown site role "king"'),
    });
    expect(await admin(["set-site-role", "nobody_here", "admin"], env)).toMatchObject({ code: 1, stderr: 'No user named "nobody_here".' });
    const reopened = await openEmbeddedDatabase(embeddedDataPath(dataDir));
    try {
      const [row] = await reopened.db.select({ siteRole: users.siteRole }).from(users).where(eq(users.id, user.id));
      expect(row!.siteRole).toBe("moderator");
    } finally {
      await reopened.close();
    }
  });

  it("runs as a command: one process of its own", async () => {
    const script = path.resolve(import.meta.dirname, "../../scripts/admin.ts");
    const done = await promisify(execFile)(process.execPath, [script, "set-type", user.username, "svip"], {
      env: { ...process.env, ...env },
    });
    expect(done.stdout.trim()).toBe(`${user.username}: VIP users → SVIP users`);
    expect(await typeInStore()).toBe("SVIP users");
  }, 300_000);
});

describe.runIf(databaseKinds.includes("postgres"))("npm run admin -- set-type on a PostgreSQL server", () => {
  it("sets the type beside running servers", async () => {
    const database = await createTestDatabase("postgres");
    try {
      const user = await createUser(database.db);
      const result = await admin(["set-type", user.username, "Official users"], { DATA_DIR: tmpdir(), DATABASE_URL: database.url! });
      expect(result).toEqual({ code: 0, stdout: `${user.username}: Registered users → Official users`, stderr: "" });
      const [row] = await database.db.select({ userType: users.userType }).from(users).where(eq(users.id, user.id));
      expect(row!.userType).toBe("Official users");
    } finally {
      await database.dispose();
    }
  });
});

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { createTestApi, newUser, Visitor, type TestApi } from "../../tests/support/api.ts";
import { oneDatabaseKind } from "../../tests/support/database.ts";
import { throttleLimits } from "./throttle.server.ts";

/**
 * The login throttle must not tell which usernames and emails exist: an unknown name is counted
 * and refused exactly as an existing one, and a username throttled says nothing about its email.
 * (Timing is equal by design: a refused try verifies a decoy password as a checked one does.)
 */
describe.each(oneDatabaseKind)("login answers for existing and unknown names on %s", (kind) => {
  let api: TestApi;
  let account: ReturnType<typeof newUser>;
  beforeAll(async () => {
    api = await createTestApi(kind);
    account = newUser();
    expect((await new Visitor(api.app).post("/api/Users/register/", account)).statusCode).toBe(201);
  });
  afterAll(() => api.close());
  // The clock stands still while a sequence runs, so a wait of a second cannot end between two tries.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** What a wrong password for each of `names` in turn from `address` answers: status, code and localized message. */
  async function answers(address: string, names: string[]): Promise<string[]> {
    const visitor = new Visitor(api.app, { "accept-language": "en" }, { remoteAddress: address });
    const seen: string[] = [];
    for (const name of names) {
      const response = await visitor.post("/api/Users/login/", { username: name, password: "wrongpass1" });
      const body = response.json() as { code: string; message: string };
      seen.push(`${response.statusCode} ${body.code} ${body.message}`);
    }
    return seen;
  }

  it("throttles an unknown username exactly as an existing one, with the same answers", async () => {
    const tries = throttleLimits.pairFreeFailures + 3;
    const existing = await answers("20.0.0.1", Array(tries).fill(account.username));
    const unknown = await answers("20.0.0.2", Array(tries).fill("nobody_here"));
    expect(existing).toEqual(unknown);
    expect(existing.slice(0, throttleLimits.pairFreeFailures).every((line) => line.startsWith("401 invalid_credentials"))).toBe(true);
    expect(existing.at(-1)).toMatch(/^429 too_many_attempts Too many attempts\. Please try again in \d+ s\.$/);
  });

  it("says nothing about an account's email once its username is throttled (nor the other way round)", async () => {
    const free = throttleLimits.pairFreeFailures;
    const existing = await answers("20.0.0.3", [...Array(free + 1).fill(account.username), account.email, account.email.toUpperCase()]);
    const unknown = await answers("20.0.0.4", [...Array(free + 1).fill("nobody_else"), "nobody@example.com", "NOBODY@EXAMPLE.COM"]);
    expect(existing).toEqual(unknown);
    expect(existing.at(-2)).toMatch(/^401 invalid_credentials/);
    const byEmail = await answers("20.0.0.5", [...Array(free + 1).fill(account.email), account.username]);
    const byUnknownEmail = await answers("20.0.0.6", [...Array(free + 1).fill("ghost@example.com"), "ghost_name"]);
    expect(byEmail).toEqual(byUnknownEmail);
  });

  it("still signs the owner in with the right password", async () => {
    const visitor = new Visitor(api.app, {}, { remoteAddress: "20.0.0.7" });
    const response = await visitor.post("/api/Users/login/", { username: account.email, password: account.password });
    expect(response.statusCode).toBe(200);
  });
});

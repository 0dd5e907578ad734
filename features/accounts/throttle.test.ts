import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../tests/support/database.ts";
import { knownLoginIps, loginFailures, users } from "../../server/db/schema/index.ts";
import { assertLoginAllowed, recordLoginFailure, recordLoginSuccess, throttleLimits, waitParams } from "./throttle.server.ts";
import { AppError, presentError } from "../../common/app-error.ts";

describe("login throttling", () => {
  let database: TestDatabase;
  let userId: number;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    const [user] = await database.db
      .insert(users)
      .values({ username: "owner", nickname: "owner", email: "owner@example.com", passwordHash: "x", gender: "secret", birthday: "2000-01-01", country: "CN" })
      .returning();
    userId = user!.id;
  });
  afterAll(() => database.dispose());
  beforeEach(async () => {
    await database.db.delete(loginFailures);
    await database.db.delete(knownLoginIps);
  });

  const subject = (ip: string, account = "owner") => ({ ip, account, userId: account === "owner" ? userId : undefined });
  const failures = async (count: number, ip: string, account = "owner") => {
    for (let index = 0; index < count; index++) await recordLoginFailure(database.db, subject(ip, account));
  };

  it("lets the first five failures of an address on an account through, then makes it wait longer each time", async () => {
    await failures(throttleLimits.pairFreeFailures - 1, "1.1.1.1");
    await expect(assertLoginAllowed(database.db, subject("1.1.1.1"))).resolves.toBeUndefined();
    await failures(1, "1.1.1.1");
    await expect(assertLoginAllowed(database.db, subject("1.1.1.1"))).rejects.toMatchObject({ code: "too_many_attempts", params: { seconds: 1 } });
    await failures(3, "1.1.1.1");
    await expect(assertLoginAllowed(database.db, subject("1.1.1.1"))).rejects.toMatchObject({ params: { seconds: 8 } });
    // The delay has passed: a try is allowed again.
    await expect(assertLoginAllowed(database.db, subject("1.1.1.1"), new Date(Date.now() + 9_000))).resolves.toBeUndefined();
    // Another address is not affected.
    await expect(assertLoginAllowed(database.db, subject("2.2.2.2"))).resolves.toBeUndefined();
  });

  it("stops an address after 30 failures in 15 minutes, whatever the accounts", async () => {
    for (let index = 0; index < throttleLimits.ipFailures; index++) await recordLoginFailure(database.db, subject("3.3.3.3", `someone${index}`));
    const blocked = await assertLoginAllowed(database.db, subject("3.3.3.3", "fresh")).catch((error: unknown) => error);
    expect(blocked).toMatchObject({ code: "too_many_attempts" });
    // The wait is told in minutes and seconds; the whole wait in seconds stays for Retry-After.
    expect(presentError(blocked as AppError, "zh-CN").message).toMatch(/^尝试次数过多，请 1[45] 分(钟| [1-5]?\d 秒)后再试。$/);
    expect((blocked as AppError).params.seconds).toBeGreaterThan(14 * 60);
    await expect(assertLoginAllowed(database.db, subject("3.3.3.3", "fresh"), new Date(Date.now() + 16 * 60_000))).resolves.toBeUndefined();
  });

  it("still lets an account in from a blocked address it has signed in from before (a shared NAT)", async () => {
    await recordLoginSuccess(database.db, { ...subject("6.6.6.6"), userId });
    for (let index = 0; index < throttleLimits.ipFailures; index++) await recordLoginFailure(database.db, subject("6.6.6.6", `someone${index}`));
    await expect(assertLoginAllowed(database.db, subject("6.6.6.6", "stranger"))).rejects.toMatchObject({ code: "too_many_attempts" });
    await expect(assertLoginAllowed(database.db, subject("6.6.6.6"))).resolves.toBeUndefined();
  });

  it("under a distributed attack keeps the owner's known addresses working", async () => {
    await recordLoginSuccess(database.db, { ...subject("9.9.9.9"), userId });
    await database.db.insert(loginFailures).values({ key: "account:owner", failures: throttleLimits.accountFailures });
    await expect(assertLoginAllowed(database.db, subject("4.4.4.4"))).rejects.toMatchObject({ code: "too_many_attempts" });
    await expect(assertLoginAllowed(database.db, subject("9.9.9.9"))).resolves.toBeUndefined();
  });

  it("clears an address's failures on an account after a successful login", async () => {
    await failures(6, "5.5.5.5");
    await recordLoginSuccess(database.db, { ...subject("5.5.5.5"), userId });
    await expect(assertLoginAllowed(database.db, subject("5.5.5.5"))).resolves.toBeUndefined();
  });
});

describe("the wait in the throttling message", () => {
  const message = (wait: number, locale: "zh-CN" | "en") => presentError(new AppError("too_many_attempts", { params: waitParams(wait) }), locale).message;

  it.each([
    [717.2, "尝试次数过多，请 11 分 58 秒后再试。", "Too many attempts. Please try again in 11 min 58 s."],
    [900, "尝试次数过多，请 15 分钟后再试。", "Too many attempts. Please try again in 15 min."],
    [61, "尝试次数过多，请 1 分 1 秒后再试。", "Too many attempts. Please try again in 1 min 1 s."],
    [42.5, "尝试次数过多，请 43 秒后再试。", "Too many attempts. Please try again in 43 s."],
    [0.2, "尝试次数过多，请 1 秒后再试。", "Too many attempts. Please try again in 1 s."],
  ])("%s s reads as minutes and seconds, or seconds under a minute", (wait, zh, en) => {
    expect(message(wait, "zh-CN")).toBe(zh);
    expect(message(wait, "en")).toBe(en);
  });

  it("keeps the whole wait in seconds for Retry-After", () => {
    expect(waitParams(717.2)).toMatchObject({ seconds: 718, minutes: 11, remainingSeconds: 58 });
    expect(waitParams(42.5)).toEqual({ seconds: 43 });
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../tests/support/database.ts";
import { knownLoginIps, loginFailures, users } from "../../server/db/schema/index.ts";
import { loginAccountKey, recordLoginSuccess, reserveLoginAttempt, throttleLimits, waitParams } from "./throttle.server.ts";
import { AppError, presentError } from "../../common/app-error.ts";

describe.each(databaseKinds)("login throttling on %s", (kind) => {
  let database: TestDatabase;
  let userId: number;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    const [user] = await database.db
      .insert(users)
      .values({
        username: "owner",
        nickname: "owner",
        email: "owner@example.com",
        passwordHash: "x",
        gender: "secret",
        birthday: "2000-01-01",
        country: "CN",
      })
      .returning();
    userId = user!.id;
  });
  afterAll(() => database.dispose());
  beforeEach(async () => {
    await database.db.delete(loginFailures);
    await database.db.delete(knownLoginIps);
  });

  const subject = (ip: string, account = "owner") =>
    account === "owner" ? { ip, account: `user:${userId}`, userId } : { ip, account: `name:${account}`, userId: undefined };
  const at = (seconds: number) => new Date(Date.UTC(2030, 0, 1) + seconds * 1000);
  const reserve = (ip: string, account = "owner", now = at(0)) => reserveLoginAttempt(database.db, subject(ip, account), now);
  const tries = async (count: number, ip: string, account = "owner", now = at(0)) => {
    for (let index = 0; index < count; index++) await reserve(ip, account, now);
  };
  const failuresOf = async (key: string) => (await database.db.select().from(loginFailures).where(eq(loginFailures.key, key)))[0]?.failures;

  it("lets the first five tries of an address on an account through, then makes it wait longer each time", async () => {
    await tries(throttleLimits.pairFreeFailures, "1.1.1.1");
    await expect(reserve("1.1.1.1")).rejects.toMatchObject({ code: "too_many_attempts", params: { seconds: 1 } });
    await expect(reserve("1.1.1.1", "owner", at(1))).resolves.toBeUndefined();
    await expect(reserve("1.1.1.1", "owner", at(2))).rejects.toMatchObject({ params: { seconds: 1 } });
    await expect(reserve("1.1.1.1", "owner", at(3))).resolves.toBeUndefined();
    await expect(reserve("1.1.1.1", "owner", at(3))).rejects.toMatchObject({ params: { seconds: 4 } });
    // Another address is not affected.
    await expect(reserve("2.2.2.2", "owner", at(3))).resolves.toBeUndefined();
  });

  it("does not count the tries it refuses", async () => {
    await tries(throttleLimits.pairFreeFailures, "1.1.1.1");
    for (let index = 0; index < 10; index++) await expect(reserve("1.1.1.1")).rejects.toMatchObject({ code: "too_many_attempts" });
    expect(await failuresOf(`pair:user:${userId}|1.1.1.1`)).toBe(throttleLimits.pairFreeFailures);
    expect(await failuresOf(`account:user:${userId}`)).toBe(throttleLimits.pairFreeFailures);
  });

  it("lets at most five of 50 simultaneous tries through", async () => {
    const outcomes = await Promise.allSettled(Array.from({ length: 50 }, () => reserve("7.7.7.7")));
    const passed = outcomes.filter((outcome) => outcome.status === "fulfilled");
    const refused = outcomes.filter((outcome) => outcome.status === "rejected");
    expect(passed).toHaveLength(throttleLimits.pairFreeFailures);
    for (const outcome of refused) expect((outcome as PromiseRejectedResult).reason).toMatchObject({ code: "too_many_attempts" });
    expect(await failuresOf(`pair:user:${userId}|7.7.7.7`)).toBe(throttleLimits.pairFreeFailures);
  });

  it("stops an address after 30 failures in 15 minutes, whatever the accounts", async () => {
    for (let index = 0; index < throttleLimits.ipFailures; index++) await reserve("3.3.3.3", `someone${index}`);
    const blocked = await reserve("3.3.3.3", "fresh").catch((error: unknown) => error);
    expect(blocked).toMatchObject({ code: "too_many_attempts" });
    // The wait is told in minutes and seconds; the whole wait in seconds stays for Retry-After.
    expect(presentError(blocked as AppError, "zh-CN").message).toMatch(/^尝试次数过多，请 1[45] 分(钟| [1-5]?\d 秒)后再试。$/);
    expect((blocked as AppError).params.seconds).toBeGreaterThan(14 * 60);
    await expect(reserve("3.3.3.3", "fresh", at(16 * 60))).resolves.toBeUndefined();
  });

  it("still lets an account in from a blocked address it has signed in from before (a shared NAT)", async () => {
    await recordLoginSuccess({ db: database.db }, { ...subject("6.6.6.6"), userId });
    for (let index = 0; index < throttleLimits.ipFailures; index++) await reserve("6.6.6.6", `someone${index}`);
    await expect(reserve("6.6.6.6", "stranger")).rejects.toMatchObject({ code: "too_many_attempts" });
    await expect(reserve("6.6.6.6")).resolves.toBeUndefined();
  });

  it("slows but never locks out the owner at an address they signed in from before", async () => {
    await recordLoginSuccess({ db: database.db }, { ...subject("8.8.8.8"), userId });
    // An attacker behind the same address keeps failing for an hour: the wait never passes a minute.
    let now = 0;
    for (let index = 0; index < 40; index++) {
      try {
        await reserve("8.8.8.8", "owner", at(now));
      } catch (error) {
        expect((error as { params: { seconds: number } }).params.seconds).toBeLessThanOrEqual(throttleLimits.knownPairMaxDelaySeconds);
      }
      now += 61;
    }
    await expect(reserve("8.8.8.8", "owner", at(now))).resolves.toBeUndefined();
    // After as many failures, an address the account never signed in from waits far longer.
    await database.db
      .insert(loginFailures)
      .values({ key: `pair:user:${userId}|9.9.9.1`, failures: 15, windowStartedAt: at(0), lastFailureAt: at(0) });
    await expect(reserve("9.9.9.1", "owner", at(0))).rejects.toMatchObject({ params: { seconds: throttleLimits.pairMaxDelaySeconds } });
  });

  it("under a distributed attack keeps the owner's known addresses working", async () => {
    await recordLoginSuccess({ db: database.db }, { ...subject("9.9.9.9"), userId });
    for (let index = 0; index < throttleLimits.accountFailures; index++) await reserve(`10.0.${Math.floor(index / 250)}.${index % 250}`);
    await expect(reserve("4.4.4.4")).rejects.toMatchObject({ code: "too_many_attempts" });
    await expect(reserve("9.9.9.9")).resolves.toBeUndefined();
  });

  it("limits an unknown name exactly as an existing account, so the answer does not tell which exists", async () => {
    for (let index = 0; index < throttleLimits.accountFailures; index++)
      await reserve(`10.1.${Math.floor(index / 250)}.${index % 250}`, "ghost");
    await expect(reserve("4.4.4.4", "ghost")).rejects.toMatchObject({
      code: "too_many_attempts",
      params: { seconds: throttleLimits.accountWindowSeconds },
    });
    await expect(reserve("4.4.4.4", "ghost", at(throttleLimits.accountWindowSeconds))).resolves.toBeUndefined();
  });

  it("counts a typed name PostgreSQL would store differently (a lone surrogate) like any other", async () => {
    const typed = { ip: "12.12.12.12", account: loginAccountKey("ab\udfff"), userId: undefined };
    for (let index = 0; index < throttleLimits.pairFreeFailures; index++) await reserveLoginAttempt(database.db, typed, at(0));
    await expect(reserveLoginAttempt(database.db, typed, at(0))).rejects.toMatchObject({ code: "too_many_attempts" });
    // Keys are digests: the same name in another case or with spaces around is the same count; typed names are not stored.
    expect(loginAccountKey(" AB\udfff ")).toBe(typed.account);
    expect(typed.account).toMatch(/^name:[0-9a-f]{64}$/);
  });

  it("gives a successful try's place back and clears the address's count on the account", async () => {
    await tries(throttleLimits.pairFreeFailures, "5.5.5.5");
    await reserve("5.5.5.5", "owner", at(1));
    await recordLoginSuccess({ db: database.db }, { ...subject("5.5.5.5"), userId });
    expect(await failuresOf(`pair:user:${userId}|5.5.5.5`)).toBeUndefined();
    expect(await failuresOf("ip:5.5.5.5")).toBe(throttleLimits.pairFreeFailures);
    expect(await failuresOf(`account:user:${userId}`)).toBe(throttleLimits.pairFreeFailures);
    await expect(reserve("5.5.5.5", "owner", at(1))).resolves.toBeUndefined();
  });
});

describe("the wait in the throttling message", () => {
  const message = (wait: number, locale: "zh-CN" | "en") =>
    presentError(new AppError("too_many_attempts", { params: waitParams(wait) }), locale).message;

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

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { lastCodeTo, lastMessageTo, outboxMessages } from "../../tests/support/outbox.ts";
import { users, verificationCodes } from "../../server/db/schema/index.ts";
import { codeLimits } from "./constants.ts";
import { deleteStaleCodes } from "./service.ts";

let addressCounter = 0;
/** Each test asks from its own address, so the per-address hourly limit of one test never meets another's. */
const nextAddress = () => `198.51.100.${++addressCounter}`;
let phoneCounter = 0;
/** A fresh valid Chinese mobile number, as typed (national) and stored (E.164). */
function newPhone() {
  phoneCounter += 1;
  const national = `139${String(process.pid % 1000).padStart(3, "0")}${String(phoneCounter).padStart(5, "0")}`;
  return { national, e164: `+86${national}` };
}

describe.each(databaseKinds)("SMS sign-in on %s", (kind) => {
  let api: TestApi;
  let now = new Date("2030-01-01T00:00:00Z");
  const later = (seconds: number) => {
    now = new Date(now.getTime() + seconds * 1000);
  };

  beforeAll(async () => {
    api = await createTestApi(kind, { clock: () => now });
  });
  afterAll(() => api.close());

  const visitor = (lang = "en") => new Visitor(api.app, { "accept-language": lang }, { remoteAddress: nextAddress() });
  const sendCode = (v: Visitor, phone: string, extra: Record<string, unknown> = {}) =>
    v.post("/api/Users/sms/send_code/", { phone, ...extra });
  const logIn = (v: Visitor, body: Record<string, unknown>) => v.post("/api/Users/sms/login/", body);

  it("refuses a missing or invalid phone number with the spec's messages, in both languages", async () => {
    const missing = await sendCode(visitor(), "");
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields).toEqual({ phone: "Please enter your phone number first" });
    for (const phone of ["12345", "+86 123 4567 8901", "+86 10 1234 5678", "call me"]) {
      const invalid = await sendCode(visitor(), phone);
      expect(invalid.statusCode, phone).toBe(400);
      expect(invalid.json().fields, phone).toEqual({ phone: "Invalid phone number!" });
    }
    const zh = await sendCode(visitor("zh-CN"), "+86 123 4567 8901");
    expect(zh.json()).toEqual({ code: "phone_invalid", message: "手机号码无效！", fields: { phone: "手机号码无效！" } });
    expect((await sendCode(visitor("zh-CN"), "")).json().fields).toEqual({ phone: "请先输入手机号" });
    expect(outboxMessages(api.dataDir)).toHaveLength(0);
  });

  it("sends a 6-digit code by SMS to the dev outbox and stores only a keyed hash of it", async () => {
    const phone = newPhone();
    const response = await sendCode(
      visitor(),
      `+86 ${phone.national.slice(0, 3)} ${phone.national.slice(3, 7)} ${phone.national.slice(7)}`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ resend_after: 60, expires_in: 300 });
    const message = lastMessageTo(api.dataDir, phone.e164)!;
    expect(Object.keys(message).sort()).toEqual(["channel", "code", "sent_at", "subject", "text", "to"]);
    expect(message).toMatchObject({ to: phone.e164, channel: "sms", subject: "Your Circles verification code" });
    expect(message.code).toMatch(/^\d{6}$/);
    expect(message.text).toBe(`Your Circles sign-in code is ${message.code}. It is valid for 5 minutes. Do not share it with anyone.`);
    const [row] = await api.database.db.select().from(verificationCodes).where(eq(verificationCodes.recipient, phone.e164));
    expect(row!.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.codeHash).not.toContain(message.code!);
    expect(row).toMatchObject({ purpose: "sms_login", channel: "sms", attempts: 0, userId: null });

    // A number without "+" is read in the region given (China by default), and stored as E.164.
    const us = await sendCode(visitor(), "(202) 555-0143", { region: "US" });
    expect(us.statusCode).toBe(200);
    expect(lastMessageTo(api.dataDir, "+12025550143")?.channel).toBe("sms");
    // The SMS is written in the language of the page that asked.
    const zhPhone = newPhone();
    await sendCode(visitor("zh-CN"), zhPhone.national);
    expect(lastMessageTo(api.dataDir, zhPhone.e164)!.text).toMatch(/^【圈子】你的登录验证码是 \d{6}，5 分钟内有效。/);
  });

  it("creates the account bound to the phone on first use, asking for a username first", async () => {
    const phone = newPhone();
    const v = visitor();
    await sendCode(v, phone.national);
    const code = lastCodeTo(api.dataDir, phone.e164);

    const ask = await logIn(v, { phone: phone.national, code });
    expect(ask.statusCode).toBe(400);
    expect(ask.json()).toEqual({
      code: "username_required",
      message: "No account uses this phone number yet. Choose a username to create one.",
      fields: { username: "Choose a username for your new account." },
    });
    // The username is checked like at registration; the code survives both answers.
    const bad = await logIn(v, { phone: phone.national, code, username: "a" });
    expect(bad.json().fields).toEqual({ username: "A username has 2 to 16 characters." });

    const username = `p${phone.national.slice(-8)}`;
    const created = await logIn(v, { phone: phone.national, code, username, remember: true });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ code: 100, username, nickname: username, email: "" });
    const cookie = created.cookies.find((c) => c.name === "sessionid") as { maxAge?: number; httpOnly?: boolean };
    expect(cookie.httpOnly).toBe(true);
    expect(cookie.maxAge).toBe(30 * 24 * 60 * 60);
    expect((await v.get("/api/Users/LoginAuth/")).json()).toMatchObject({ code: 100, username });
    const [row] = await api.database.db.select().from(users).where(eq(users.username, username));
    expect(row).toMatchObject({ phone: phone.e164, email: null, passwordHash: null, birthday: null, country: "CN", gender: "secret" });

    // Single use: the same code again is refused.
    const again = await logIn(visitor(), { phone: phone.e164, code, username: "someone_else" });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ code: "code_expired", message: "Verification code expires or another error occurred" });

    // Next time the same phone signs in to that account (no username needed, no new account).
    later(61);
    const next = visitor();
    await sendCode(next, phone.e164);
    const signedIn = await logIn(next, { phone: phone.e164, code: lastCodeTo(api.dataDir, phone.e164) });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json()).toMatchObject({ code: 100, user_id: row!.id, username });
    expect(await api.database.db.select().from(users).where(eq(users.phone, phone.e164))).toHaveLength(1);
  });

  it("refuses a username that is taken without spending the code", async () => {
    const phone = newPhone();
    const v = visitor();
    await sendCode(v, phone.national);
    const code = lastCodeTo(api.dataDir, phone.e164);
    const first = newPhone();
    await sendCode(v, first.national);
    const taken = `t${first.national.slice(-8)}`;
    expect((await logIn(v, { phone: first.national, code: lastCodeTo(api.dataDir, first.e164), username: taken })).statusCode).toBe(201);

    const clash = await logIn(visitor(), { phone: phone.national, code, username: taken.toUpperCase() });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().fields).toEqual({ username: "Username already exists." });
    expect((await logIn(visitor(), { phone: phone.national, code, username: `${taken}x` })).statusCode).toBe(201);
  });

  it("allows 5 wrong codes at most: then even the right one is refused", async () => {
    const phone = newPhone();
    const v = visitor();
    await sendCode(v, phone.national);
    const code = lastCodeTo(api.dataDir, phone.e164);
    const wrong = code === "000000" ? "111111" : "000000";
    for (let attempt = 1; attempt < codeLimits.maxAttempts; attempt += 1) {
      const response = await logIn(v, { phone: phone.national, code: wrong, username: "wrong_tries" });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ code: "sms_code_incorrect", message: "Invalid phone number or SMS code." });
    }
    const fifth = await logIn(v, { phone: phone.national, code: wrong, username: "wrong_tries" });
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json()).toEqual({
      code: "code_attempts_exceeded",
      message: "Too many incorrect codes. Please ask for a new verification code.",
    });
    const right = await logIn(v, { phone: phone.national, code, username: "wrong_tries" });
    expect(right.json().code).toBe("code_expired");
    // A malformed code is a validation error, not a try.
    expect((await logIn(v, { phone: phone.national, code: "12ab" })).json().fields).toEqual({
      code: "The verification code has 6 digits.",
    });
  });

  it("keeps a code valid for 5 minutes and no longer (clock moved, no sleeping)", async () => {
    const early = newPhone();
    const v = visitor();
    await sendCode(v, early.national);
    later(codeLimits.validSeconds - 1);
    expect(
      (await logIn(v, { phone: early.national, code: lastCodeTo(api.dataDir, early.e164), username: `e${early.national.slice(-8)}` }))
        .statusCode,
    ).toBe(201);

    const late = newPhone();
    await sendCode(v, late.national);
    later(codeLimits.validSeconds);
    const expired = await logIn(v, {
      phone: late.national,
      code: lastCodeTo(api.dataDir, late.e164),
      username: `l${late.national.slice(-8)}`,
    });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().code).toBe("code_expired");
  });

  it("sends another code only after 60 seconds, and the new one replaces the old", async () => {
    const phone = newPhone();
    const v = visitor("zh-CN");
    await sendCode(v, phone.national);
    const first = lastCodeTo(api.dataDir, phone.e164);
    later(30);
    const early = await sendCode(v, phone.national);
    expect(early.statusCode).toBe(429);
    expect(early.headers["retry-after"]).toBe("30");
    expect(early.json()).toEqual({ code: "code_resend_wait", message: "请等待 30 秒后再获取验证码。" });
    later(30);
    expect((await sendCode(v, phone.national)).statusCode).toBe(200);
    const second = lastCodeTo(api.dataDir, phone.e164);
    if (first !== second)
      expect((await logIn(v, { phone: phone.national, code: first, username: `r${phone.national.slice(-8)}` })).json().code).toBe(
        "sms_code_incorrect",
      );
    expect((await logIn(v, { phone: phone.national, code: second, username: `r${phone.national.slice(-8)}` })).statusCode).toBe(201);
  });

  it("sends at most 5 codes an hour to one phone", async () => {
    const phone = newPhone();
    const v = visitor();
    for (let sent = 0; sent < codeLimits.perRecipientPerHour; sent += 1) {
      expect((await sendCode(v, phone.national)).statusCode).toBe(200);
      later(61);
    }
    const sixth = await sendCode(visitor(), phone.national);
    expect(sixth.statusCode).toBe(429);
    // The first of the five was sent 5 × 61 s ago: its place frees after the rest of the hour.
    const wait = 3600 - 5 * 61;
    expect(sixth.json()).toEqual({
      code: "code_send_limited",
      message: `Too many verification codes were asked for. Please try again in ${Math.ceil(wait / 60)} minutes.`,
    });
    expect(sixth.headers["retry-after"]).toBe(String(wait));
    later(wait);
    expect((await sendCode(v, phone.national)).statusCode).toBe(200);
  });

  it("sends at most 20 codes an hour from one address", async () => {
    const v = visitor();
    for (let sent = 0; sent < codeLimits.perAddressPerHour; sent += 1)
      expect((await sendCode(v, newPhone().national)).statusCode).toBe(200);
    const refused = await sendCode(v, newPhone().national);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe("code_send_limited");
    // Another address is not affected.
    expect((await sendCode(visitor(), newPhone().national)).statusCode).toBe(200);
  });

  it("forgets codes an hour after they expire (the hourly limits no longer need them)", async () => {
    const phone = newPhone();
    await sendCode(visitor(), phone.national);
    const rows = () => api.database.db.select().from(verificationCodes).where(eq(verificationCodes.recipient, phone.e164));
    await deleteStaleCodes(api.database.db, new Date(now.getTime() + (codeLimits.validSeconds + 3599) * 1000));
    expect(await rows()).toHaveLength(1);
    await deleteStaleCodes(api.database.db, new Date(now.getTime() + (codeLimits.validSeconds + 3601) * 1000));
    expect(await rows()).toHaveLength(0);
  });
});

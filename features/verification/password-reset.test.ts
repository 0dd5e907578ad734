import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { createUser, factoryPassword, signedInVisitor } from "../../tests/support/factories.ts";
import { lastCodeTo, lastMessageTo } from "../../tests/support/outbox.ts";
import { events, passwordResetTokens, sessions } from "../../server/db/schema/index.ts";
import { codeLimits } from "./constants.ts";

let addressCounter = 0;
const nextAddress = () => `203.0.113.${++addressCounter}`;

describe.each(databaseKinds)("password reset on %s", (kind) => {
  let api: TestApi;
  let now = new Date("2030-06-01T00:00:00Z");
  const later = (seconds: number) => {
    now = new Date(now.getTime() + seconds * 1000);
  };

  beforeAll(async () => {
    api = await createTestApi(kind, { clock: () => now });
  });
  afterAll(() => api.close());

  const visitor = (lang = "en") => new Visitor(api.app, { "accept-language": lang }, { remoteAddress: nextAddress() });
  const send = (v: Visitor, email: string) => v.post("/api/Users/password_reset/send_code/", { email });
  const verify = (v: Visitor, email: string, code: string) => v.post("/api/Users/password_reset/verify/", { email, code });
  const set = (v: Visitor, body: Record<string, unknown>) => v.post("/api/Users/password_reset/set/", body);
  const passwordLogin = (username: string, password: string) => visitor().post("/api/Users/login/", { username, password });

  it("answers the same whether or not an account uses the email, and mails both", async () => {
    const user = await createUser(api.database.db);
    const known = await send(visitor(), user.email!.toUpperCase());
    const unknownEmail = `nobody${Date.now()}@example.com`;
    const unknown = await send(visitor(), unknownEmail);
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toBe(known.body);
    expect(JSON.parse(known.body)).toEqual({ resend_after: 60, expires_in: 300 });
    expect(Object.keys(unknown.headers).sort()).toEqual(Object.keys(known.headers).sort());

    // Each address gets a mail (so the two take the same path and time): a code for the account,
    // a note without a code for the address nobody uses.
    const toUser = lastMessageTo(api.dataDir, user.email!)!;
    expect(toUser).toMatchObject({ channel: "email", subject: "Your Circles verification code" });
    expect(toUser.text).toContain(`Your Circles password reset code is ${toUser.code}.`);
    const toNobody = lastMessageTo(api.dataDir, unknownEmail)!;
    expect(toNobody).toMatchObject({ channel: "email", code: null, subject: "Password reset on Circles" });
    expect(toNobody.text).toContain("no account uses it");

    // The limits and the verify step cannot tell them apart either.
    const [againKnown, againUnknown] = [await send(visitor(), user.email!), await send(visitor(), unknownEmail)];
    expect([againKnown.statusCode, againUnknown.statusCode]).toEqual([429, 429]);
    expect(againUnknown.json().code).toBe(againKnown.json().code);
    const [wrongKnown, wrongUnknown] = [await verify(visitor(), user.email!, "000000"), await verify(visitor(), unknownEmail, "000000")];
    if (toUser.code !== "000000") {
      expect(wrongUnknown.statusCode).toBe(wrongKnown.statusCode);
      expect(wrongUnknown.body).toBe(wrongKnown.body);
    }
  });

  it("takes a right code to a new password, which ends every session of the account", async () => {
    const user = await createUser(api.database.db);
    const phone = await signedInVisitor(api.app, api.database.db, user);
    const laptop = await signedInVisitor(api.app, api.database.db, user);
    expect((await phone.get("/api/Users/LoginAuth/")).json().code).toBe(100);

    const v = visitor();
    expect((await send(v, user.email!)).statusCode).toBe(200);
    const code = lastCodeTo(api.dataDir, user.email!);
    const wrong = await verify(v, user.email!, code === "999999" ? "999998" : "999999");
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ code: "code_incorrect", message: "Incorrect verification code." });

    const verified = await verify(v, user.email!, code);
    expect(verified.statusCode).toBe(200);
    expect(verified.headers["cache-control"]).toBe("no-store");
    const { token, expires_in } = verified.json();
    expect(expires_in).toBe(codeLimits.resetTokenSeconds);
    expect(token).toMatch(/^[\w-]{43}$/);
    const [stored] = await api.database.db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, user.id));
    expect(stored!.tokenHash).not.toBe(token);
    // The code is used up by the verification.
    expect((await verify(v, user.email!, code)).json().code).toBe("code_expired");

    // Password rules of spec section 5.
    const mismatch = await set(v, { token, password: "newpass123", confirm_password: "newpass124" });
    expect(mismatch.statusCode).toBe(400);
    expect(mismatch.json().fields).toEqual({ confirm_password: "Passwords are not matching!" });
    expect((await set(v, { token, password: "short1", confirm_password: "short1" })).json().fields).toEqual({
      password: "A password has 8 to 20 characters.",
    });
    expect((await set(v, { token, password: "onlyletters", confirm_password: "onlyletters" })).json().fields).toEqual({
      password: "Password should contain letters and numbers",
    });

    const done = await set(v, { token, password: "newpass123", confirm_password: "newpass123" });
    expect(done.statusCode).toBe(204);
    expect(await api.database.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    expect((await phone.get("/api/Users/LoginAuth/")).json().code).toBe(101);
    expect((await laptop.get("/api/Users/LoginAuth/")).json().code).toBe(101);
    expect((await passwordLogin(user.username, factoryPassword)).statusCode).toBe(401);
    expect((await passwordLogin(user.username, "newpass123")).statusCode).toBe(200);
    const recorded = await api.database.db.select().from(events).where(eq(events.verb, "user.password_reset"));
    expect(recorded.map((event) => event.subjectId)).toContain(user.id);

    // The token works once.
    const reused = await set(visitor("zh-CN"), { token, password: "other1234", confirm_password: "other1234" });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toEqual({ code: "reset_token_expired", message: "密码修改超时，请重新获取验证码。" });
  });

  it("gives a reset token that lasts 10 minutes", async () => {
    const user = await createUser(api.database.db);
    const v = visitor();
    await send(v, user.email!);
    const { token } = (await verify(v, user.email!, lastCodeTo(api.dataDir, user.email!))).json();
    later(codeLimits.resetTokenSeconds);
    const late = await set(v, { token, password: "newpass123", confirm_password: "newpass123" });
    expect(late.statusCode).toBe(400);
    expect(late.json()).toEqual({
      code: "reset_token_expired",
      message: "Password update timeout. Please ask for a new verification code.",
    });
    expect((await passwordLogin(user.username, factoryPassword)).statusCode).toBe(200);
    // An invented token is refused the same way.
    expect((await set(v, { token: "x".repeat(43), password: "newpass123", confirm_password: "newpass123" })).json().code).toBe(
      "reset_token_expired",
    );
  });

  it("lets a reset code expire after 5 minutes and allows 5 wrong tries", async () => {
    const user = await createUser(api.database.db);
    const v = visitor();
    await send(v, user.email!);
    later(codeLimits.validSeconds);
    expect((await verify(v, user.email!, lastCodeTo(api.dataDir, user.email!))).json().code).toBe("code_expired");

    later(1);
    await send(v, user.email!);
    const code = lastCodeTo(api.dataDir, user.email!);
    const wrong = code === "123456" ? "654321" : "123456";
    const answers = [];
    for (let attempt = 0; attempt < codeLimits.maxAttempts; attempt += 1) answers.push((await verify(v, user.email!, wrong)).json().code);
    expect(answers).toEqual(["code_incorrect", "code_incorrect", "code_incorrect", "code_incorrect", "code_attempts_exceeded"]);
    expect((await verify(v, user.email!, code)).json().code).toBe("code_expired");
  });

  it("checks the email field like registration does", async () => {
    const response = await send(visitor(), "not-an-email");
    expect(response.statusCode).toBe(400);
    expect(response.json().fields).toEqual({ email: "Please enter the correct email." });
    expect((await visitor("zh-CN").post("/api/Users/password_reset/verify/", { email: "a@example.com" })).json().fields).toEqual({
      code: "请输入验证码。",
    });
  });
});

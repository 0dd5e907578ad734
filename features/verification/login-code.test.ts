import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { createUser, factoryPassword } from "../../tests/support/factories.ts";
import { lastCodeTo, lastMessageTo, outboxMessages } from "../../tests/support/outbox.ts";
import { captchaChallenges, users } from "../../server/db/schema/index.ts";
import { codeLimits } from "./constants.ts";

let addressCounter = 0;
const nextAddress = () => `192.0.2.${++addressCounter}`;

describe.each(databaseKinds)("codes with the slider puzzle on, on %s", (kind) => {
  let api: TestApi;

  beforeAll(async () => {
    api = await createTestApi(kind, { captcha: true });
  });
  afterAll(() => api.close());

  const visitor = (lang = "en") => new Visitor(api.app, { "accept-language": lang }, { remoteAddress: nextAddress() });
  /** A puzzle solved the way the browser does: draw one, drop the piece where it fits. */
  const solvedPuzzle = async (v: Visitor) => {
    const { token } = (await v.get("/api/captcha/")).json();
    const [row] = await api.database.db
      .select()
      .from(captchaChallenges)
      .where(eq(captchaChallenges.tokenHash, createHash("sha256").update(token).digest("hex")));
    expect((await v.post("/api/captcha/verify/", { token, x: row!.targetX })).statusCode).toBe(204);
    return token as string;
  };

  describe("sending a code needs a solved puzzle", () => {
    it("for SMS sign-in", async () => {
      const v = visitor();
      const without = await v.post("/api/Users/sms/send_code/", { phone: "13700000001" });
      expect(without.statusCode).toBe(400);
      expect(without.json()).toEqual({
        code: "captcha_required",
        message: "Drag the slider to verify",
        fields: { captcha: "Drag the slider to verify" },
      });
      const captcha = await solvedPuzzle(v);
      expect((await v.post("/api/Users/sms/send_code/", { phone: "13700000001", captcha })).statusCode).toBe(200);
      // One solution sends one code.
      expect((await v.post("/api/Users/sms/send_code/", { phone: "13700000002", captcha })).json().code).toBe("captcha_required");
    });

    it("for a password reset", async () => {
      const v = visitor();
      expect((await v.post("/api/Users/password_reset/send_code/", { email: "someone@example.com" })).json().code).toBe("captcha_required");
      expect(
        (await v.post("/api/Users/password_reset/send_code/", { email: "someone@example.com", captcha: await solvedPuzzle(v) })).statusCode,
      ).toBe(200);
    });

    it("but an invalid phone number is reported before the puzzle is spent", async () => {
      const v = visitor();
      const captcha = await solvedPuzzle(v);
      expect((await v.post("/api/Users/sms/send_code/", { phone: "12345", captcha })).json().code).toBe("phone_invalid");
      expect((await v.post("/api/Users/sms/send_code/", { phone: "13700000003", captcha })).statusCode).toBe(200);
    });
  });

  describe("signing in without the puzzle", () => {
    const sendLoginCode = (v: Visitor, username: string) => v.post("/api/Users/login_code/send/", { username });
    const logIn = (v: Visitor, body: Record<string, unknown>) => v.post("/api/Users/login/", body);

    it("sends a code to the account's email that replaces the puzzle for one sign-in", async () => {
      const user = await createUser(api.database.db);
      const v = visitor();
      expect((await logIn(v, { username: user.username, password: factoryPassword })).json().code).toBe("captcha_required");

      const sent = await sendLoginCode(v, user.username);
      expect(sent.statusCode).toBe(200);
      expect(sent.json()).toEqual({ resend_after: 60, expires_in: 300 });
      const message = lastMessageTo(api.dataDir, user.email!)!;
      expect(message).toMatchObject({ channel: "email", subject: "Your Circles verification code" });
      expect(message.text).toContain(`Your Circles sign-in code is ${message.code}. Enter it instead of the puzzle to log in.`);

      const signedIn = await logIn(v, { username: user.email, password: factoryPassword, login_code: message.code, remember: false });
      expect(signedIn.statusCode).toBe(200);
      expect(signedIn.json()).toMatchObject({ code: 100, username: user.username });
      // The code was good for that one sign-in.
      const again = await logIn(visitor(), { username: user.username, password: factoryPassword, login_code: message.code });
      expect(again.statusCode).toBe(400);
      expect(again.json().code).toBe("code_expired");
    });

    it("checks no password without a right code; a wrong password costs the code a try", async () => {
      const user = await createUser(api.database.db);
      const v = visitor();
      await sendLoginCode(v, user.username);
      const code = lastCodeTo(api.dataDir, user.email!);
      const wrongCode = code === "000000" ? "000001" : "000000";
      const guessed = await logIn(v, { username: user.username, password: factoryPassword, login_code: wrongCode });
      expect(guessed.statusCode).toBe(400);
      expect(guessed.json()).toEqual({ code: "code_incorrect", message: "Incorrect verification code." });

      const wrongPassword = await logIn(v, { username: user.username, password: "wrongpass1", login_code: code });
      expect(wrongPassword.statusCode).toBe(401);
      expect(wrongPassword.json().code).toBe("invalid_credentials");
      // Still good for the right password: two of five tries used.
      expect((await logIn(v, { username: user.username, password: factoryPassword, login_code: code })).statusCode).toBe(200);
    });

    it("spends the code after 5 wrong passwords", async () => {
      const user = await createUser(api.database.db);
      const v = visitor();
      await sendLoginCode(v, user.username);
      const code = lastCodeTo(api.dataDir, user.email!);
      for (let attempt = 0; attempt < codeLimits.maxAttempts; attempt += 1) {
        expect((await logIn(v, { username: user.username, password: `wrongpass${attempt}`, login_code: code })).statusCode).toBe(401);
      }
      expect((await logIn(v, { username: user.username, password: factoryPassword, login_code: code })).json().code).toBe("code_expired");
    });

    it("answers the same for an unknown account, sends nothing, and its sign-in fails like a wrong password", async () => {
      const before = outboxMessages(api.dataDir).length;
      const v = visitor();
      const sent = await sendLoginCode(v, "no_such_person");
      expect(sent.statusCode).toBe(200);
      expect(sent.json()).toEqual({ resend_after: 60, expires_in: 300 });
      expect(outboxMessages(api.dataDir)).toHaveLength(before);
      const attempt = await logIn(v, { username: "no_such_person", password: factoryPassword, login_code: "123456" });
      expect(attempt.statusCode).toBe(401);
      expect(attempt.json().code).toBe("invalid_credentials");
      // The same limits as every code.
      expect((await sendLoginCode(v, "no_such_person")).json().code).toBe("code_resend_wait");
    });

    it("texts the code to an account that has a phone but no email", async () => {
      const user = await createUser(api.database.db);
      await api.database.db.update(users).set({ email: null, phone: "+8613700009999" }).where(eq(users.id, user.id));
      await sendLoginCode(visitor(), user.username);
      const message = lastMessageTo(api.dataDir, "+8613700009999")!;
      expect(message.channel).toBe("sms");
      expect(message.code).toMatch(/^\d{6}$/);
    });

    it("asks for the login name first, in the page's language", async () => {
      const response = await visitor("zh-CN").post("/api/Users/login_code/send/", { username: " " });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields).toEqual({ username: "请输入用户名或邮箱。" });
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createUser } from "../../tests/support/factories.ts";
import { oneDatabaseKind } from "../../tests/support/database.ts";
import { lastCodeTo } from "../../tests/support/outbox.ts";

/** The password reset page without JavaScript: each step's form runs the API's operation. */
describe.each(oneDatabaseKind)("the password reset page on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());

  it("sends a code, refuses a wrong one on the form, and takes the right one to a new password", async () => {
    const user = await createUser(api.database.db);
    const email = user.email!;
    const visitor = new Visitor(api.app);
    await visitor.get("/en/forget_password");
    const csrftoken = await visitor.csrfToken();
    const sent = await visitor.postForm("/en/forget_password", { csrftoken, intent: "send", email });
    expect(sent.statusCode).toBe(200);
    expect(sent.body).toContain("a verification code has been sent there");
    const code = lastCodeTo(api.dataDir, email.toLowerCase());
    const wrong = await visitor.postForm("/en/forget_password", {
      csrftoken,
      intent: "verify",
      email,
      code: code === "000000" ? "111111" : "000000",
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain("Incorrect verification code.");
    const verified = await visitor.postForm("/en/forget_password", { csrftoken, intent: "verify", email, code });
    expect(verified.statusCode).toBe(200);
    const token = /name="token" value="([^"]+)"/.exec(verified.body)?.[1];
    expect(token).toBeTruthy();
    const set = await visitor.postForm("/en/forget_password", {
      csrftoken,
      intent: "set",
      token: token!,
      password: "Fresh-pass-2026",
      confirm_password: "Fresh-pass-2026",
    });
    expect(set.statusCode).toBe(200);
    const signIn = await new Visitor(api.app).post("/api/Users/login/", { username: user.username, password: "Fresh-pass-2026" });
    expect(signIn.statusCode, signIn.body).toBe(200);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import sharp from "sharp";
import { createTestApi, newUser, Visitor, type TestApi } from "../../tests/support/api.ts";
import { oneDatabaseKind } from "../../tests/support/database.ts";
import { captchaChallenges } from "../../server/db/schema/index.ts";
import { createHash } from "node:crypto";
import { puzzleGeometry } from "./geometry.ts";
import { answerChallenge, captchaLifetimes, createChallenge, deleteExpiredChallenges } from "./service.ts";

const hash = (token: string) => createHash("sha256").update(token).digest("hex");

describe.each(oneDatabaseKind)("sign-in slider puzzle on %s", (kind) => {
  let api: TestApi;
  const password = "secret123";
  let username: string;

  const targetOf = async (token: string) => {
    const [row] = await api.database.db
      .select()
      .from(captchaChallenges)
      .where(eq(captchaChallenges.tokenHash, hash(token)));
    return row!.targetX;
  };
  const solved = async (v: Visitor) => {
    const { token } = (await v.get("/api/captcha/")).json();
    expect((await v.post("/api/captcha/verify/", { token, x: await targetOf(token) })).statusCode).toBe(204);
    return token as string;
  };

  beforeAll(async () => {
    api = await createTestApi(kind, { captcha: true });
    const user = newUser({ password, confirm_password: password });
    username = user.username;
    const v = new Visitor(api.app);
    expect((await v.post("/api/Users/register/", { ...user, captcha: await solved(v) })).statusCode).toBe(201);
  });
  afterAll(() => api.close());

  const visitor = () => new Visitor(api.app, { "accept-language": "en" });

  it("hands out a puzzle: a background with the hole, the piece with transparency, its row, never where it fits", async () => {
    const response = await visitor().get("/api/captcha/");
    expect(response.statusCode).toBe(200);
    expect(response.headers["cache-control"]).toBe("no-store");
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(["background", "height", "piece", "piece_size", "piece_y", "token", "width"]);
    expect(body.token).toMatch(/^[\w-]{32}$/);
    const background = await sharp(Buffer.from(body.background.split(",")[1], "base64")).metadata();
    expect([background.format, background.width, background.height]).toEqual(["jpeg", puzzleGeometry.width, puzzleGeometry.height]);
    const piece = await sharp(Buffer.from(body.piece.split(",")[1], "base64")).metadata();
    expect([piece.format, piece.width, piece.hasAlpha]).toEqual(["png", puzzleGeometry.pieceSize, true]);
    expect(body.piece_y).toBeGreaterThanOrEqual(0);
    expect(body.piece_y).toBeLessThanOrEqual(puzzleGeometry.height - puzzleGeometry.pieceSize);
    const target = await targetOf(body.token);
    expect(target).toBeGreaterThan(puzzleGeometry.pieceSize);
    expect(JSON.stringify(body)).not.toContain(`"target`);
  });

  it("accepts a drop within the tolerance and refuses one beyond it, localized", async () => {
    const v = visitor();
    const near = (await v.get("/api/captcha/")).json().token;
    expect((await v.post("/api/captcha/verify/", { token: near, x: (await targetOf(near)) - puzzleGeometry.tolerance })).statusCode).toBe(
      204,
    );

    const far = (await v.get("/api/captcha/")).json().token;
    const miss = await v.post("/api/captcha/verify/", { token: far, x: (await targetOf(far)) + puzzleGeometry.tolerance + 1 });
    expect(miss.statusCode).toBe(400);
    expect(miss.json()).toEqual({ code: "captcha_failed", message: "Verification failed, please try again." });
    const zh = await new Visitor(api.app).post("/api/captcha/verify/", { token: far, x: 0 });
    expect(zh.json().message).toBe("验证失败，请重试。");
  });

  it("takes one answer per puzzle, so the position cannot be found by trying", async () => {
    const v = visitor();
    const { token } = (await v.get("/api/captcha/")).json();
    const target = await targetOf(token);
    expect((await v.post("/api/captcha/verify/", { token, x: target > 100 ? 0 : 240 })).statusCode).toBe(400);
    const retry = await v.post("/api/captcha/verify/", { token, x: target });
    expect(retry.statusCode).toBe(400);
    expect(retry.json().code).toBe("captcha_failed");
  });

  it("refuses an unknown token and an expired puzzle", async () => {
    const v = visitor();
    expect((await v.post("/api/captcha/verify/", { token: "A".repeat(32), x: 100 })).json().code).toBe("captcha_failed");
    const old = await createChallenge(api.database.db, new Date(Date.now() - (captchaLifetimes.answerSeconds + 5) * 1000));
    const late = await v.post("/api/captcha/verify/", { token: old.token, x: await targetOf(old.token) });
    expect(late.json().code).toBe("captcha_failed");
    await deleteExpiredChallenges(api.database.db);
    expect(
      await api.database.db
        .select()
        .from(captchaChallenges)
        .where(eq(captchaChallenges.tokenHash, hash(old.token))),
    ).toEqual([]);
  });

  it("rejects malformed answers with 400 and answers without the CSRF header with 403", async () => {
    const v = visitor();
    const { token } = (await v.get("/api/captcha/")).json();
    for (const body of [
      { token, x: "12" },
      { token, x: 999 },
      { token, x: -1 },
      { token: "short", x: 10 },
      { token, x: 10, extra: 1 },
      { x: 10 },
    ]) {
      const response = await v.post("/api/captcha/verify/", body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().code).toBe("validation_failed");
    }
    const noCsrf = await v.request("POST", "/api/captcha/verify/", { json: { token, x: 10 }, csrf: false });
    expect(noCsrf.statusCode).toBe(403);
  });

  it("sign-in needs a solved puzzle, and each solved puzzle is good for one attempt", async () => {
    const v = visitor();
    const without = await v.post("/api/Users/login/", { username, password });
    expect(without.statusCode).toBe(400);
    expect(without.json()).toEqual({
      code: "captcha_required",
      message: "Drag the slider to verify",
      fields: { captcha: "Drag the slider to verify" },
    });

    const unsolved = (await v.get("/api/captcha/")).json().token;
    expect((await v.post("/api/Users/login/", { username, password, captcha: unsolved })).json().code).toBe("captcha_required");

    const first = await solved(v);
    const wrong = await v.post("/api/Users/login/", { username, password: "wrong-pass1", captcha: first });
    expect(wrong.json().code).toBe("invalid_credentials");
    expect((await v.post("/api/Users/login/", { username, password, captcha: first })).json().code).toBe("captcha_required");

    const second = await solved(v);
    const ok = await v.post("/api/Users/login/", { username, password, captcha: second });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ code: 100, username });
  });

  it("sign-up needs a solved puzzle too, one per account", async () => {
    const v = visitor();
    const without = await v.post("/api/Users/register/", newUser());
    expect(without.statusCode).toBe(400);
    expect(without.json()).toEqual({
      code: "captcha_required",
      message: "Drag the slider to verify",
      fields: { captcha: "Drag the slider to verify" },
    });
    const unsolved = (await v.get("/api/captcha/")).json().token;
    expect((await v.post("/api/Users/register/", newUser({ captcha: unsolved }))).json().code).toBe("captcha_required");

    const token = await solved(v);
    const created = await v.post("/api/Users/register/", newUser({ captcha: token }));
    expect(created.statusCode).toBe(201);
    expect((await visitor().post("/api/Users/register/", newUser({ captcha: token }))).json().code).toBe("captcha_required");
  });

  it("limits how many puzzles one address may draw a minute, with a localized 429", async () => {
    const draw = (lang: string) =>
      api.app.inject({ method: "GET", url: "/api/captcha/", remoteAddress: "203.0.113.9", headers: { "accept-language": lang } });
    for (let i = 0; i < 30; i++) expect((await draw("en")).statusCode).toBe(200);
    const refused = await draw("en");
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: "rate_limited", message: "Too many requests. Please try again later." });
    expect((await draw("zh-CN")).json().message).toBe("请求过于频繁，请稍后再试。");
    // Another address is not affected.
    expect((await visitor().get("/api/captcha/")).statusCode).toBe(200);
  });

  it("a solved puzzle lapses if nobody signs in with it in time", async () => {
    const v = visitor();
    const past = new Date(Date.now() - (captchaLifetimes.solvedSeconds + 5) * 1000);
    const challenge = await createChallenge(api.database.db, past);
    await answerChallenge(api.database.db, { token: challenge.token, x: await targetOf(challenge.token) }, past);
    const late = await v.post("/api/Users/login/", { username, password, captcha: challenge.token });
    expect(late.json().code).toBe("captcha_required");
  });
});

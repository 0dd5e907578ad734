import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import { eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createFollow, createSignedInUser, createUser, factoryPassword, signedInVisitor } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { htmlFile, oversizedJpeg, testJpegWithExif, testPng } from "../../tests/support/images.ts";
import { attachments, events, sessions, users } from "../../server/db/schema/index.ts";
import { hashToken } from "../accounts/service.ts";

describe.each(databaseKinds)("personal centre API on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());

  describe("profile", () => {
    it("answers the signed-in user's own profile and refuses visitors", async () => {
      const { user, visitor } = await createSignedInUser(api.app, api.database.db);
      const response = await visitor.get("/api/Users/profile/");
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        username: user.username,
        nickname: user.nickname,
        signature: "",
        gender: "secret",
        birthday: "1995-06-15",
        country: "CN",
        avatar: "/default-avatar.svg",
      });
      expect(response.json()).not.toHaveProperty("password_hash");
      const anonymous = await new Visitor(api.app, { "accept-language": "en" }).get("/api/Users/profile/");
      expect(anonymous.statusCode).toBe(401);
      expect((await new Visitor(api.app).request("PATCH", "/api/Users/profile/", { json: { nickname: "x" } })).statusCode).toBe(401);
    });

    it("saves any subset of the fields, trimmed, and records an event", async () => {
      const { user, visitor } = await createSignedInUser(api.app, api.database.db);
      const response = await visitor.request("PATCH", "/api/Users/profile/", {
        json: {
          nickname: "  小明  ",
          signature: "Stay curious",
          self_description: "Line one\nLine two",
          school: "Tsinghua",
          profession: "Engineer",
          gender: "male",
          birthday: "2000-02-29",
          country: "DE",
        },
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toMatchObject({
        nickname: "小明",
        signature: "Stay curious",
        self_description: "Line one\nLine two",
        school: "Tsinghua",
        profession: "Engineer",
        gender: "male",
        birthday: "2000-02-29",
        country: "DE",
      });
      const partial = await visitor.request("PATCH", "/api/Users/profile/", { json: { signature: "" } });
      expect(partial.json()).toMatchObject({ nickname: "小明", signature: "", school: "Tsinghua" });
      const recorded = await api.database.db.select().from(events).where(eq(events.actorId, user.id));
      expect(recorded.filter((event) => event.verb === "user.profile_updated")).toHaveLength(2);
      // The header's session viewer carries the new nickname at once.
      expect(((await visitor.get("/api/Users/LoginAuth/")).json() as { nickname: string }).nickname).toBe("小明");
    });

    it.each([
      [{ nickname: "   " }, "nickname", "Please enter a nickname."],
      [{ nickname: "n".repeat(21) }, "nickname", "A nickname has at most 20 characters."],
      [{ nickname: "tab\there" }, "nickname", "This contains characters that cannot be used."],
      [{ signature: "s".repeat(101) }, "signature", "A signature has at most 100 characters."],
      [{ self_description: "d".repeat(1001) }, "self_description", "A self-description has at most 1,000 characters."],
      [{ school: "s".repeat(51) }, "school", "A school name has at most 50 characters."],
      [{ profession: "p".repeat(51) }, "profession", "A profession has at most 50 characters."],
      [{ gender: "robot" }, "gender", "Please choose a gender."],
      [{ birthday: "2001-02-29" }, "birthday", "Please enter a real date."],
      [{ birthday: "2999-01-01" }, "birthday", "Please enter a real date."],
      [{ country: "XX" }, "country", "Please choose a country or region."],
      [{ email: "new@example.com" }, "form", "This value is not valid."],
    ])("refuses %j with a localized field message", async (body, field, message) => {
      const { visitor } = await createSignedInUser(api.app, api.database.db);
      const response = await visitor.request("PATCH", "/api/Users/profile/", { json: body, headers: { "accept-language": "en" } });
      expect(response.statusCode).toBe(400);
      const answer = response.json() as { code: string; fields: Record<string, string> };
      expect(answer.code).toBe("validation_failed");
      expect(Object.values(answer.fields)).toContain(message);
      if (field !== "form") expect(answer.fields[field]).toBe(message);
    });

    it("answers field messages in Chinese for a Chinese page", async () => {
      const { visitor } = await createSignedInUser(api.app, api.database.db);
      const response = await visitor.request("PATCH", "/api/Users/profile/", {
        json: { nickname: "" },
        headers: { referer: "http://localhost/account/profile" },
      });
      expect((response.json() as { fields: Record<string, string> }).fields.nickname).toBe("请输入昵称。");
    });
  });

  describe("password change", () => {
    it("needs the current password, then signs out every other session and gives this one a new token", async () => {
      const { user, visitor } = await createSignedInUser(api.app, api.database.db);
      const otherDevice = await signedInVisitor(api.app, api.database.db, user);
      const oldToken = visitor.cookies.get("sessionid")!;
      const wrong = await visitor.post(
        "/api/Users/password/",
        { old_password: "not-it-123", password: "newpass456", confirm_password: "newpass456" },
        { "accept-language": "en" },
      );
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toEqual({
        code: "wrong_old_password",
        message: "The current password is incorrect.",
        fields: { old_password: "The current password is incorrect." },
      });
      expect((await otherDevice.get("/api/Users/profile/")).statusCode).toBe(200);

      const changed = await visitor.post("/api/Users/password/", {
        old_password: factoryPassword,
        password: "newpass456",
        confirm_password: "newpass456",
      });
      expect(changed.statusCode).toBe(200);
      expect(changed.json()).toEqual({ code: "password_changed", message: "密码修改成功，其他设备上的登录已退出。" });
      // This device was given a new session (and a CSRF token bound to it), as on sign-in.
      const rotated = visitor.cookies.get("sessionid");
      expect(rotated).toBeDefined();
      expect(rotated).not.toBe(oldToken);
      expect(String(changed.headers["set-cookie"])).toContain("csrftoken=");
      expect((await visitor.get("/api/Users/profile/")).statusCode).toBe(200);
      expect((await otherDevice.get("/api/Users/profile/")).statusCode).toBe(401);
      // Whoever copied the old token is out too.
      const copied = new Visitor(api.app);
      copied.cookies.set("sessionid", oldToken);
      expect((await copied.get("/api/Users/profile/")).statusCode).toBe(401);
      const rows = await api.database.db.select().from(sessions).where(eq(sessions.userId, user.id));
      expect(rows.map((row) => row.tokenHash)).toEqual([hashToken(rotated!)]);
      // The new session can write: its CSRF token came with it.
      expect((await visitor.request("PATCH", "/api/Users/profile/", { json: { nickname: "换了密码" } })).statusCode).toBe(200);

      const login = await new Visitor(api.app).post("/api/Users/login/", { username: user.username, password: "newpass456" });
      expect(login.statusCode).toBe(200);
      const oldLogin = await new Visitor(api.app).post("/api/Users/login/", { username: user.username, password: factoryPassword });
      expect(oldLogin.statusCode).toBe(401);
    });

    it("checks the new password like registration does", async () => {
      const { visitor } = await createSignedInUser(api.app, api.database.db);
      const short = await visitor.post(
        "/api/Users/password/",
        { old_password: factoryPassword, password: "abc", confirm_password: "abc" },
        { "accept-language": "en" },
      );
      expect((short.json() as { fields: Record<string, string> }).fields.password).toBe("A password has 8 to 20 characters.");
      const letters = await visitor.post(
        "/api/Users/password/",
        { old_password: factoryPassword, password: "onlyletters", confirm_password: "onlyletters" },
        { "accept-language": "en" },
      );
      expect((letters.json() as { fields: Record<string, string> }).fields.password).toBe("Password should contain letters and numbers");
      const mismatch = await visitor.post(
        "/api/Users/password/",
        { old_password: factoryPassword, password: "newpass456", confirm_password: "newpass457" },
        { "accept-language": "en" },
      );
      expect((mismatch.json() as { fields: Record<string, string> }).fields.confirm_password).toBe("Passwords are not matching!");
      const missing = await visitor.post(
        "/api/Users/password/",
        { password: "newpass456", confirm_password: "newpass456" },
        { "accept-language": "en" },
      );
      expect((missing.json() as { fields: Record<string, string> }).fields.old_password).toBe("Please enter your current password.");
    });
  });

  describe("avatar", () => {
    it("re-encodes a JPEG as square crops of 256 and 64 px without EXIF, shown by the header", async () => {
      const { user, visitor } = await createSignedInUser(api.app, api.database.db);
      const response = await visitor.upload("/api/Users/avatar/", {
        bytes: await testJpegWithExif(320, 240),
        filename: "me.jpg",
        contentType: "image/jpeg",
      });
      expect(response.statusCode).toBe(200);
      const { avatar, avatar_small } = response.json() as { avatar: string; avatar_small: string };
      const large = await visitor.get(avatar);
      const small = await visitor.get(avatar_small);
      expect(large.headers["content-type"]).toBe("image/jpeg");
      expect(await sharp(large.rawPayload).metadata()).toMatchObject({ width: 256, height: 256 });
      expect(await sharp(small.rawPayload).metadata()).toMatchObject({ width: 64, height: 64 });
      expect((await sharp(large.rawPayload).metadata()).exif).toBeUndefined();
      const current = (await visitor.get("/api/Users/LoginAuth/")).json() as { avatar: string; avatar_small: string };
      expect(current).toMatchObject({ avatar, avatar_small });
      const [row] = await api.database.db.select({ avatar: users.avatar }).from(users).where(eq(users.id, user.id));
      expect(row!.avatar).toBe(avatar);
    });

    it("keeps a PNG renamed .jpg a PNG, and removes the previous avatar's files", async () => {
      const { visitor } = await createSignedInUser(api.app, api.database.db);
      const first = (await visitor.upload("/api/Users/avatar/", { bytes: await testPng(), filename: "one.png" })).json() as {
        avatar: string;
      };
      const second = await visitor.upload("/api/Users/avatar/", {
        bytes: await testPng(100, 400),
        filename: "renamed.jpg",
        contentType: "image/jpeg",
      });
      expect(second.statusCode).toBe(200);
      const served = await visitor.get((second.json() as { avatar: string }).avatar);
      expect(served.headers["content-type"]).toBe("image/png");
      expect((await visitor.get(first.avatar)).statusCode).toBe(404);
      const firstId = first.avatar.split("/").pop()!;
      expect(await api.database.db.select().from(attachments).where(eq(attachments.fileId, firstId))).toHaveLength(0);
    });

    it("refuses a 3 MB file and an HTML file named .png, keeping the old avatar", async () => {
      const { visitor } = await createSignedInUser(api.app, api.database.db);
      const big = await visitor.upload(
        "/api/Users/avatar/",
        { bytes: oversizedJpeg(), filename: "big.jpg", contentType: "image/jpeg" },
        { "accept-language": "en" },
      );
      expect(big.statusCode).toBe(413);
      expect(big.json()).toEqual({ code: "image_too_large", message: "The image must be 2 MB or smaller." });
      const html = await visitor.upload(
        "/api/Users/avatar/",
        { bytes: htmlFile, filename: "avatar.png", contentType: "image/png" },
        { "accept-language": "en" },
      );
      expect(html.statusCode).toBe(415);
      expect(html.json()).toEqual({ code: "image_type_not_allowed", message: "Only JPG or PNG images are allowed." });
      expect(((await visitor.get("/api/Users/profile/")).json() as { avatar: string }).avatar).toBe("/default-avatar.svg");
      const anonymous = await new Visitor(api.app).upload("/api/Users/avatar/", { bytes: await testPng(), filename: "a.png" });
      expect(anonymous.statusCode).toBe(401);
    });
  });

  describe("public profile", () => {
    it("shows the public fields, counts and the viewer's follow state, never private data", async () => {
      const owner = await createUser(api.database.db, { userType: "VIP users" });
      const fan = await createUser(api.database.db);
      await createFollow(api.database.db, fan, owner);
      const viewer = await signedInVisitor(api.app, api.database.db, fan);
      const response = await viewer.get(`/api/Users/profile/${owner.username.toUpperCase()}/`);
      expect(response.statusCode).toBe(200);
      const body = response.json() as Record<string, unknown>;
      expect(body).toMatchObject({
        username: owner.username,
        user_type: "VIP users",
        user_type_key: "vip",
        followers_count: 1,
        intelligence_score: 0,
        following_count: 0,
        followed_by_viewer: true,
        can: { follow: true },
        total_checkin_days: 0,
      });
      expect(body).not.toHaveProperty("email");
      expect(body).not.toHaveProperty("birthday");
      expect(body).not.toHaveProperty("gold");
      const self = await (await signedInVisitor(api.app, api.database.db, owner)).get(`/api/Users/profile/${owner.username}/`);
      expect((self.json() as { can: { follow: boolean } }).can.follow).toBe(false);
      const anonymous = await new Visitor(api.app).get(`/api/Users/profile/${owner.username}/`);
      expect(anonymous.json()).toMatchObject({ followed_by_viewer: false, can: { follow: false } });
    });

    it("answers 404 for an unknown user", async () => {
      const response = await new Visitor(api.app, { "accept-language": "en" }).get("/api/Users/profile/nobody_here/");
      expect(response.statusCode).toBe(404);
      expect((response.json() as { code: string }).code).toBe("not_found");
    });
  });
});

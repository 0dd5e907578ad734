import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { eq } from "drizzle-orm";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { htmlFile, oversizedJpeg, testJpegWithExif, testPng } from "../../tests/support/images.ts";
import { attachments } from "../../server/db/schema/index.ts";
import { LocalFileStore } from "./file-store.server.ts";
import { sniffImageType } from "./sniff.ts";

describe.each(databaseKinds)("attachment store on %s", (kind) => {
  let api: TestApi;
  let member: Visitor;
  let memberId: number;
  beforeAll(async () => {
    api = await createTestApi(kind);
    const created = await createSignedInUser(api.app, api.database.db);
    member = created.visitor;
    memberId = created.user.id;
  });
  afterAll(() => api.close());

  it("stores an uploaded PNG under a random id and serves it with safe, immutable caching headers", async () => {
    const upload = await member.upload("/api/uploads/", { bytes: await testPng(), filename: "diagram.png", contentType: "image/png" });
    expect(upload.statusCode).toBe(201);
    const body = upload.json() as { file_id: string; url: string; content_type: string; width: number; height: number };
    expect(body.file_id).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(body.url).toBe(`/attach/${body.file_id}`);
    expect([body.content_type, body.width, body.height]).toEqual(["image/png", 300, 200]);
    const [row] = await api.database.db.select().from(attachments).where(eq(attachments.fileId, body.file_id));
    expect(row).toMatchObject({ ownerId: memberId, purpose: "upload", contentType: "image/png", width: 300, height: 200 });

    const served = await new Visitor(api.app).get(body.url);
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/png");
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
    expect(served.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(served.headers["content-security-policy"]).toContain("sandbox");
    expect(Number(served.headers["content-length"])).toBe(row!.size);
    expect(sniffImageType(served.rawPayload)).toBe("image/png");
  });

  it("gives two uploads of the same bytes different ids", async () => {
    const bytes = await testPng(40, 40);
    const first = (await member.upload("/api/uploads/", { bytes, filename: "a.png" })).json() as { file_id: string };
    const second = (await member.upload("/api/uploads/", { bytes, filename: "a.png" })).json() as { file_id: string };
    expect(first.file_id).not.toBe(second.file_id);
  });

  it("takes the type from the bytes: a PNG named .jpg with a JPEG header stays a PNG", async () => {
    const upload = await member.upload("/api/uploads/", { bytes: await testPng(), filename: "photo.jpg", contentType: "image/jpeg" });
    expect(upload.statusCode).toBe(201);
    const served = await member.get((upload.json() as { url: string }).url);
    expect(served.headers["content-type"]).toBe("image/png");
  });

  it("refuses an HTML file named .png with a localized 415, and stores nothing", async () => {
    const before = (await api.database.db.select().from(attachments)).length;
    const upload = await member.upload(
      "/api/uploads/",
      { bytes: htmlFile, filename: "cute.png", contentType: "image/png" },
      { "accept-language": "en" },
    );
    expect(upload.statusCode).toBe(415);
    expect(upload.json()).toEqual({ code: "image_type_not_allowed", message: "Only JPG or PNG images are allowed." });
    expect((await api.database.db.select().from(attachments)).length).toBe(before);
  });

  it("refuses a file over 2 MB with 413 in the viewer's language", async () => {
    const upload = await member.upload("/api/uploads/", { bytes: oversizedJpeg(), filename: "big.jpg" }, { "accept-language": "zh-CN" });
    expect(upload.statusCode).toBe(413);
    expect(upload.json()).toEqual({ code: "image_too_large", message: "图片不能超过 2 MB。" });
  });

  it("strips EXIF from JPEGs", async () => {
    const original = await testJpegWithExif();
    expect((await sharp(original).metadata()).exif).toBeDefined();
    const upload = await member.upload("/api/uploads/", { bytes: original, filename: "camera.jpg" });
    expect(upload.statusCode).toBe(201);
    const served = await member.get((upload.json() as { url: string }).url);
    expect(served.headers["content-type"]).toBe("image/jpeg");
    const metadata = await sharp(served.rawPayload).metadata();
    expect(metadata.exif).toBeUndefined();
    expect(served.rawPayload.includes(Buffer.from("Secret Owner"))).toBe(false);
  });

  it("answers a bad or broken upload with a 4xx, never a 500", async () => {
    const truncatedPng = (await testPng()).subarray(0, 60);
    const broken = await member.upload("/api/uploads/", { bytes: truncatedPng, filename: "broken.png" });
    expect(broken.statusCode).toBe(400);
    expect((broken.json() as { code: string }).code).toBe("image_invalid");
    const wrongField = await member.upload("/api/uploads/", { bytes: await testPng(), filename: "a.png", field: "image" });
    expect(wrongField.statusCode).toBe(400);
    expect((wrongField.json() as { code: string }).code).toBe("file_required");
    const json = await member.post("/api/uploads/", { file: "x" });
    expect(json.statusCode).toBe(415);
    const empty = await member.upload("/api/uploads/", { bytes: Buffer.alloc(0), filename: "empty.png" });
    expect(empty.statusCode).toBe(400);
  });

  it("asks visitors to sign in before uploading", async () => {
    const upload = await new Visitor(api.app, { "accept-language": "en" }).upload("/api/uploads/", {
      bytes: await testPng(),
      filename: "a.png",
    });
    expect(upload.statusCode).toBe(401);
    expect((upload.json() as { code: string }).code).toBe("not_authenticated");
  });

  it("answers 404 for unknown, malformed and path-like ids", async () => {
    for (const id of ["AAAAAAAAAAAAAAAAAAAAAAAA", "short", "..%2F..%2Fetc%2Fpasswd", "a".repeat(90)]) {
      const response = await new Visitor(api.app).get(`/attach/${id}`);
      expect(response.statusCode).toBe(404);
      expect(response.headers["cache-control"] ?? "").not.toContain("immutable");
    }
  });
});

describe("local file store", () => {
  it("puts, gets and deletes by key and refuses keys that could name a path", async () => {
    const store = new LocalFileStore(mkdtempSync(path.join(tmpdir(), "circles-files-")));
    await store.put("abcdefghijklmnopqrstuvwx", Buffer.from("bytes"), "image/png");
    expect((await store.get("abcdefghijklmnopqrstuvwx"))?.toString()).toBe("bytes");
    await store.delete("abcdefghijklmnopqrstuvwx");
    expect(await store.get("abcdefghijklmnopqrstuvwx")).toBeNull();
    await store.delete("abcdefghijklmnopqrstuvwx");
    await expect(store.put("../../../../tmp/evil-file", Buffer.from("x"), "text/plain")).rejects.toThrow(/invalid file key/);
  });

  it("sniffs JPEG and PNG by magic bytes only", async () => {
    expect(sniffImageType(await testPng(2, 2))).toBe("image/png");
    expect(sniffImageType(await testJpegWithExif(2, 2))).toBe("image/jpeg");
    expect(sniffImageType(htmlFile)).toBeNull();
    expect(sniffImageType(Buffer.from([0xff, 0xd8]))).toBeNull();
  });
});

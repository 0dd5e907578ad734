import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, inArray } from "drizzle-orm";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../tests/support/database.ts";
import { createCircle, createUser } from "../../tests/support/factories.ts";
import { testPng } from "../../tests/support/images.ts";
import { attachments, circles, drafts, users, writings } from "../../server/db/schema/index.ts";
import { LocalFileStore } from "./file-store.server.ts";
import { storeImage } from "./service.ts";
import { orphanAgeMs, sweepOrphanedAttachments } from "./sweep.ts";

describe.each(databaseKinds)("sweeping left-over images on %s", (kind) => {
  let database: TestDatabase;
  let folder: string;
  let files: LocalFileStore;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    folder = mkdtempSync(path.join(tmpdir(), "circles-sweep-"));
    files = new LocalFileStore(folder);
  });
  afterAll(async () => {
    await database.dispose();
    rmSync(folder, { recursive: true, force: true });
  });

  it("removes old covers, logos and avatars nothing names, with their files, and keeps every image in use, in a draft, in text or still new", async () => {
    const { db } = database;
    const owner = await createUser(db);
    const bytes = await testPng(64, 64);
    const store = async (purpose: string) =>
      (await storeImage({ db, files }, { ownerId: owner.id, bytes, purpose, maxDimension: 256 })).fileId;
    const [orphanCover, orphanLogo, usedCover, draftCover, usedLogo, usedAvatar, markdownImage, newCover] = await Promise.all(
      ["cover", "circle_logo", "cover", "cover", "circle_logo", "avatar", "upload", "cover"].map((purpose) => store(purpose)),
    );
    const circle = await createCircle(db);
    await db
      .update(circles)
      .set({ logo: `/attach/${usedLogo}` })
      .where(eq(circles.id, circle.id));
    await db
      .update(users)
      .set({ avatar: `/attach/${usedAvatar}` })
      .where(eq(users.id, owner.id));
    await db.insert(writings).values({
      circleId: circle.id,
      authorId: owner.id,
      type: "article",
      language: "zh-CN",
      title: "封面",
      markdown: `![图](/attach/${markdownImage})`,
      html: "<p></p>",
      coverFileId: usedCover,
    });
    await db.insert(drafts).values({ userId: owner.id, key: "sweep-test", title: "草稿", fields: { cover_file_id: draftCover } });
    const old = new Date(Date.now() - orphanAgeMs - 60_000);
    await db
      .update(attachments)
      .set({ createdAt: old })
      .where(inArray(attachments.fileId, [orphanCover!, orphanLogo!, usedCover!, draftCover!, usedLogo!, usedAvatar!, markdownImage!]));

    const removed = await sweepOrphanedAttachments({ db, files });
    expect(removed.sort()).toEqual([orphanCover, orphanLogo].sort());
    expect(await files.get(orphanCover!)).toBeNull();
    const left = (
      await db
        .select({ fileId: attachments.fileId })
        .from(attachments)
        .where(inArray(attachments.fileId, [usedCover!, draftCover!, usedLogo!, usedAvatar!, markdownImage!, newCover!]))
    ).map((row) => row.fileId);
    expect(left.sort()).toEqual([usedCover, draftCover, usedLogo, usedAvatar, markdownImage, newCover].sort());
    expect(await files.get(usedCover!)).not.toBeNull();
    // Nothing more to do on a second run.
    expect(await sweepOrphanedAttachments({ db, files })).toEqual([]);
  });
});

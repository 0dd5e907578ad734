import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { addMember, createCircle, createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { testPng } from "../../tests/support/images.ts";

let counter = 0;
const word = (prefix: string) => `${prefix}${process.pid % 1000}v${(counter += 1)}`;

interface EntryAnswer {
  id: number;
  revision: number;
  name: string;
  language: string;
  translation_of: number | null;
  versions: { id: number; language: string; url: string }[];
  parent_id: number | null;
}

describe.each(databaseKinds)("encyclopedia language versions on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  const create = (visitor: Visitor, circleId: number, body: Record<string, unknown>) =>
    visitor.post(`/api/circles/${circleId}/encyclopedia/entries/`, { language: "zh-CN", content: "说明。", ...body });
  const addVersion = (visitor: Visitor, id: number, body: Record<string, unknown>) =>
    visitor.post(`/api/encyclopedia/entries/${id}/versions/`, { language: "en", content: "About it.", ...body });

  it("adds an English version linked to the entry, read and edited with ?language=, each with its own history", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const parent = (await (await create(visitor, 1, { name: word("几何") })).json()) as { id: number };
    const parentEn = (await (await addVersion(visitor, parent.id, { name: word("Geometry") })).json()) as { id: number };
    const zh = (await (await create(visitor, 1, { name: word("勾股定理"), parent_id: parent.id })).json()) as {
      id: number;
      revision: number;
    };
    const name = word("Pythagorean theorem");
    const added = await addVersion(visitor, zh.id, {
      name,
      aliases: [word("Pythagoras")],
      content: "A theorem [@euclid].",
      references: [{ label: "euclid", authors: ["Euclid"], title: "Elements" }],
      summary: "English version",
    });
    expect(added.statusCode, added.body).toBe(201);
    const version = added.json() as { id: number; url: string; revision: number };
    expect(version.url).toBe(`/circles/1/encyclopedia/${zh.id}/en`);

    const read = await visitor.get(`/api/encyclopedia/entries/${zh.id}/?language=en`);
    expect(read.statusCode, read.body).toBe(200);
    const en = read.json() as EntryAnswer;
    expect(en).toMatchObject({ id: version.id, name, language: "en", translation_of: zh.id, parent_id: parentEn.id });
    expect(en.versions.map((item) => item.language)).toEqual(["zh-CN", "en"]);
    expect(((await visitor.get(`/api/encyclopedia/entries/${zh.id}/?language=zh-CN`)).json() as EntryAnswer).id).toBe(zh.id);
    expect(((await visitor.get(`/api/encyclopedia/entries/${version.id}/?language=zh-CN`)).json() as EntryAnswer).id).toBe(zh.id);

    // A second English version is refused; an entry without one answers 404 for it.
    const twice = await addVersion(visitor, zh.id, { name: word("Again") });
    expect(twice.statusCode).toBe(400);
    expect((twice.json() as { fields: Record<string, string> }).fields.language).toBeTruthy();
    const lone = (await (await create(visitor, 1, { name: word("孤") })).json()) as { id: number };
    expect((await visitor.get(`/api/encyclopedia/entries/${lone.id}/?language=en`)).statusCode).toBe(404);
    expect((await addVersion(new Visitor(api.app), zh.id, { name: word("Anon") })).statusCode).toBe(401);

    const edited = await visitor.request("PATCH", `/api/encyclopedia/entries/${zh.id}/?language=en`, {
      json: { base_revision: version.revision, content: "A theorem about right triangles [@euclid].", summary: "more" },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((edited.json() as { id: number }).id).toBe(version.id);
    const history = (await visitor.get(`/api/encyclopedia/entries/${zh.id}/revisions/?language=en`)).json() as {
      results: { language: string }[];
    };
    expect(history.results.map((revision) => revision.language)).toEqual(["en", "en"]);
    const zhHistory = (await visitor.get(`/api/encyclopedia/entries/${zh.id}/revisions/`)).json() as { results: unknown[] };
    expect(zhHistory.results).toHaveLength(1);
  });

  it("keeps photos with captions (uploaded JPG or PNG only) in revisions: the infobox photo first", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const upload = await visitor.upload("/api/uploads/", { bytes: await testPng(), filename: "diagram.png", contentType: "image/png" });
    expect(upload.statusCode, upload.body).toBe(201);
    const fileId = (upload.json() as { file_id: string }).file_id;
    const created = await create(visitor, 1, { name: word("图片词条"), photos: [{ file_id: fileId, caption: "示意图" }] });
    expect(created.statusCode, created.body).toBe(201);
    const entry = created.json() as { id: number; revision: number };
    const read = (await visitor.get(`/api/encyclopedia/entries/${entry.id}/`)).json() as { photos: unknown[] };
    expect(read.photos).toEqual([{ file_id: fileId, caption: "示意图", url: `/attach/${fileId}` }]);
    const unknown = await visitor.request("PATCH", `/api/encyclopedia/entries/${entry.id}/`, {
      json: { base_revision: entry.revision, photos: [{ file_id: "A".repeat(24), caption: "" }] },
    });
    expect(unknown.statusCode).toBe(400);
    expect((unknown.json() as { fields: Record<string, string> }).fields.photos).toBeTruthy();
    const removed = await visitor.request("PATCH", `/api/encyclopedia/entries/${entry.id}/`, {
      json: { base_revision: entry.revision, photos: [] },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const to = (removed.json() as { revision: number }).revision;
    const diff = (await visitor.get(`/api/encyclopedia/entries/${entry.id}/diff/?from=${entry.revision}&to=${to}`)).json() as {
      fields: { field: string }[];
    };
    expect(diff.fields.map((change) => change.field)).toEqual(["photos"]);
    const reverted = await visitor.post(`/api/encyclopedia/entries/${entry.id}/revisions/${entry.revision}/revert/`, {});
    expect(reverted.statusCode, reverted.body).toBe(200);
    expect(((await visitor.get(`/api/encyclopedia/entries/${entry.id}/`)).json() as { photos: unknown[] }).photos).toHaveLength(1);
  });

  it("is reported through the interactions layer: one case per entry version, repeated flagging refused", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const zh = (await (await create(visitor, 1, { name: word("被举报") })).json()) as { id: number };
    const report = (reporter: Visitor) =>
      reporter.request("POST", `/api/subjects/entry/${zh.id}/reports/`, { json: { reason: "spam", description: "广告" } });
    const first = await report((await createSignedInUser(api.app, db())).visitor);
    expect(first.statusCode, first.body).toBe(201);
    const reporter = (await createSignedInUser(api.app, db())).visitor;
    const second = await report(reporter);
    expect((second.json() as { case_id: number }).case_id).toBe((first.json() as { case_id: number }).case_id);
    const again = await report(reporter);
    expect(again.statusCode).toBe(409);
    expect((again.json() as { code: string }).code).toBe("repeated_flagging");
  });

  it("keeps a version as private as its circle", async () => {
    const { visitor, user } = await createSignedInUser(api.app, db());
    const circle = await createCircle(db(), { visibility: "members" });
    await addMember(db(), circle.id, user.id, "founder");
    const zh = (await (await create(visitor, circle.id, { name: word("私有") })).json()) as { id: number };
    expect((await addVersion(visitor, zh.id, { name: word("Private") })).statusCode).toBe(201);
    const stranger = (await createSignedInUser(api.app, db())).visitor;
    expect((await stranger.get(`/api/encyclopedia/entries/${zh.id}/?language=en`)).statusCode).toBe(404);
    expect((await addVersion(stranger, zh.id, { language: "en", name: word("Nope") })).statusCode).toBe(404);
  });

  it("protects, unprotects and deletes the whole entry, every language version, whichever version is asked", async () => {
    const circle = await createCircle(db());
    const { user: moderator, visitor: mod } = await createSignedInUser(api.app, db());
    const { user: member, visitor: writer } = await createSignedInUser(api.app, db());
    await addMember(db(), circle.id, moderator.id, "master");
    await addMember(db(), circle.id, member.id);
    const zh = (await (await create(writer, circle.id, { name: word("保护整体") })).json()) as { id: number };
    const en = (await (await addVersion(writer, zh.id, { name: word("Whole entry") })).json()) as { id: number };
    const read = async (id: number) =>
      (await writer.get(`/api/encyclopedia/entries/${id}/`)).json() as EntryAnswer & { protected: boolean };
    // Protecting the English version protects the Chinese one too.
    const protect = await mod.post(`/api/encyclopedia/entries/${en.id}/protection/`, { protected: true });
    expect(protect.json()).toEqual({ protected: true });
    expect((await read(zh.id)).protected).toBe(true);
    expect((await read(en.id)).protected).toBe(true);
    const zhNow = await read(zh.id);
    expect(
      (await writer.request("PATCH", `/api/encyclopedia/entries/${zh.id}/`, { json: { base_revision: zhNow.revision, content: "改" } }))
        .statusCode,
    ).toBe(403);
    // Unprotecting the Chinese version frees both.
    await mod.post(`/api/encyclopedia/entries/${zh.id}/protection/`, { protected: false });
    expect((await read(en.id)).protected).toBe(false);
    const enNow = await read(en.id);
    expect(
      (
        await writer.request("PATCH", `/api/encyclopedia/entries/${en.id}/`, {
          json: { base_revision: enNow.revision, content: "Edited." },
        })
      ).statusCode,
    ).toBe(200);
    // A child of either version keeps living without its parent; deleting the English version deletes the entry.
    const child = (await (await create(writer, circle.id, { name: word("子词条"), parent_id: zh.id })).json()) as { id: number };
    expect((await writer.request("DELETE", `/api/encyclopedia/entries/${en.id}/`)).statusCode).toBe(403);
    expect((await mod.request("DELETE", `/api/encyclopedia/entries/${en.id}/`)).statusCode).toBe(204);
    expect((await mod.get(`/api/encyclopedia/entries/${zh.id}/`)).statusCode).toBe(404);
    expect((await mod.get(`/api/encyclopedia/entries/${en.id}/`)).statusCode).toBe(404);
    expect((await mod.get(`/api/encyclopedia/entries/${zh.id}/revisions/`)).statusCode).toBe(404);
    expect((await read(child.id)).parent_id).toBeNull();
  });
});

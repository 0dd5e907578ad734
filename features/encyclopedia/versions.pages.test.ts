import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { testPng } from "../../tests/support/images.ts";

let counter = 0;
const word = (prefix: string) => `${prefix}${process.pid % 1000}vp${(counter += 1)}`;

/** Language versions on the entry pages, as plain HTML documents (no JavaScript), in this process. */
describe.each(databaseKinds)("encyclopedia language version pages on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  const create = (visitor: Visitor, circleId: number, body: Record<string, unknown>) =>
    visitor.post(`/api/circles/${circleId}/encyclopedia/entries/`, { language: "zh-CN", content: "说明。", ...body });
  it("shows a version's page, a missing one as 404 with a link to write it, and the changed-since notice", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const zh = (await (await create(visitor, 1, { name: word("递归"), content: "第一版。" })).json()) as { id: number; revision: number };
    const missing = await visitor.get(`/en/circles/1/encyclopedia/${zh.id}/en`);
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain(`/en/circles/1/encyclopedia/${zh.id}/edit?language=en`);
    const name = word("Recursion");
    // Written without JavaScript through the link of the 404 screen.
    const form = await visitor.get(`/en/circles/1/encyclopedia/${zh.id}/edit?language=en`);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('name="language" value="en"');
    expect(form.body).not.toContain('name="parent_id"');
    const saved = await visitor.request("POST", `/en/circles/1/encyclopedia/${zh.id}/edit?language=en`, {
      body: new URLSearchParams([
        ["csrftoken", await visitor.csrfToken()],
        ["name", name],
        ["aliases", ""],
        ["language", "en"],
        ["content", "First."],
        ["summary", "English version"],
        ["citation_format", "numeric"],
        ["citation_bracket", "square"],
        ["citation_cite_type", "multiple"],
        ["citation_position", "superscript"],
        ["intent", "save"],
      ]).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
      csrf: false,
    });
    expect(saved.statusCode, saved.body.slice(0, 500)).toBe(302);
    expect(saved.headers.location).toBe(`/en/circles/1/encyclopedia/${zh.id}/en`);
    // Its edit page is the version's own.
    const again = await visitor.get(`/en/circles/1/encyclopedia/${zh.id}/edit?language=en`);
    expect(again.statusCode).toBe(302);
    // The English interface opens the English version at the entry's own address.
    const english = await visitor.get(`/en/circles/1/encyclopedia/${zh.id}`);
    expect(english.statusCode).toBe(200);
    expect(english.body).toContain(name);
    const page = await visitor.get(`/circles/1/encyclopedia/${zh.id}/en`);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('data-testid="entry-version-changed"');
    // Cite this: every format pinned to the current revision's permanent address, readable without JavaScript.
    const version = (await visitor.get(`/api/encyclopedia/entries/${zh.id}/?language=en`)).json() as { id: number; revision: number };
    expect(page.body).toContain('data-testid="cite-bibtex"');
    expect(page.body).toContain(`@misc{entry${version.id}rev${version.revision},`);
    expect(page.body).toContain(`/en/circles/1/encyclopedia/${zh.id}/en?revision=${version.revision}`);
    expect(page.body).toContain("GB/T 7714-2015");
    for (const content of ["第二版。", "第三版。"]) {
      const current = (await visitor.get(`/api/encyclopedia/entries/${zh.id}/`)).json() as { revision: number };
      const saved = await visitor.request("PATCH", `/api/encyclopedia/entries/${zh.id}/`, {
        json: { base_revision: current.revision, content },
      });
      expect(saved.statusCode, saved.body).toBe(200);
    }
    const stale = await visitor.get(`/en/circles/1/encyclopedia/${zh.id}/en`);
    expect(stale.body).toContain('data-testid="entry-version-changed"');
    expect(stale.body).toMatch(/Chinese version has changed since this one was written \(2 edits\)/);
    expect(stale.body).toMatch(new RegExp(`/en/circles/1/encyclopedia/${zh.id}/history\\?from=\\d+&amp;to=\\d+`));
  });

  it("uploads photos with captions in the editor without JavaScript and shows the infobox photo and the gallery", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const token = await visitor.csrfToken();
    const name = word("图集词条");
    const post = async (fields: [string, string | Blob][]) => {
      const form = new FormData();
      for (const [key, value] of fields) form.append(key, value);
      const request = new Request("http://localhost/", { method: "POST", body: form });
      return visitor.request("POST", "/circles/1/encyclopedia/write", {
        body: Buffer.from(await request.arrayBuffer()),
        headers: { "content-type": request.headers.get("content-type")! },
        csrf: false,
      });
    };
    const base: [string, string][] = [
      ["csrftoken", token],
      ["name", name],
      ["language", "zh-CN"],
      ["content", "正文。"],
      ["citation_format", "numeric"],
      ["citation_bracket", "square"],
      ["citation_cite_type", "multiple"],
      ["citation_position", "superscript"],
    ];
    const png = new Blob([new Uint8Array(await testPng())], { type: "image/png" });
    const first = await post([...base, ["photo_file", png], ["photo_new_caption", "第一张"], ["intent", "add_photo"]]);
    expect(first.statusCode, first.body.slice(0, 300)).toBe(200);
    const fileIds = [...first.body.matchAll(/name="photo_file_id" value="([A-Za-z0-9_-]{24})"/g)].map((match) => match[1]!);
    expect(fileIds).toHaveLength(1);
    expect(first.body).toContain('value="第一张"');
    const notAnImage = await post([
      ...base,
      ["photo_file_id", fileIds[0]!],
      ["photo_caption", "第一张"],
      ["photo_file", new Blob(["<html>"], { type: "image/png" })],
      ["intent", "add_photo"],
    ]);
    expect(notAnImage.statusCode).toBe(415);
    const saved = await post([
      ...base,
      ["photo_file_id", fileIds[0]!],
      ["photo_caption", "第一张"],
      ["photo_file", png],
      ["photo_new_caption", "第二张"],
      ["intent", "save"],
    ]);
    expect(saved.statusCode, saved.body.slice(0, 300)).toBe(302);
    const page = await visitor.get(saved.headers.location as string);
    expect(page.body).toContain('data-testid="entry-infobox"');
    expect(page.body).toContain(`/attach/${fileIds[0]}`);
    expect(page.body).toContain("<figcaption>第一张</figcaption>");
    const gallery = page.body.slice(page.body.indexOf('data-testid="entry-gallery"'));
    expect(gallery).toContain("<figcaption>第二张</figcaption>");

    // Reordering without JavaScript: "Move up" on the second photo posts the form and answers it reordered; saving keeps the order.
    const id = Number(/\/encyclopedia\/(\d+)/.exec(saved.headers.location as string)![1]);
    const entry = (await visitor.get(`/api/encyclopedia/entries/${id}/`)).json() as { revision: number; photos: { file_id: string }[] };
    const [one, two] = entry.photos.map((photo) => photo.file_id) as [string, string];
    const edit = async (fields: [string, string][]) => {
      const form = new FormData();
      for (const [key, value] of [...base, ["base_revision", String(entry.revision)], ...fields]) form.append(key, value);
      const request = new Request("http://localhost/", { method: "POST", body: form });
      return visitor.request("POST", `/circles/1/encyclopedia/${id}/edit`, {
        body: Buffer.from(await request.arrayBuffer()),
        headers: { "content-type": request.headers.get("content-type")! },
        csrf: false,
      });
    };
    const rows: [string, string][] = [
      ["photo_file_id", one],
      ["photo_caption", "第一张"],
      ["photo_file_id", two],
      ["photo_caption", "第二张"],
    ];
    const editor = await visitor.get(`/circles/1/encyclopedia/${id}/edit`);
    expect(editor.body).toContain(`value="photo_up:${two}"`);
    expect(editor.body).toContain(`value="photo_down:${one}"`);
    const moved = await edit([...rows, ["intent", `photo_up:${two}`]]);
    expect(moved.statusCode, moved.body.slice(0, 300)).toBe(200);
    const order = [...moved.body.matchAll(/name="photo_file_id" value="([A-Za-z0-9_-]{24})"/g)].map((match) => match[1]);
    expect(order).toEqual([two, one]);
    expect(moved.body.indexOf('value="第二张"')).toBeLessThan(moved.body.indexOf('value="第一张"'));
    const reordered = await edit([
      ["photo_file_id", two],
      ["photo_caption", "第二张"],
      ["photo_file_id", one],
      ["photo_caption", "第一张"],
      ["summary", "换了信息框图片"],
      ["intent", "save"],
    ]);
    expect(reordered.statusCode, reordered.body.slice(0, 300)).toBe(302);
    const after = (await visitor.get(`/api/encyclopedia/entries/${id}/`)).json() as { revision: number; photos: { file_id: string }[] };
    expect(after.photos.map((photo) => photo.file_id)).toEqual([two, one]);
    const revision = (await visitor.get(`/api/encyclopedia/entries/${id}/revisions/${after.revision}/`)).json() as {
      photos: { file_id: string }[];
    };
    expect(revision.photos.map((photo) => photo.file_id)).toEqual([two, one]);
    const reread = await visitor.get(`/circles/1/encyclopedia/${id}`);
    const infobox = reread.body.slice(reread.body.indexOf('data-testid="entry-infobox"'));
    expect(infobox.indexOf(`/attach/${two}`)).toBeLessThan(infobox.indexOf(`/attach/${one}`));
    expect(infobox.indexOf(`/attach/${two}`)).toBeGreaterThan(-1);
  });
});

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { addMember, createCircle, createEntry, createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { entryRevisionContents } from "../../server/db/schema/index.ts";
import { citationBrackets, citationFormats, citationPositions, citationTypes } from "./schema.ts";

let counter = 0;
const word = (prefix: string) => `${prefix}${process.pid % 1000}w${(counter += 1)}`;

const paragraphs = ["第一段：勾股定理。", "第二段：直角三角形。", "第三段：斜边的平方。", "第四段：周髀算经。"].join("\n\n");

describe.each(databaseKinds)("encyclopedia editing API on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind);
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  const create = (visitor: Visitor, circleId: number, body: Record<string, unknown>) =>
    visitor.post(`/api/circles/${circleId}/encyclopedia/entries/`, { language: "zh-CN", content: "说明。", ...body });
  const read = async (visitor: Visitor, id: number) => {
    const response = await visitor.get(`/api/encyclopedia/entries/${id}/`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as {
      revision: number;
      content: string;
      name: string;
      content_html: string;
      edit_count: number;
      protected: boolean;
    };
  };

  it("creates an entry (201 {id, url}) with a first revision, reads it back, and refuses visitors and bad input", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const name = word("勾股定理");
    const created = await create(visitor, 1, { name, aliases: ["毕达哥拉斯定理"], content: paragraphs, summary: "新建" });
    expect(created.statusCode, created.body).toBe(201);
    const { id, url, revision } = created.json() as { id: number; url: string; revision: number };
    expect(url).toBe(`/circles/1/encyclopedia/${id}`);
    const entry = await read(visitor, id);
    expect(entry).toMatchObject({ name, content: paragraphs, revision, edit_count: 1, protected: false });
    expect(entry.content_html).toContain("第四段");
    expect((await create(new Visitor(api.app), 1, { name: word("x") })).statusCode).toBe(401);
    const bad = await create(visitor, 1, { name: "", content: "" });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys((bad.json() as { fields: Record<string, string> }).fields)).toEqual(expect.arrayContaining(["name"]));
  });

  it("needs a disambiguation note for a name or alias another entry of the circle and language uses", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const circle = await createCircle(db());
    await addMember(db(), circle.id, (await createSignedInUser(api.app, db())).user.id);
    const name = word("欧拉公式");
    const alias = word("别名");
    expect((await create(visitor, 1, { name, aliases: [alias] })).statusCode).toBe(201);
    const clash = await create(visitor, 1, { name });
    expect(clash.statusCode).toBe(400);
    expect((clash.json() as { fields: Record<string, string> }).fields.disambiguation).toMatch(/disambiguation|消歧义/);
    const byAlias = await create(visitor, 1, { name: word("另一个"), aliases: [alias.toUpperCase()] });
    expect(byAlias.statusCode).toBe(400);
    expect((await create(visitor, 1, { name, disambiguation: "复分析" })).statusCode).toBe(201);
    expect((await create(visitor, 1, { name, language: "en" })).statusCode).toBe(201);
  });

  it("refuses a parent of another circle and parent cycles", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const a = (await (await create(visitor, 1, { name: word("A") })).json()) as { id: number; revision: number };
    const b = (await (await create(visitor, 1, { name: word("B"), parent_id: a.id })).json()) as { id: number; revision: number };
    const c = (await (await create(visitor, 1, { name: word("C"), parent_id: b.id })).json()) as { id: number; revision: number };
    const cycle = await visitor.request("PATCH", `/api/encyclopedia/entries/${a.id}/`, {
      json: { base_revision: a.revision, parent_id: c.id },
    });
    expect(cycle.statusCode).toBe(400);
    expect((cycle.json() as { fields: Record<string, string> }).fields.parent_id).toBeTruthy();
    const self = await visitor.request("PATCH", `/api/encyclopedia/entries/${a.id}/`, {
      json: { base_revision: a.revision, parent_id: a.id },
    });
    expect(self.statusCode).toBe(400);
    const other = await createCircle(db());
    const foreign = await createEntry(db(), other.id, (await createSignedInUser(api.app, db())).user);
    const elsewhere = await visitor.request("PATCH", `/api/encyclopedia/entries/${c.id}/`, {
      json: { base_revision: c.revision, parent_id: foreign.id },
    });
    expect(elsewhere.statusCode).toBe(400);
  });

  it("keeps every save as a revision (identical content stored once), lists them, reads an old one, diffs non-adjacent ones and reverts", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const name = word("递归");
    const first = (await (
      await create(visitor, 1, { name, content: "Recursion calls itself.\n\nBase case stops it.\n\nStack grows." })
    ).json()) as {
      id: number;
      revision: number;
    };
    const id = first.id;
    const second = await visitor.request("PATCH", `/api/encyclopedia/entries/${id}/`, {
      json: {
        base_revision: first.revision,
        content: "Recursion calls itself again.\n\nBase case stops it.\n\nStack grows.",
        summary: "wording",
      },
    });
    expect(second.statusCode, second.body).toBe(200);
    const r2 = (second.json() as { revision: number }).revision;
    const third = await visitor.request("PATCH", `/api/encyclopedia/entries/${id}/`, {
      json: {
        base_revision: r2,
        content: "Recursion calls itself again and again.\n\nStack grows.\n\nBase case stops it.",
        summary: "reorder",
      },
    });
    const r3 = (third.json() as { revision: number }).revision;
    const list = await visitor.get(`/api/encyclopedia/entries/${id}/revisions/`);
    expect(list.statusCode).toBe(200);
    const revisions = (list.json() as { results: { id: number; number: number; summary: string; size_delta: number; current: boolean }[] })
      .results;
    expect(revisions.map((revision) => revision.number)).toEqual([3, 2, 1]);
    expect(revisions[0]).toMatchObject({ id: r3, summary: "reorder", current: true });
    expect(revisions[1]!.size_delta).toBe(" again".length);
    const old = await visitor.get(`/api/encyclopedia/entries/${id}/revisions/${first.revision}/`);
    expect(old.json()).toMatchObject({
      number: 1,
      content: "Recursion calls itself.\n\nBase case stops it.\n\nStack grows.",
      current: false,
    });
    const diff = await visitor.get(`/api/encyclopedia/entries/${id}/diff/?from=${first.revision}&to=${r3}`);
    expect(diff.statusCode, diff.body).toBe(200);
    const blocks = (diff.json() as { blocks: { kind: string; text?: string; parts?: { kind: string; text: string }[] }[] }).blocks;
    const moved = blocks.filter((block) => block.kind === "moved_from" || block.kind === "moved_to");
    expect(moved).toHaveLength(2);
    expect(moved[0]!.text).toBe(moved[1]!.text);
    const changed = blocks.find((block) => block.kind === "changed")!;
    expect(changed.parts).toContainEqual({ kind: "added", text: " again and again" });
    const reverted = await visitor.post(`/api/encyclopedia/entries/${id}/revisions/${first.revision}/revert/`, { summary: "back" });
    expect(reverted.statusCode, reverted.body).toBe(200);
    const entry = await read(visitor, id);
    expect(entry.content).toBe("Recursion calls itself.\n\nBase case stops it.\n\nStack grows.");
    expect(entry.edit_count).toBe(4);
    const after = (await (await visitor.get(`/api/encyclopedia/entries/${id}/revisions/`)).json()) as {
      results: { number: number; revert_of: number | null }[];
    };
    expect(after.results[0]).toMatchObject({ number: 4, revert_of: first.revision });
    // Revision 4 has the content of revision 1: one stored copy.
    const copies = await db().select().from(entryRevisionContents);
    const same = copies.filter(
      (row) => row.snapshot.name === name && row.snapshot.content === "Recursion calls itself.\n\nBase case stops it.\n\nStack grows.",
    );
    expect(same).toHaveLength(1);
    // Chinese diffs are character-level.
    const zh = (await (await create(visitor, 1, { name: word("字"), content: "勾股定理" })).json()) as { id: number; revision: number };
    const zh2 = (await (
      await visitor.request("PATCH", `/api/encyclopedia/entries/${zh.id}/`, { json: { base_revision: zh.revision, content: "勾股弦定理" } })
    ).json()) as {
      revision: number;
    };
    const zhDiff = (await (
      await visitor.get(`/api/encyclopedia/entries/${zh.id}/diff/?from=${zh.revision}&to=${zh2.revision}`)
    ).json()) as {
      blocks: { parts?: { kind: string; text: string }[] }[];
    };
    expect(zhDiff.blocks[0]!.parts).toEqual([
      { kind: "same", text: "勾股" },
      { kind: "added", text: "弦" },
      { kind: "same", text: "定理" },
    ]);
    expect((await visitor.get(`/api/encyclopedia/entries/${id}/revisions/${zh.revision}/`)).statusCode).toBe(404);
  });

  it("merges non-overlapping edits three ways and answers 409 edit_conflict with both sides for overlapping ones", async () => {
    const { visitor: alice } = await createSignedInUser(api.app, db());
    const { visitor: bob } = await createSignedInUser(api.app, db());
    const { id, revision } = (await (await create(alice, 1, { name: word("合并"), content: paragraphs })).json()) as {
      id: number;
      revision: number;
    };
    const aliceEdit = await alice.request("PATCH", `/api/encyclopedia/entries/${id}/`, {
      json: { base_revision: revision, content: paragraphs.replace("第一段：勾股定理。", "第一段：勾股定理（毕达哥拉斯）。") },
    });
    expect(aliceEdit.statusCode).toBe(200);
    const bobEdit = await bob.request("PATCH", `/api/encyclopedia/entries/${id}/`, {
      json: { base_revision: revision, content: paragraphs.replace("第四段：周髀算经。", "第四段：《周髀算经》记载。") },
    });
    expect(bobEdit.statusCode, bobEdit.body).toBe(200);
    expect((bobEdit.json() as { merged: boolean }).merged).toBe(true);
    const merged = await read(alice, id);
    expect(merged.content).toContain("勾股定理（毕达哥拉斯）");
    expect(merged.content).toContain("《周髀算经》记载");
    const clash = await bob.request("PATCH", `/api/encyclopedia/entries/${id}/`, {
      json: { base_revision: revision, content: paragraphs.replace("第一段：勾股定理。", "第一段：商高定理。") },
    });
    expect(clash.statusCode).toBe(409);
    const body = clash.json() as { code: string; current_revision: number; current: { content: string }; yours: { content: string } };
    expect(body.code).toBe("edit_conflict");
    expect(body.current_revision).toBe(merged.revision);
    expect(body.current.content).toContain("毕达哥拉斯");
    expect(body.yours.content).toContain("商高定理");
    expect((await read(alice, id)).revision).toBe(merged.revision);
  });

  it("refuses unknown citation labels naming them, and renders every combination of the citation settings", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const references = [
      { label: "euclid", authors: ["Euclid"], title: "Elements", year: "300 BC" },
      { label: "zhou", authors: ["佚名"], title: "周髀算经", pages: "12" },
    ];
    const unknown = await create(visitor, 1, { name: word("引用"), content: "见 [@euclid; @nobody] 与 [@ghost]。", references });
    expect(unknown.statusCode).toBe(400);
    const refused = unknown.json() as { fields: { content: string }; unknown_labels: string[] };
    expect(refused.unknown_labels).toEqual(["nobody", "ghost"]);
    expect(refused.fields.content).toContain("nobody, ghost");
    const content = "甲 [@euclid]，乙 [@zhou; @euclid]，丙 [@zhou, p. 12]。`[@code]`";
    const expected = {
      numeric: { single: ["[1]", "[2][1]", "[2, p. 12]"], multiple: ["[1]", "[2, 1]", "[2, p. 12]"] },
      label: { single: ["[euclid]", "[zhou][euclid]", "[zhou, p. 12]"], multiple: ["[euclid]", "[zhou, euclid]", "[zhou, p. 12]"] },
    } as const;
    for (const format of citationFormats)
      for (const bracket of citationBrackets)
        for (const cite_type of citationTypes)
          for (const position of citationPositions) {
            const response = await create(visitor, 1, {
              name: word("设置"),
              content,
              references,
              citation: { format, bracket, cite_type, position },
            });
            expect(response.statusCode, response.body).toBe(201);
            const html = (await read(visitor, (response.json() as { id: number }).id)).content_html;
            const tag = position === "superscript" ? "sup" : "sub";
            const marks = [...html.matchAll(new RegExp(`<${tag}>(.*?)</${tag}>`, "g"))].map((match) => match[1]!.replace(/<[^>]+>/g, ""));
            expect(html).toContain("<code>[@code]</code>");
            expect(html).toMatch(/<li id="user-content-ref-1">/);
            if (format === "none") {
              expect(marks).toEqual([]);
              continue;
            }
            const round = (text: string) => (bracket === "round" ? text.replaceAll("[", "(").replaceAll("]", ")") : text);
            expect(marks).toEqual(expected[format][cite_type].map(round));
            // Back-links from the reference list to every place it is cited (euclid: twice).
            expect(html).toContain('href="#user-content-cite-1-1"');
            expect(html).toContain(`href="#user-content-cite-1-${cite_type === "single" ? 3 : 3}"`);
            expect(html).toContain('href="#user-content-ref-2"');
          }
  });

  it("lets only moderators protect, edit a protected entry and delete; deleting removes the entry and its history", async () => {
    const circle = await createCircle(db());
    const { user: moderator, visitor: mod } = await createSignedInUser(api.app, db());
    const { user: member, visitor: writer } = await createSignedInUser(api.app, db());
    await addMember(db(), circle.id, moderator.id, "master");
    await addMember(db(), circle.id, member.id);
    const { id, revision } = (await (await create(writer, circle.id, { name: word("保护") })).json()) as { id: number; revision: number };
    expect((await writer.post(`/api/encyclopedia/entries/${id}/protection/`, { protected: true })).statusCode).toBe(403);
    const protect = await mod.post(`/api/encyclopedia/entries/${id}/protection/`, { protected: true });
    expect(protect.json()).toEqual({ protected: true });
    expect(
      (await writer.request("PATCH", `/api/encyclopedia/entries/${id}/`, { json: { base_revision: revision, content: "改" } })).statusCode,
    ).toBe(403);
    const modEdit = await mod.request("PATCH", `/api/encyclopedia/entries/${id}/`, {
      json: { base_revision: revision, content: "版主改" },
    });
    expect(modEdit.statusCode).toBe(200);
    // Protection covers every language: no new version but a moderator's, and that one is protected.
    const english = { language: "en", name: word("Protected"), content: "About it." };
    expect((await writer.post(`/api/encyclopedia/entries/${id}/versions/`, english)).statusCode).toBe(403);
    const version = await mod.post(`/api/encyclopedia/entries/${id}/versions/`, english);
    expect(version.statusCode).toBe(201);
    const versionId = (version.json() as { id: number }).id;
    const versionRead = (await writer.get(`/api/encyclopedia/entries/${versionId}/`)).json() as { revision: number; protected: boolean };
    expect(versionRead.protected).toBe(true);
    expect(
      (
        await writer.request("PATCH", `/api/encyclopedia/entries/${versionId}/`, {
          json: { base_revision: versionRead.revision, content: "Changed." },
        })
      ).statusCode,
    ).toBe(403);
    expect((await writer.get(`/api/encyclopedia/entries/${id}/`)).json()).toMatchObject({
      protected: true,
      permissions: { edit: false, delete: false, protect: false },
    });
    await mod.post(`/api/encyclopedia/entries/${id}/protection/`, { protected: false });
    const again = (await writer.get(`/api/encyclopedia/entries/${id}/`)).json() as { revision: number };
    expect(
      (await writer.request("PATCH", `/api/encyclopedia/entries/${id}/`, { json: { base_revision: again.revision, content: "成员改" } }))
        .statusCode,
    ).toBe(200);
    expect((await writer.request("DELETE", `/api/encyclopedia/entries/${id}/`)).statusCode).toBe(403);
    expect((await mod.request("DELETE", `/api/encyclopedia/entries/${id}/`)).statusCode).toBe(204);
    expect((await mod.get(`/api/encyclopedia/entries/${id}/`)).statusCode).toBe(404);
    expect((await mod.get(`/api/encyclopedia/entries/${id}/revisions/`)).statusCode).toBe(404);
  });

  it("follows the circle's visibility: readers of its content read entries and history, its writers write", async () => {
    const { user: member, visitor: insider } = await createSignedInUser(api.app, db());
    const { visitor: outsider } = await createSignedInUser(api.app, db());
    const anonymous = new Visitor(api.app);
    for (const visibility of ["public", "circle", "members"] as const) {
      const circle = await createCircle(db(), { visibility });
      await addMember(db(), circle.id, member.id);
      const made = await create(insider, circle.id, { name: word(visibility) });
      expect(made.statusCode, made.body).toBe(201);
      const { id } = made.json() as { id: number };
      expect((await insider.get(`/api/encyclopedia/entries/${id}/revisions/`)).statusCode).toBe(200);
      const outsiderWrite = await create(outsider, circle.id, { name: word("外人") });
      const anonymousRead = await anonymous.get(`/api/encyclopedia/entries/${id}/`);
      if (visibility === "public") {
        expect(outsiderWrite.statusCode).toBe(201);
        expect(anonymousRead.statusCode).toBe(200);
      } else {
        expect([403, 404]).toContain(outsiderWrite.statusCode);
        expect([401, 404]).toContain(anonymousRead.statusCode);
        expect([401, 404]).toContain((await anonymous.get(`/api/encyclopedia/entries/${id}/revisions/`)).statusCode);
      }
    }
  });
});

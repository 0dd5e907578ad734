import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApi, Visitor, type TestApi } from "../../tests/support/api.ts";
import { addMember, createCircle, createSignedInUser } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";

let counter = 0;
const word = (prefix: string) => `${prefix}${process.pid % 1000}p${(counter += 1)}`;

/** A page form as a browser without JavaScript posts it (repeated fields: reference rows). */
function postFields(visitor: Visitor, url: string, fields: [string, string][]) {
  return visitor.request("POST", url, {
    body: new URLSearchParams(fields).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
    csrf: false,
  });
}

const referenceRow = (values: Partial<Record<string, string>>): [string, string][] =>
  ["label", "authors", "title", "container", "publisher", "year", "pages", "url", "accessed", "doi"].map((field) => [
    `ref_${field}`,
    values[field] ?? "",
  ]);

/**
 * The encyclopedia's write, edit, history and entry pages as plain HTML documents (no
 * JavaScript), in both languages, in this process.
 */
describe.each(databaseKinds)("encyclopedia editing pages on %s", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(() => api.close());
  const db = () => api.database.db;

  it("writes an entry without JavaScript: blank rows, BibTeX, preview with citations, save; edits it; diffs and reverts in the history", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const token = await visitor.csrfToken();
    const write = await visitor.get("/circles/1/encyclopedia/write");
    expect(write.statusCode).toBe(200);
    expect(write.body).toContain('name="ref_label"');
    expect(write.body).toContain('name="citation_format"');
    const name = word("勾股定理");
    const base: [string, string][] = [
      ["csrftoken", token],
      ["name", name],
      ["aliases", "毕达哥拉斯定理, 商高定理"],
      ["disambiguation", ""],
      ["parent_id", ""],
      ["language", "zh-CN"],
      ["content", "直角三角形的两条直角边的平方和等于斜边的平方 [@euclid]。\n\n周髀算经有记载 [@zhou, p. 12]。"],
      ["summary", "新建"],
      ["citation_format", "numeric"],
      ["citation_bracket", "square"],
      ["citation_cite_type", "multiple"],
      ["citation_position", "superscript"],
      ...referenceRow({ label: "euclid", authors: "Euclid", title: "Elements" }),
      ...referenceRow({}),
    ];
    const more = await postFields(visitor, "/circles/1/encyclopedia/write", [...base, ["rows", "2"], ["intent", "more_references"]]);
    expect(more.statusCode).toBe(200);
    expect(more.body.match(/name="ref_label"/g)).toHaveLength(5);
    expect(more.body).toContain('value="Elements"');
    const bibtex = await postFields(visitor, "/circles/1/encyclopedia/write", [
      ...base,
      ["intent", "bibtex"],
      ["bibtex", "@book{zhou, author = {Anonymous}, title = {Zhou Bi Suan Jing}, publisher = {Zhonghua}, year = 1990}"],
    ]);
    expect(bibtex.statusCode).toBe(200);
    expect(bibtex.body).toContain('value="Zhou Bi Suan Jing"');
    expect(bibtex.body).toContain('value="zhou"');
    const withZhou = [...base, ...referenceRow({ label: "zhou", authors: "Anonymous", title: "Zhou Bi Suan Jing", year: "1990" })];
    const preview = await postFields(visitor, "/circles/1/encyclopedia/write", [...withZhou, ["intent", "preview"]]);
    expect(preview.body).toContain('<sup>[<a href="#user-content-ref-1" id="user-content-cite-1-1">1</a>]</sup>');
    expect(preview.body).toContain('<li id="user-content-ref-2"><a href="#user-content-cite-2-2">^</a> Anonymous.');
    const unknown = await postFields(visitor, "/circles/1/encyclopedia/write", [...base, ["intent", "save"]]);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain("zhou");
    expect(unknown.body).toContain(name);
    const saved = await postFields(visitor, "/circles/1/encyclopedia/write", [...withZhou, ["intent", "save"]]);
    expect(saved.statusCode, saved.body.slice(0, 500)).toBe(302);
    const entryPath = saved.headers.location as string;
    expect(entryPath).toMatch(/^\/circles\/1\/encyclopedia\/\d+$/);
    const page = await visitor.get(entryPath);
    expect(page.body).toContain("参考资料");
    expect(page.body).toContain('id="user-content-ref-2"');
    expect(page.body).toContain(`href="${entryPath}/edit"`);
    expect(page.body).toContain(`href="${entryPath}/history"`);

    const edit = await visitor.get(`${entryPath}/edit`);
    expect(edit.statusCode).toBe(200);
    const baseRevision = /name="base_revision" value="(\d+)"/.exec(edit.body)![1]!;
    const edited = withZhou.map(([key, value]): [string, string] =>
      key === "content" ? [key, value.replace("周髀算经有记载", "《周髀算经》记载")] : key === "summary" ? [key, "书名号"] : [key, value],
    );
    const second = await postFields(visitor, `${entryPath}/edit`, [...edited, ["base_revision", baseRevision], ["intent", "save"]]);
    expect(second.statusCode).toBe(302);
    // A stale edit touching the same place: 409 with both texts on the page, nothing typed lost.
    const clash = withZhou.map(([key, value]): [string, string] =>
      key === "content" ? [key, value.replace("周髀算经有记载", "周髀算经载")] : [key, value],
    );
    const conflict = await postFields(visitor, `${entryPath}/edit`, [...clash, ["base_revision", baseRevision], ["intent", "save"]]);
    expect(conflict.statusCode).toBe(409);
    expect(conflict.body).toContain('data-testid="entry-conflict"');
    expect(conflict.body).toContain("周髀算经载");
    expect(conflict.body).toContain("《周髀算经》记载");

    const history = await visitor.get(`${entryPath}/history`);
    expect(history.statusCode).toBe(200);
    expect(history.body.match(/data-testid="revision-row"/g)).toHaveLength(2);
    expect(history.body).toContain("书名号");
    const ids = [...history.body.matchAll(/name="from"(?: checked="")? value="(\d+)"/g)].map((match) => match[1]!);
    const [newest, oldest] = ids;
    const diff = await visitor.get(`${entryPath}/history?from=${oldest}&to=${newest}`);
    expect(diff.body).toContain('<ins class="diff-added">《</ins>');
    const side = await visitor.get(`${entryPath}/history?from=${oldest}&to=${newest}&view=side`);
    expect(side.body).toContain('class="diff-old"');
    const old = await visitor.get(`${entryPath}?revision=${oldest}`);
    expect(old.body).toContain('data-testid="old-revision"');
    expect(old.body).toContain("周髀算经有记载");
    const revert = await visitor.postForm(`${entryPath}/history`, {
      csrftoken: token,
      intent: "revert",
      revision: oldest!,
      summary: "回退",
    });
    expect(revert.statusCode).toBe(302);
    const after = await visitor.get(`/en${entryPath}/history`);
    expect(after.body.match(/data-testid="revision-row"/g)).toHaveLength(3);
    expect(after.body).toContain("History of");
    expect((await visitor.get(`/en${entryPath}`)).body).toContain("Contributors");
  }, 240_000);

  it("asks before a moderator deletes an entry, protects it; members may not; visitors are sent to log in", async () => {
    const circle = await createCircle(db());
    const { user: moderator, visitor: mod } = await createSignedInUser(api.app, db());
    const { user: member, visitor: writer } = await createSignedInUser(api.app, db());
    await addMember(db(), circle.id, moderator.id, "master");
    await addMember(db(), circle.id, member.id);
    const created = await writer.post(`/api/circles/${circle.id}/encyclopedia/entries/`, { name: word("删"), content: "说明。" });
    const { url } = created.json() as { url: string };
    expect((await new Visitor(api.app).get(`/circles/${circle.id}/encyclopedia/write`)).statusCode).toBe(302);
    const memberPage = await writer.get(url);
    expect(memberPage.body).not.toContain('value="delete"');
    const modPage = await mod.get(`/en${url}`);
    expect(modPage.body).toContain('value="delete"');
    const token = await mod.csrfToken();
    const protect = await mod.postForm(url, { csrftoken: token, intent: "protect" });
    expect(protect.statusCode).toBe(302);
    expect((await writer.get(url)).body).toContain('data-testid="entry-protected"');
    expect((await writer.get(`${url}/edit`)).statusCode).toBe(403);
    const asked = await mod.postForm(url, { csrftoken: token, intent: "delete" });
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain('value="1"');
    expect((await mod.get(url)).statusCode).toBe(200);
    const deleted = await mod.postForm(url, { csrftoken: token, intent: "delete", confirmed: "1" });
    expect(deleted.statusCode).toBe(302);
    expect((await mod.get(url)).statusCode).toBe(404);
  });

  it("resolves names and aliases: one entry redirects, several are a disambiguation page; entries show their ancestors, children and other senses", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const circle = await createCircle(db(), { visibility: "public" });
    const make = async (body: Record<string, unknown>) =>
      (await visitor.post(`/api/circles/${circle.id}/encyclopedia/entries/`, { content: "说明。", ...body })).json() as {
        id: number;
        url: string;
      };
    const name = word("欧拉公式");
    const alias = word("唯一别名");
    const root = await make({ name: word("数学") });
    const first = await make({ name, aliases: [alias], disambiguation: "复分析", parent_id: root.id });
    const second = await make({ name, disambiguation: "多面体", parent_id: first.id });
    const byAlias = await visitor.get(`/circles/${circle.id}/encyclopedia/by-name/${encodeURIComponent(alias)}`);
    expect(byAlias.statusCode).toBe(302);
    expect(byAlias.headers.location).toBe(first.url);
    const senses = await visitor.get(`/en/circles/${circle.id}/encyclopedia/by-name/${encodeURIComponent(name)}`);
    expect(senses.statusCode).toBe(200);
    expect(senses.body).toContain("（复分析）");
    expect(senses.body).toContain("（多面体）");
    expect(senses.body).toContain(`href="/en${second.url}"`);
    expect((await visitor.get(`/circles/${circle.id}/encyclopedia/by-name/${word("无")}`)).statusCode).toBe(404);
    const page = await visitor.get(second.url);
    expect(page.body).toContain('data-testid="entry-other-senses"');
    expect(page.body).toContain(`href="${first.url}"`);
    expect(page.body).toContain(`href="${root.url}"`);
    const parent = await visitor.get(first.url);
    expect(parent.body).toContain('data-testid="entry-children"');
    expect(parent.body).toContain(`href="${second.url}"`);
  });
});

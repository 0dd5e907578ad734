import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestApi, type TestApi } from "../../tests/support/api.ts";
import { addMember, createCircle, createQuestion, createSignedInUser, createWriting } from "../../tests/support/factories.ts";
import { databaseKinds } from "../../tests/support/database.ts";
import { writings } from "../../server/db/schema/index.ts";
import { closeRenderer } from "../content/render.server.ts";

/** The text of the element carrying `attribute` (an id, a data-testid…), tags stripped. */
const textOf = (body: string, attribute: string) => {
  const match = new RegExp(`<[a-z]+[^>]*${attribute}[^>]*>([\\s\\S]*?)</`).exec(body);
  return match?.[1]?.replace(/<[^>]+>/g, "").trim();
};

/**
 * The writing editor as a plain HTML document (no JavaScript), in this process: inline messages
 * with every typed value kept, the "Save draft" button, the series chooser and the summary.
 */
describe.each(databaseKinds)("the writing editor without JavaScript (%s)", (kind) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await createTestApi(kind, { pages: true });
  });
  afterAll(async () => {
    await api.close();
    await closeRenderer();
  });
  const db = () => api.database.db;

  async function writer() {
    const signed = await createSignedInUser(api.app, db());
    const circle = await createCircle(db());
    const form = async (fields: Record<string, string>) => ({
      csrftoken: await signed.visitor.csrfToken(),
      draft_key: `new-article-${circle.id}`,
      type: "article",
      kind: "ordinary",
      language: "zh-CN",
      pay_to_view_price: "0",
      red_packet_amount: "0",
      ...fields,
    });
    return { ...signed, circle, form, path: `/circles/${circle.id}/write/article` };
  }

  it("starts a new writing with the circle choice open, and the header has Write and Ask leading to the circle choice, in both languages", async () => {
    const { visitor } = await createSignedInUser(api.app, db());
    const zh = (await visitor.get("/circles/1/write/article")).body;
    expect(zh).toMatch(/<details class="editor-circle" open="">/);
    expect(zh).toMatch(/<a[^>]*href="\/write"[^>]*>(?:(?!<\/a>)[\s\S])*写文章/);
    expect(zh).toMatch(/data-testid="header-ask" href="\/ask"[^>]*>提问<\/a>/);
    const en = (await visitor.get("/en/circles/1/write/article")).body;
    expect(en).toMatch(/<a[^>]*href="\/en\/write"[^>]*>(?:(?!<\/a>)[\s\S])*Write/);
    expect(en).toMatch(/data-testid="header-ask" href="\/en\/ask"[^>]*>Ask<\/a>/);
  });

  /** The circle ids of a circle choice's group, in order. */
  const choiceIds = (body: string, group: string) => {
    const list = new RegExp(`<ul[^>]*data-testid="circle-choice-${group}"[^>]*>([\\s\\S]*?)</ul>`).exec(body)?.[1] ?? "";
    return [...list.matchAll(/data-circle="(\d+)"/g)].map((match) => Number(match[1]));
  };

  it("/write and /ask start with the circle choice: joined circles first, the last circle used leading, in both languages; visitors sign in first", async () => {
    const { user, visitor } = await createSignedInUser(api.app, db());
    const [joined, used, other] = [await createCircle(db()), await createCircle(db()), await createCircle(db())];
    await addMember(db(), joined.id, user.id);
    await addMember(db(), used.id, user.id);

    // Nothing posted yet: no circle is the last one used; the joined ones come first, by id.
    const fresh = await visitor.get("/write");
    expect(fresh.statusCode).toBe(200);
    expect(textOf(fresh.body, 'id="circle-choice-title"')).toBe("写文章：选择圈子");
    expect(fresh.body).not.toContain('data-testid="circle-choice-last"');
    expect(choiceIds(fresh.body, "joined")).toEqual([joined.id, used.id]);
    const others = choiceIds(fresh.body, "others");
    expect(others).toContain(1);
    expect(others).toContain(other.id);
    expect(fresh.body).toContain(`href="/circles/${joined.id}/write/article"`);

    // A writing in one circle and a question in another: each page remembers its own kind's circle.
    await createWriting(db(), user, { circleId: used.id });
    await createQuestion(db(), user, { circleId: other.id });
    const write = await visitor.get("/write");
    expect(write.body).toMatch(
      new RegExp(
        `data-testid="circle-choice-last"[^>]*href="/circles/${used.id}/write/article"|href="/circles/${used.id}/write/article"[^>]*data-testid="circle-choice-last"`,
      ),
    );
    // The name is spaced from the Chinese text where it meets Latin letters or digits.
    expect(textOf(write.body, 'data-testid="circle-choice-last"')?.replace(/\s/g, "")).toBe(`继续在${used.nameZh}发布`);
    const ask = await visitor.get("/en/ask");
    expect(ask.statusCode).toBe(200);
    expect(textOf(ask.body, 'id="circle-choice-title"')).toBe("Ask: choose a circle");
    expect(textOf(ask.body, 'data-testid="circle-choice-last"')).toBe(`Continue in ${other.nameEn}`);
    expect(ask.body).toContain(`href="/en/circles/${joined.id}/ask"`);
    expect(choiceIds(ask.body, "joined")).toEqual([joined.id, used.id]);

    const anonymous = await api.app.inject({ method: "GET", url: "/ask" });
    expect(anonymous.statusCode).toBe(302);
    expect(anonymous.headers.location).toMatch(/^\/login\?next=%2Fask/);
  });

  it("answers a missing title with the inline message, the values kept, and a form the browser does not check by itself", async () => {
    const { visitor, form, path, circle } = await writer();
    const page = await visitor.get(path);
    expect(page.statusCode).toBe(200);
    // No browser bubble hidden under the sticky header: the form is checked by the page and the server.
    expect(page.body).toMatch(/<form[^>]*id="writing-editor-form"[^>]*novalidate/i);
    const failed = await visitor.postForm(
      path,
      await form({ intent: "publish", title: "  ", content: "保留的正文", summary: "保留的摘要" }),
    );
    expect(failed.statusCode).toBe(400);
    expect(textOf(failed.body, 'data-field-error="writing-title"')).toBe("请输入标题。");
    expect(failed.body).toMatch(/id="writing-title"[^>]*aria-invalid="true"/);
    // The browser opens the answer at the invalid field (focused, scrolled to it below the header).
    expect(failed.body).toMatch(/id="writing-title"[^>]*autofocus/);
    expect(failed.body.match(/autofocus/g)).toHaveLength(1);
    expect(failed.body).toContain("保留的正文");
    expect(textOf(failed.body, 'id="writing-summary"')).toBe("保留的摘要");
    expect(await db().select().from(writings).where(eq(writings.circleId, circle.id))).toEqual([]);
    // In English too.
    const english = await visitor.postForm(`/en${path}`, await form({ intent: "publish", title: "", content: "kept" }));
    expect(textOf(english.body, 'data-field-error="writing-title"')).toBe("Please enter a title.");
    // A summary over the limit is its own field's message.
    const long = await visitor.postForm(path, await form({ intent: "publish", title: "标题", content: "正文", summary: "长".repeat(201) }));
    expect(long.statusCode).toBe(400);
    expect(textOf(long.body, 'data-field-error="writing-summary"')).toBe("摘要最多 200 个字符。");
    expect(long.body).toMatch(/id="writing-summary"[^>]*autofocus/);
  });

  it("saves the draft with the Save draft button and comes back with the form and a saved notice", async () => {
    const { visitor, form, path, circle } = await writer();
    const saved = await visitor.postForm(
      path,
      await form({ intent: "save_draft", title: "未完成", content: "写到一半", summary: "摘要草稿" }),
    );
    expect(saved.statusCode).toBe(200);
    expect(textOf(saved.body, 'data-testid="draft-saved"')).toContain("草稿已保存");
    expect(saved.body).toContain("写到一半");
    const draft = (await visitor.get(`/api/drafts/new-article-${circle.id}/`)).json();
    expect(draft).toMatchObject({ title: "未完成", body: "写到一半", fields: { summary: "摘要草稿", circle_id: circle.id } });
    // Saving again overwrites it (what the writer sees is what they save); reopening the editor restores it.
    await visitor.postForm(path, await form({ intent: "save_draft", title: "第二稿", content: "写完了" }));
    expect((await visitor.get(`/api/drafts/new-article-${circle.id}/`)).json()).toMatchObject({ title: "第二稿", version: 2 });
    const reopened = await visitor.get(path);
    expect(reopened.body).toContain('data-testid="draft-restored"');
    expect(reopened.body).toContain("写完了");
    // Publishing deletes it.
    const published = await visitor.postForm(path, await form({ intent: "publish", title: "第二稿", content: "写完了" }));
    expect(published.statusCode).toBe(302);
    expect((await visitor.get(`/api/drafts/new-article-${circle.id}/`)).statusCode).toBe(404);
  });

  it("lets a serialized article continue one of the author's series, showing the next part's number", async () => {
    const { visitor, form, path, circle } = await writer();
    const first = await visitor.post(`/api/circles/${circle.id}/writings/`, { title: "长篇连载", content: "第一篇", type: "serial" });
    expect(first.statusCode, first.body).toBe(201);
    const firstId = (first.json() as { id: number }).id;
    const page = await visitor.get(path);
    expect(page.body).toContain(`<option value="${firstId}">长篇连载（下一篇：第 2 篇）</option>`);
    expect(page.body).toContain("开始新的连载");
    const published = await visitor.postForm(
      path,
      await form({ intent: "publish", type: "serial", series_id: String(firstId), title: "第二篇", content: "接着写" }),
    );
    expect(published.statusCode, published.body).toBe(302);
    const [second] = await db().select().from(writings).where(eq(writings.title, "第二篇"));
    expect(second).toMatchObject({ seriesId: firstId, partNumber: 2, type: "serial" });
    expect(published.headers.location).toBe(`/circles/${circle.id}/writing/${second!.id}`);
    expect((await visitor.get(path)).body).toContain("长篇连载（下一篇：第 3 篇）");
    // An article (not serialized) ignores the series chosen; "a new series" starts one.
    await visitor.postForm(
      path,
      await form({ intent: "publish", type: "article", series_id: String(firstId), title: "单篇", content: "独立" }),
    );
    const [single] = await db().select().from(writings).where(eq(writings.title, "单篇"));
    expect(single).toMatchObject({ seriesId: null, type: "article" });
    await visitor.postForm(path, await form({ intent: "publish", type: "serial", series_id: "", title: "新连载", content: "开篇" }));
    const [fresh] = await db().select().from(writings).where(eq(writings.title, "新连载"));
    expect(fresh).toMatchObject({ seriesId: null, partNumber: 1, type: "serial" });
    // Another author's series is no choice of this one's.
    const other = await createSignedInUser(api.app, db());
    expect((await other.visitor.get(path)).body).not.toContain("长篇连载（下一篇");
  });

  it("uses the summary as the reading page's description", async () => {
    const { visitor, form, path } = await writer();
    const published = await visitor.postForm(
      path,
      await form({ intent: "publish", title: "有摘要的文章", content: "正文的开头并不是摘要。", summary: "这是作者写的摘要" }),
    );
    expect(published.statusCode).toBe(302);
    const reading = await visitor.get(published.headers.location as string);
    expect(reading.body).toContain('<meta name="description" content="这是作者写的摘要"');
  });
});

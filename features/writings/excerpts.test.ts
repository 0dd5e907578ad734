import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../tests/support/database.ts";
import { createUser, createWriting } from "../../tests/support/factories.ts";
import { writings } from "../../server/db/schema/index.ts";
import { closeRenderer, renderMarkdown } from "../content/render.server.ts";
import { refreshFormulaExcerpts } from "./excerpts.ts";

afterAll(closeRenderer);

describe.each(databaseKinds)("stored excerpts with formulas (%s)", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.dispose());

  it("replaces the TeX source of excerpts stored before, once, and leaves other rows alone", async () => {
    const author = await createUser(database.db);
    const rendered = await renderMarkdown("Positional encoding: $PE_{(pos,2i)}=\\sin(pos)$ for every $\\mathrm{Attention}$ head.", {
      locale: "en",
    });
    const old = await createWriting(database.db, author, { language: "en", content: "plain" });
    // As the pipeline stored it before: the paragraph's text read while formulas were still TeX.
    await database.db
      .update(writings)
      .set({ html: rendered.html, excerpt: "Positional encoding: PE_{(pos,2i)}=\\sin(pos) for every \\mathrm{Attention} head." })
      .where(eq(writings.id, old.id));
    const plain = await createWriting(database.db, author, { content: "没有公式 $5 和 $6" });

    expect(await refreshFormulaExcerpts(database.db, 1)).toBe(1);
    const [row] = await database.db.select().from(writings).where(eq(writings.id, old.id));
    expect(row!.excerpt).toBe("Positional encoding: [formula] for every Attention head.");
    expect(row!.excerpt).toBe(rendered.excerpt);
    const [untouched] = await database.db.select().from(writings).where(eq(writings.id, plain.id));
    expect(untouched!.excerpt).toBe(plain.excerpt);
    expect(await refreshFormulaExcerpts(database.db)).toBe(0);
  });

  it("replaces excerpts stored with structured formulas flattened (a2+b2=c2) by the marker, once", async () => {
    const author = await createUser(database.db);
    const rendered = await renderMarkdown("勾股定理：$a^2+b^2=c^2$，证明如下。", { locale: "zh-CN" });
    const old = await createWriting(database.db, author, { content: "plain" });
    await database.db
      .update(writings)
      .set({ html: rendered.html, excerpt: "勾股定理：a2+b2=c2，证明如下。" })
      .where(eq(writings.id, old.id));
    expect(await refreshFormulaExcerpts(database.db)).toBe(1);
    const [row] = await database.db.select().from(writings).where(eq(writings.id, old.id));
    expect(row!.excerpt).toBe("勾股定理：[公式]，证明如下。");
    expect(await refreshFormulaExcerpts(database.db)).toBe(0);
  });
});

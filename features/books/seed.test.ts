import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestDatabase, type TestDatabase } from "../../tests/support/database.ts";
import { seedDemoUsers } from "../accounts/seed.ts";
import { bookChapters, books } from "../../server/db/schema/index.ts";
import { demoBook, seedDemoBook } from "./seed.ts";

describe("demo book", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
  });
  afterAll(() => database.dispose());

  it("writes one book with three rendered chapters, once however often seeding runs", async () => {
    await seedDemoUsers(database.db);
    await seedDemoBook(database.db);
    await seedDemoBook(database.db);
    const rows = await database.db.select().from(books).where(eq(books.name, demoBook.name));
    expect(rows).toHaveLength(1);
    const chapters = await database.db.select().from(bookChapters).where(eq(bookChapters.bookId, rows[0]!.id)).orderBy(bookChapters.number);
    expect(chapters.map((chapter) => [chapter.number, chapter.title])).toEqual(
      demoBook.chapters.map((chapter, index) => [index + 1, chapter.title]),
    );
    expect(chapters[0]!.html).toContain("katex");
    expect(chapters.every((chapter) => chapter.textLength > 20)).toBe(true);
  });
});

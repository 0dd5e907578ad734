import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../../tests/support/database.ts";
import { answers, questions } from "../../server/db/schema/index.ts";
import { seedDemoUsers } from "../accounts/seed.ts";
import { seedDemoQuestions } from "./seed.ts";

describe("demo questions", () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase("pglite");
    await seedDemoUsers(database.db);
  });
  afterAll(() => database.dispose());

  it("seeds an answered, accepted question with math and code and an open one in English, once", async () => {
    await seedDemoQuestions(database.db);
    const rows = await database.db.select().from(questions);
    expect(rows).toHaveLength(2);
    const answered = rows.find((row) => row.answerCount === 1)!;
    const [answer] = await database.db.select().from(answers);
    expect(answered.acceptedAnswerId).toBe(answer!.id);
    expect(answer!.html).toContain("katex");
    expect(answer!.html).toContain("shiki");
    expect(rows.find((row) => row.answerCount === 0)!.language).toBe("en");
    await seedDemoQuestions(database.db);
    expect(await database.db.select().from(questions)).toHaveLength(2);
  });
});

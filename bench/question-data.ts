import "../features/registrations.ts";
import { eq } from "drizzle-orm";
import { embeddedDataPath, openEmbeddedDatabase } from "../server/db/client.ts";
import { seed } from "../server/db/seed.ts";
import { answers, questions, unreadCounters, users } from "../server/db/schema/index.ts";
import { renderMarkdown } from "../features/content/render.server.ts";
import { titleWords } from "../features/questions/words.ts";
import { questionPath } from "../features/questions/paths.ts";

/**
 * The question page the benchmark measures (issue 22): a question in the global village with
 * 30 answers by 30 users (Markdown with a formula and code, rendered as when saved), the first
 * accepted. Written into the embedded store before the server opens it (one process at a time),
 * dated a month back so the home feed's newest cards stay the demo data (the article is found there).
 */
export async function prepareQuestionPage(dataDir: string, answerCount = 30): Promise<string> {
  const database = await openEmbeddedDatabase(embeddedDataPath(dataDir));
  try {
    await database.migrate();
    await seed(database);
    const { db } = database;
    const monthAgo = new Date(Date.now() - 30 * 24 * 3600 * 1000);
    const [asker] = await db.select({ id: users.id }).from(users).where(eq(users.username, "demo")).limit(1);
    const title = "如何高效地学习线性代数？";
    const description = "从哪本书开始，怎样做练习？\n\n$$Ax = b$$\n";
    const rendered = await renderMarkdown(description, { locale: "zh-CN" });
    const [question] = await db
      .insert(questions)
      .values({
        circleId: 1,
        authorId: asker!.id,
        publishedAt: monthAgo,
        title,
        titleWords: titleWords(title),
        markdown: description,
        html: rendered.html,
        excerpt: rendered.excerpt,
        textLength: rendered.textLength,
      })
      .returning();
    const ids: number[] = [];
    for (let index = 1; index <= answerCount; index += 1) {
      const [user] = await db
        .insert(users)
        .values({
          username: `bench_answerer_${index}`,
          email: `bench_answerer_${index}@example.com`,
          nickname: `答主 ${index}`,
          passwordHash: "!",
          gender: "secret",
          birthday: "1995-06-15",
          country: "CN",
        })
        .returning();
      await db.insert(unreadCounters).values({ userId: user!.id });
      const markdown = `第 ${index} 个回答：先读 Strang 的书，再做习题。\n\n$$\\det(A - \\lambda I) = 0$$\n\n\`\`\`python\nimport numpy as np\nprint(np.linalg.eig(np.eye(${index})))\n\`\`\`\n`;
      const rendered = await renderMarkdown(markdown, { locale: "zh-CN" });
      const [answer] = await db
        .insert(answers)
        .values({
          questionId: question!.id,
          authorId: user!.id,
          publishedAt: monthAgo,
          markdown,
          html: rendered.html,
          excerpt: rendered.excerpt,
          textLength: rendered.textLength,
        })
        .returning();
      ids.push(answer!.id);
    }
    await db
      .update(questions)
      .set({ answerCount, acceptedAnswerId: ids[0] ?? null })
      .where(eq(questions.id, question!.id));
    return questionPath(question!);
  } finally {
    await database.close();
  }
}

import { eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { answers, circles, questions, users } from "../../server/db/schema/index.ts";
import { presentViewer } from "../accounts/viewer.ts";
import { answerSchema, askQuestionSchema } from "./schema.ts";
import { answerQuestion, askQuestion, setAcceptedAnswer } from "./service.ts";

/** Demo questions of the embedded store: one answered and accepted (math, code), one waiting for answers. */
const demoQuestions = [
  {
    circle: "mathematics",
    asker: "demo",
    title: "勾股定理有哪些直观的证明？",
    content: "课本上的证明看懂了，但总觉得不够直观：为什么 $a^2 + b^2 = c^2$？\n",
    answer: {
      author: "creator",
      content:
        "最直观的是**面积拼补法**：把四个全等的直角三角形放进边长为 $a+b$ 的正方形，\n\n$$\n(a+b)^2 = 4 \\cdot \\frac{ab}{2} + c^2\n$$\n\n展开就是 $a^2 + b^2 = c^2$。也可以用程序找勾股数：\n\n```python\nprint([(a, b) for a in range(1, 20) for b in range(a, 20) if ((a*a + b*b) ** 0.5).is_integer()])\n```\n",
    },
  },
  { circle: "programming", asker: "creator", title: "How do I start learning Rust ownership?", content: "", language: "en" as const },
];

/**
 * Idempotent: nothing when the demo users are missing or have asked already. The questions and
 * their answer are dated a day back, so the home feed still opens with the demo writings and book.
 */
export async function seedDemoQuestions(db: Database): Promise<void> {
  const people = await db
    .select()
    .from(users)
    .where(inArray(sql`lower(${users.username})`, ["creator", "demo"]));
  const byName = new Map(people.map((user) => [user.username.toLowerCase(), user]));
  if (byName.size < 2) return;
  const [existing] = await db
    .select({ id: questions.id })
    .from(questions)
    .where(
      inArray(
        questions.authorId,
        people.map((user) => user.id),
      ),
    )
    .limit(1);
  if (existing) return;
  for (const demo of demoQuestions) {
    const [circle] = await db.select({ id: circles.id }).from(circles).where(eq(circles.slug, demo.circle)).limit(1);
    const asker = byName.get(demo.asker);
    if (!circle || !asker) continue;
    const askerViewer = presentViewer(asker);
    const asked = await askQuestion(
      { db },
      askerViewer,
      circle.id,
      askQuestionSchema.parse({ title: demo.title, content: demo.content, language: "language" in demo ? demo.language : "zh-CN" }),
    );
    const answerer = "answer" in demo && demo.answer ? byName.get(demo.answer.author) : undefined;
    if (!answerer || !("answer" in demo) || !demo.answer) continue;
    const answered = await answerQuestion({ db }, presentViewer(answerer), asked.id, answerSchema.parse({ content: demo.answer.content }));
    await setAcceptedAnswer({ db }, askerViewer, asked.id, answered.id);
  }
  const asked = await db
    .select({ id: questions.id })
    .from(questions)
    .where(
      inArray(
        questions.authorId,
        people.map((user) => user.id),
      ),
    );
  const ids = asked.map((row) => row.id);
  if (ids.length === 0) return;
  await db
    .update(questions)
    .set({ publishedAt: sql`${questions.publishedAt} - interval '1 day'` })
    .where(inArray(questions.id, ids));
  await db
    .update(answers)
    .set({ publishedAt: sql`${answers.publishedAt} - interval '1 day'` })
    .where(inArray(answers.questionId, ids));
}

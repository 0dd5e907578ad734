import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { books, circles, users } from "../../server/db/schema/index.ts";
import { presentViewer } from "../accounts/viewer.ts";
import { createBook } from "./service.ts";
import { addChapter } from "./chapters.ts";

/** The demo book of the embedded store: a short book in the Mathematics circle, three chapters with formulas. */
export const demoBook = {
  author: "creator",
  circleSlug: "mathematics",
  name: "无穷的故事",
  description: "从自然数出发，走过无穷级数，抵达康托尔的对角线论证：写给好奇者的三章小书。",
  chapters: [
    {
      title: "数不完的自然数",
      content:
        "## 从 1 数起\n\n孩子们最早认识的无穷，是“数不完”。无论写下多大的数 $n$，总还有 $n + 1$。\n\n## 两种无穷一样多吗？\n\n偶数似乎只有自然数的一半，可是配对 $n \\mapsto 2n$ 把它们一一对应起来：\n\n$$\n1 \\to 2,\\quad 2 \\to 4,\\quad 3 \\to 6,\\quad \\dots\n$$\n\n伽利略早已注意到这个悖论。",
    },
    {
      title: "加不完的级数",
      content:
        "## 芝诺的乌龟\n\n走完一半，再走剩下的一半……总路程是\n\n$$\n\\sum_{k=1}^{\\infty} \\frac{1}{2^k} = 1.\n$$\n\n## 调和级数\n\n而 $1 + \\tfrac12 + \\tfrac13 + \\cdots$ 却会无限增大，只是慢得惊人：前一百万项之和还不到 $15$。",
    },
    {
      title: "康托尔的对角线",
      content:
        "## 实数比自然数多\n\n假设 $(0, 1)$ 中的实数能排成一列 $r_1, r_2, r_3, \\dots$。构造一个数 $d$，让它的第 $k$ 位小数与 $r_k$ 的第 $k$ 位不同，那么 $d$ 不在这一列中。\n\n于是 $|\\mathbb{R}| > |\\mathbb{N}|$：无穷也有大小之分。\n\n> 数学的本质在于它的自由。——康托尔",
    },
  ],
} as const;

/**
 * Idempotent: the demo book is written once, through the same services as a real author (so its
 * events and rendered chapters are real). Needs the demo users and the circle tree first.
 */
export async function seedDemoBook(db: Database): Promise<void> {
  const [author] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = ${demoBook.author}`);
  const [circle] = await db.select({ id: circles.id }).from(circles).where(eq(circles.slug, demoBook.circleSlug));
  if (!author || !circle) return;
  const [existing] = await db
    .select({ id: books.id })
    .from(books)
    .where(and(eq(books.authorId, author.id), eq(books.name, demoBook.name)));
  if (existing) return;
  const viewer = presentViewer(author);
  const { id } = await createBook({ db }, viewer, circle.id, {
    name: demoBook.name,
    description: demoBook.description,
    categories: [],
    cover: null,
  });
  for (const chapter of demoBook.chapters)
    await addChapter({ db }, viewer, id, { title: chapter.title, content: chapter.content }, "zh-CN");
}

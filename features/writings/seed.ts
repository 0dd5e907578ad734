import { eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { circles, users, writings } from "../../server/db/schema/index.ts";
import { presentViewer } from "../accounts/viewer.ts";
import { createWritingSchema, type CreateWritingInput } from "./schema.ts";
import { createWriting } from "./service.ts";
import { demoEntryIds } from "../encyclopedia/seed.ts";

interface DemoWriting {
  author: "creator" | "demo";
  circle: string;
  input: Partial<CreateWritingInput> & { title: string; content: string };
  /** Another language version of this one. */
  translation?: { title: string; content: string; language: "zh-CN" | "en"; related?: string[] };
  /** Names of demo encyclopedia entries (features/encyclopedia/seed.ts) it relates to, when they exist. */
  related?: string[];
  /** Further parts (serialized articles). */
  parts?: { title: string; content: string }[];
}

const demoWritings: DemoWriting[] = [
  {
    author: "creator",
    circle: "mathematics",
    related: ["勾股定理", "欧几里得几何"],
    input: {
      title: "勾股定理的三种证明",
      kind: "popular_science",
      content: `## 定理\n\n直角三角形两条直角边的平方和等于斜边的平方：\n\n$$\na^2 + b^2 = c^2\n$$\n\n## 面积拼补法\n\n把四个全等的直角三角形拼进边长为 $a+b$ 的正方形，中间留下边长为 $c$ 的正方形：\n\n$$\n(a+b)^2 = 4 \\cdot \\frac{ab}{2} + c^2\n$$\n\n展开即得 $a^2 + b^2 = c^2$。\n\n## 相似三角形法\n\n作斜边上的高，得到两个与原三角形相似的小三角形，于是 $a^2 = c \\cdot p$，$b^2 = c \\cdot q$，相加得 $a^2 + b^2 = c(p+q) = c^2$。\n\n## 总统证法\n\n1876 年，后来成为美国总统的加菲尔德用一个直角梯形给出了证明：梯形面积 $\\frac{(a+b)^2}{2}$ 等于三个三角形面积之和。\n\n## 用程序验证\n\n勾股数可以用几行代码找出来：\n\n\`\`\`python\nfor a in range(1, 30):\n    for b in range(a, 30):\n        c = (a * a + b * b) ** 0.5\n        if c.is_integer():\n            print(a, b, int(c))\n\`\`\`\n`,
    },
    translation: {
      language: "en",
      related: ["Pythagorean theorem"],
      title: "Three proofs of the Pythagorean theorem",
      content: `## The theorem\n\nIn a right triangle the squares of the legs add up to the square of the hypotenuse:\n\n$$\na^2 + b^2 = c^2\n$$\n\n## Rearrangement\n\nPlace four copies of the triangle inside a square of side $a+b$; the hole in the middle is a square of side $c$:\n\n$$\n(a+b)^2 = 4 \\cdot \\frac{ab}{2} + c^2\n$$\n\n## Similar triangles\n\nThe altitude to the hypotenuse splits the triangle into two similar ones, so $a^2 = cp$ and $b^2 = cq$; adding them gives $c(p+q) = c^2$.\n\n## The president's proof\n\nIn 1876 James Garfield compared the area of a trapezoid, $\\frac{(a+b)^2}{2}$, with the three triangles inside it.\n\n## Checking it with a program\n\nA few lines find the Pythagorean triples:\n\n\`\`\`python\nfor a in range(1, 30):\n    for b in range(a, 30):\n        c = (a * a + b * b) ** 0.5\n        if c.is_integer():\n            print(a, b, int(c))\n\`\`\`\n`,
    },
  },
  {
    author: "creator",
    circle: "programming",
    related: ["Binary search"],
    input: {
      title: "Binary search without off-by-one errors",
      language: "en",
      kind: "professional",
      content: `## Keep one invariant\n\nEverything left of \`low\` is smaller than the target; everything from \`high\` on is not. The loop shrinks the gap until the two meet.\n\n\`\`\`ts\nexport function lowerBound(items: number[], target: number): number {\n  let low = 0;\n  let high = items.length;\n  while (low < high) {\n    const middle = low + ((high - low) >> 1);\n    if (items[middle]! < target) low = middle + 1;\n    else high = middle;\n  }\n  return low;\n}\n\`\`\`\n\n## Why it terminates\n\nEach step either raises \`low\` past \`middle\` or lowers \`high\` to \`middle\`, and \`middle < high\` always holds, so the gap shrinks every time.\n\n| Input | Target | Result |\n| --- | --- | --- |\n| [1, 3, 3, 7] | 3 | 1 |\n| [1, 3, 3, 7] | 4 | 3 |\n`,
    },
    translation: {
      language: "zh-CN",
      title: "不出差一错误的二分查找",
      content: `## 守住一个不变式\n\n\`low\` 左边的元素都小于目标，\`high\` 及其右边的都不小于目标；循环不断缩小两者之间的区间，直到相遇。\n\n\`\`\`ts\nexport function lowerBound(items: number[], target: number): number {\n  let low = 0;\n  let high = items.length;\n  while (low < high) {\n    const middle = low + ((high - low) >> 1);\n    if (items[middle]! < target) low = middle + 1;\n    else high = middle;\n  }\n  return low;\n}\n\`\`\`\n\n## 为什么一定会结束\n\n每一步要么把 \`low\` 移到 \`middle\` 之后，要么把 \`high\` 移到 \`middle\`，而 \`middle < high\` 始终成立，所以区间每次都会变小。\n`,
    },
  },
  {
    author: "demo",
    circle: "fiction",
    input: {
      title: "灯塔看守人（一）",
      type: "serial",
      content: `海岛上的灯塔已经亮了一百二十年。\n\n老周接手的那天，前任看守人只留下一本航海日志和一句话：“灯不能灭。”\n\n> 第一页写着：风从东南来的夜晚，要多添一次油。\n`,
    },
    parts: [
      {
        title: "灯塔看守人（二）",
        content: `第三个冬天，一艘没有名字的船在礁石外停了三夜。\n\n老周翻开日志，发现同样的事在四十年前也发生过。\n`,
      },
    ],
  },
  {
    author: "demo",
    circle: "global-village",
    input: { title: "大家好，我是新来的", type: "post", content: "刚加入地球村，喜欢数学和科幻小说。请多指教！" },
  },
  {
    author: "creator",
    circle: "artificial-intelligence",
    input: {
      title: "What are you reading about large language models this week?",
      type: "post",
      language: "en",
      content: "Share one paper or post that changed your mind, and why. I'll start: *Attention Is All You Need* still reads well.",
    },
  },
];

/**
 * A handful of real-looking writings on the embedded store, so a new user sees a living site:
 * both languages, one with math, one with code, a serialized article and posts. Idempotent: skipped
 * once the demo authors have written anything.
 */
export async function seedDemoWritings(db: Database): Promise<void> {
  const authors = await db
    .select()
    .from(users)
    .where(inArray(sql`lower(${users.username})`, ["creator", "demo"]));
  const byName = new Map(authors.map((user) => [user.username.toLowerCase(), user]));
  if (byName.size < 2) return;
  const [existing] = await db
    .select({ id: writings.id })
    .from(writings)
    .where(
      inArray(
        writings.authorId,
        authors.map((user) => user.id),
      ),
    )
    .limit(1);
  if (existing) return;
  for (const demo of demoWritings) {
    const [circle] = await db.select({ id: circles.id }).from(circles).where(eq(circles.slug, demo.circle)).limit(1);
    const author = byName.get(demo.author);
    if (!circle || !author) continue;
    const viewer = presentViewer(author);
    const first = await createWriting(
      { db },
      viewer,
      circle.id,
      createWritingSchema.parse({ ...demo.input, related_entries: await demoEntryIds(db, demo.related ?? []) }),
    );
    if (demo.translation) {
      const { related, ...translation } = demo.translation;
      await createWriting(
        { db },
        viewer,
        circle.id,
        createWritingSchema.parse({
          ...demo.input,
          ...translation,
          related_entries: await demoEntryIds(db, related ?? []),
          translation_of: first.id,
        }),
      );
    }
    let previous = first.id;
    for (const part of demo.parts ?? [])
      previous = (
        await createWriting({ db }, viewer, circle.id, createWritingSchema.parse({ ...demo.input, ...part, series_id: previous }))
      ).id;
  }
}

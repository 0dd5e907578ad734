import { and, eq, inArray, sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { circles, encyclopediaEntries, users } from "../../server/db/schema/index.ts";
import { presentViewer } from "../accounts/viewer.ts";
import { createEntrySchema, createVersionSchema, type EntryLanguage } from "./schema.ts";
import { addEntryVersion, createEntry } from "./editing.ts";

interface DemoEntry {
  circle: "mathematics" | "programming";
  name: string;
  language: EntryLanguage;
  aliases?: string[];
  disambiguation?: string;
  /** The name of an entry listed before this one. */
  parent?: string;
  /** The entry (listed before) this one is the other language version of. */
  versionOf?: string;
  description: string;
}

const demoEntries: DemoEntry[] = [
  {
    circle: "mathematics",
    name: "欧几里得几何",
    language: "zh-CN",
    aliases: ["欧氏几何"],
    description: "以欧几里得《几何原本》的五条公设为基础的几何学：过两点有且只有一条直线，平行公设成立，三角形内角和为 $\\pi$。",
  },
  {
    circle: "mathematics",
    name: "勾股定理",
    language: "zh-CN",
    aliases: ["毕达哥拉斯定理", "商高定理"],
    parent: "欧几里得几何",
    description:
      "直角三角形两条直角边的平方和等于斜边的平方：\n\n$$\na^2 + b^2 = c^2\n$$\n\n满足该式的正整数组 $(a, b, c)$ 称为**勾股数**，最小的一组是 $(3, 4, 5)$。《周髀算经》记有“勾三股四弦五”。",
  },
  {
    circle: "mathematics",
    name: "欧拉公式",
    language: "zh-CN",
    disambiguation: "复分析",
    aliases: ["欧拉恒等式"],
    description:
      "把指数函数与三角函数联系起来的公式：\n\n$$\ne^{i\\theta} = \\cos\\theta + i\\sin\\theta\n$$\n\n取 $\\theta = \\pi$ 得到欧拉恒等式 $e^{i\\pi} + 1 = 0$。",
  },
  {
    circle: "mathematics",
    name: "欧拉公式",
    language: "zh-CN",
    disambiguation: "多面体",
    aliases: ["欧拉示性数公式"],
    description: "凸多面体的顶点数 $V$、棱数 $E$ 与面数 $F$ 满足\n\n$$\nV - E + F = 2\n$$\n\n例如立方体：$8 - 12 + 6 = 2$。",
  },
  {
    circle: "mathematics",
    name: "Pythagorean theorem",
    language: "en",
    versionOf: "勾股定理",
    aliases: ["Pythagoras' theorem"],
    description:
      "In a right triangle, the square of the hypotenuse equals the sum of the squares of the legs:\n\n$$\na^2 + b^2 = c^2\n$$\n\nPositive integers satisfying it, such as $(3, 4, 5)$, are called *Pythagorean triples*.",
  },
  {
    circle: "mathematics",
    name: "Euler's formula",
    language: "en",
    versionOf: "欧拉公式",
    disambiguation: "complex analysis",
    description:
      "For every real $x$:\n\n$$\ne^{ix} = \\cos x + i \\sin x\n$$\n\nAt $x = \\pi$ it gives Euler's identity, $e^{i\\pi} + 1 = 0$.",
  },
  {
    circle: "programming",
    name: "递归",
    language: "zh-CN",
    aliases: ["递归函数", "递回"],
    description:
      "函数在定义中调用自身。每个递归都需要**基准情形**，否则永远不会结束：\n\n```python\ndef factorial(n):\n    return 1 if n == 0 else n * factorial(n - 1)\n```\n",
  },
  {
    circle: "programming",
    name: "Recursion",
    language: "en",
    versionOf: "递归",
    aliases: ["recursive function", "self-reference"],
    description:
      "A function that calls itself on a smaller input until it reaches a base case:\n\n```ts\nfunction sum(items: number[]): number {\n  return items.length === 0 ? 0 : items[0]! + sum(items.slice(1));\n}\n```\n",
  },
  {
    circle: "programming",
    name: "Binary search",
    language: "en",
    aliases: ["二分查找", "half-interval search"],
    description: "Finds a value in a sorted array by halving the range each step: $O(\\log n)$ comparisons instead of $O(n)$.",
  },
];

/**
 * A handful of real-looking entries on the embedded store (both languages, formulas, code, aliases,
 * a parent, one name told apart by disambiguation, English versions of Chinese entries), written through `createEntry` like a real
 * author's. Idempotent: skipped once the demo creator has any entry. Needs the demo users first.
 */
export async function seedDemoEntries(db: Database): Promise<void> {
  const [author] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.username}) = 'creator'`);
  if (!author) return;
  const [existing] = await db
    .select({ id: encyclopediaEntries.id })
    .from(encyclopediaEntries)
    .where(eq(encyclopediaEntries.creatorId, author.id))
    .limit(1);
  if (existing) return;
  const circleRows = await db
    .select({ id: circles.id, slug: circles.slug })
    .from(circles)
    .where(inArray(circles.slug, ["mathematics", "programming"]));
  const circleIds = new Map(circleRows.map((row) => [row.slug, row.id]));
  const viewer = presentViewer(author);
  const made = new Map<string, number>();
  for (const demo of demoEntries) {
    const circleId = circleIds.get(demo.circle);
    if (!circleId) continue;
    const versionOf = demo.versionOf && made.get(demo.versionOf);
    if (versionOf) {
      const version = createVersionSchema.parse({
        name: demo.name,
        language: demo.language,
        aliases: demo.aliases ?? [],
        disambiguation: demo.disambiguation ?? null,
        content: demo.description,
      });
      made.set(demo.name, (await addEntryVersion({ db }, viewer, versionOf, version)).id);
      continue;
    }
    const input = createEntrySchema.parse({
      name: demo.name,
      language: demo.language,
      aliases: demo.aliases ?? [],
      disambiguation: demo.disambiguation ?? null,
      parent_id: (demo.parent && made.get(demo.parent)) || null,
      content: demo.description,
    });
    const { id } = await createEntry({ db }, viewer, circleId, input);
    if (!made.has(demo.name)) made.set(demo.name, id);
  }
}

/** Ids of the demo creator's entries with these names (first of each name), for the demo writings. */
export async function demoEntryIds(db: Database, names: readonly string[]): Promise<number[]> {
  if (names.length === 0) return [];
  const rows = await db
    .select({ id: encyclopediaEntries.id, name: encyclopediaEntries.name })
    .from(encyclopediaEntries)
    .innerJoin(users, eq(users.id, encyclopediaEntries.creatorId))
    .where(and(sql`lower(${users.username}) = 'creator'`, inArray(encyclopediaEntries.name, [...names])))
    .orderBy(encyclopediaEntries.id);
  return names.flatMap((name) => rows.find((row) => row.name === name)?.id ?? []);
}

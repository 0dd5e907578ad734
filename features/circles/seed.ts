import { and, eq, inArray, isNull, like, notLike, or, sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { circleMembers, circles, users } from "../../server/db/schema/index.ts";
import type { CircleRole } from "./policy.ts";

interface SeedCircle {
  slug: string;
  parent: string | null;
  nameZh: string;
  nameEn: string;
  descriptionZh: string;
  descriptionEn: string;
}

/** The circle tree every installation starts with; circle 1 is the Global Village. */
export const seedCircles: SeedCircle[] = [
  {
    slug: "global-village",
    parent: null,
    nameZh: "地球村",
    nameEn: "Global Village",
    descriptionZh: "所有圈子的共同家园：在这里认识来自各个领域的人，分享知识与见闻。",
    descriptionEn: "The home of every circle: meet people from every field and share what you know.",
  },
  {
    slug: "mathematics",
    parent: "global-village",
    nameZh: "数学",
    nameEn: "Mathematics",
    descriptionZh: "从初等数学到前沿研究：定理、证明、习题与数学史。",
    descriptionEn: "From elementary mathematics to research: theorems, proofs, problems and history.",
  },
  {
    slug: "literature",
    parent: "global-village",
    nameZh: "文学",
    nameEn: "Literature",
    descriptionZh: "阅读与创作：诗歌、小说、散文和戏剧。",
    descriptionEn: "Reading and writing: poetry, fiction, prose and drama.",
  },
  {
    slug: "poetry",
    parent: "literature",
    nameZh: "诗歌",
    nameEn: "Poetry",
    descriptionZh: "古典诗词与现代诗，赏析与创作。",
    descriptionEn: "Classical and modern poetry, read closely and written anew.",
  },
  {
    slug: "fiction",
    parent: "literature",
    nameZh: "小说",
    nameEn: "Fiction",
    descriptionZh: "长篇、中篇与短篇小说，连载与评论。",
    descriptionEn: "Novels, novellas and short stories, serialized and reviewed.",
  },
  {
    slug: "prose",
    parent: "literature",
    nameZh: "散文",
    nameEn: "Prose",
    descriptionZh: "随笔、游记与杂文。",
    descriptionEn: "Essays, travel writing and sketches.",
  },
  {
    slug: "drama",
    parent: "literature",
    nameZh: "戏剧",
    nameEn: "Drama",
    descriptionZh: "剧本、戏曲与舞台艺术。",
    descriptionEn: "Plays, opera and the stage.",
  },
  {
    slug: "programming",
    parent: "global-village",
    nameZh: "编程",
    nameEn: "Programming",
    descriptionZh: "语言、算法、工程实践与开源项目。",
    descriptionEn: "Languages, algorithms, engineering practice and open source.",
  },
  {
    slug: "artificial-intelligence",
    parent: "global-village",
    nameZh: "人工智能",
    nameEn: "Artificial Intelligence",
    descriptionZh: "机器学习、深度学习、大模型及其应用与伦理。",
    descriptionEn: "Machine learning, deep learning, large models, their uses and their ethics.",
  },
  {
    slug: "cybersecurity",
    parent: "global-village",
    nameZh: "网络安全",
    nameEn: "Cybersecurity",
    descriptionZh: "攻防技术、密码学、安全工程与隐私保护。",
    descriptionEn: "Attack and defence, cryptography, security engineering and privacy.",
  },
  {
    slug: "statistics-probability",
    parent: "global-village",
    nameZh: "统计与概率",
    nameEn: "Statistics & Probability",
    descriptionZh: "概率论、统计推断、数据分析与实验设计。",
    descriptionEn: "Probability theory, statistical inference, data analysis and experiment design.",
  },
];

/**
 * Idempotent: existing circles (matched by slug) are left as their administrators made them, except
 * that a seeded circle whose logo is still the seed's own (or none, or an emoji from an older seed)
 * gets the current seed logo.
 */
export async function seedCircleTree(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    const [root, ...rest] = seedCircles;
    await tx
      .insert(circles)
      .values({
        id: 1,
        slug: root!.slug,
        parentId: null,
        nameZh: root!.nameZh,
        nameEn: root!.nameEn,
        descriptionZh: root!.descriptionZh,
        descriptionEn: root!.descriptionEn,
        logo: logoFor(root!.slug),
      })
      .onConflictDoNothing();
    await tx.execute(sql`select setval(pg_get_serial_sequence('circles', 'id'), greatest((select max(id) from circles), 1))`);
    const ids = new Map<string, number>();
    const existing = await tx.select({ id: circles.id, slug: circles.slug }).from(circles);
    for (const row of existing) if (row.slug) ids.set(row.slug, row.id);
    for (const circle of seedCircles) {
      if (!ids.has(circle.slug)) continue;
      const logo = logoFor(circle.slug);
      const seedsOwn = or(
        isNull(circles.logo),
        like(circles.logo, "/circle-logos/%"),
        and(notLike(circles.logo, "/%"), notLike(circles.logo, "https://%")),
      );
      await tx
        .update(circles)
        .set({ logo })
        .where(and(eq(circles.slug, circle.slug), sql`${circles.logo} is distinct from ${logo}`, seedsOwn));
    }
    for (const [position, circle] of rest.entries()) {
      if (ids.has(circle.slug)) continue;
      const parentId = circle.parent ? ids.get(circle.parent) : undefined;
      const [created] = await tx
        .insert(circles)
        .values({
          slug: circle.slug,
          parentId: parentId ?? 1,
          nameZh: circle.nameZh,
          nameEn: circle.nameEn,
          descriptionZh: circle.descriptionZh,
          descriptionEn: circle.descriptionEn,
          logo: logoFor(circle.slug),
          position,
        })
        .returning({ id: circles.id });
      ids.set(circle.slug, created!.id);
    }
  });
}

function logoFor(slug: string): string {
  return `/circle-logos/${slug}.svg`;
}

/**
 * Who belongs to the seeded circles on a demo site (usernames of `demoUsers`), so a new site shows
 * founders, administrators and members instead of "0 members": `creator` founded every seeded
 * circle; `demo` administers some, moderates one and is a member of the rest.
 */
export const demoMemberships: { username: string; role: CircleRole; circles: string[] | "all" }[] = [
  { username: "creator", role: "founder", circles: "all" },
  { username: "demo", role: "admin", circles: ["mathematics", "literature", "programming"] },
  { username: "demo", role: "master", circles: ["fiction"] },
  { username: "demo", role: "member", circles: ["global-village", "poetry", "artificial-intelligence", "statistics-probability"] },
];

/**
 * Seeds `demoMemberships` (embedded store only, after the demo users). Idempotent and respectful
 * of later changes: a circle that already has any member is left as its people made it, and a
 * seeded circle without a creator gets the founder as its creator.
 */
export async function seedDemoMemberships(db: Database): Promise<void> {
  const names = [...new Set(demoMemberships.map((entry) => entry.username))];
  const people = await db
    .select({ id: users.id, username: sql<string>`lower(${users.username})` })
    .from(users)
    .where(inArray(sql`lower(${users.username})`, names));
  const userIds = new Map(people.map((person) => [person.username, person.id]));
  if (userIds.size === 0) return;
  await db.transaction(async (tx) => {
    const seeded = await tx
      .select({ id: circles.id, slug: circles.slug, createdBy: circles.createdBy })
      .from(circles)
      .where(
        inArray(
          circles.slug,
          seedCircles.map((circle) => circle.slug),
        ),
      );
    const withMembers = new Set(
      (await tx.selectDistinct({ circleId: circleMembers.circleId }).from(circleMembers)).map((row) => row.circleId),
    );
    for (const circle of seeded) {
      if (withMembers.has(circle.id) || !circle.slug) continue;
      const rows = demoMemberships.flatMap((entry) => {
        const userId = userIds.get(entry.username);
        const applies = entry.circles === "all" || entry.circles.includes(circle.slug!);
        return userId !== undefined && applies ? [{ circleId: circle.id, userId, role: entry.role }] : [];
      });
      if (rows.length === 0) continue;
      await tx.insert(circleMembers).values(rows).onConflictDoNothing();
      const founder = rows.find((row) => row.role === "founder");
      if (founder && circle.createdBy === null)
        await tx.update(circles).set({ createdBy: founder.userId }).where(eq(circles.id, circle.id));
    }
  });
}

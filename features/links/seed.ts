import type { Database } from "../../server/db/client.ts";
import { friendLinks } from "../../server/db/schema/index.ts";
import type { LinkLanguage } from "./constants.ts";

/** Demo friend links of the embedded store: resources a knowledge community would point to, in both languages. */
const demoLinks: { name: string; url: string; description: string; language: LinkLanguage }[] = [
  { name: "维基百科", url: "https://zh.wikipedia.org/", description: "自由的百科全书", language: "zh-CN" },
  { name: "OI Wiki", url: "https://oi-wiki.org/", description: "编程竞赛知识整合站点", language: "zh-CN" },
  {
    name: "arXiv",
    url: "https://arxiv.org/",
    description: "Open-access preprints in physics, mathematics and computer science",
    language: "en",
  },
  {
    name: "MDN Web Docs",
    url: "https://developer.mozilla.org/",
    description: "Documenting web technologies / Web 技术文档",
    language: "both",
  },
  { name: "Project Gutenberg", url: "https://www.gutenberg.org/", description: "Free e-books of the public domain", language: "en" },
];

/** Idempotent: the demo links, approved, when no link exists yet (once staff curate their own, nothing is added). */
export async function seedDemoLinks(db: Database): Promise<void> {
  const [existing] = await db.select({ id: friendLinks.id }).from(friendLinks).limit(1);
  if (existing) return;
  const now = Date.now();
  await db.insert(friendLinks).values(
    demoLinks.map((link, index) => ({
      ...link,
      status: "approved" as const,
      // Listed in this order (approved first, first).
      reviewedAt: new Date(now - (demoLinks.length - index) * 1000),
    })),
  );
}

import { asc, eq, ilike, or } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { circles } from "../../server/db/schema/index.ts";
import type { Locale } from "../../common/locale.ts";

export type CircleRow = typeof circles.$inferSelect;

/** What leaves the server about a circle, in the viewer's language. */
export interface CircleView {
  id: number;
  parentId: number | null;
  name: string;
  description: string;
  logo: string | null;
  createdAt: string;
}

export interface CircleNode extends CircleView {
  children: CircleNode[];
}

export function presentCircle(row: CircleRow, locale: Locale): CircleView {
  return {
    id: row.id,
    parentId: row.parentId,
    name: locale === "en" ? row.nameEn : row.nameZh,
    description: locale === "en" ? row.descriptionEn : row.descriptionZh,
    logo: row.logo,
    createdAt: row.createdAt.toISOString(),
  };
}

async function allCircles(db: Database): Promise<CircleRow[]> {
  return db.select().from(circles).orderBy(asc(circles.position), asc(circles.id));
}

/** The whole tree from its roots. Circle visibility rules arrive with circle membership. */
export async function listCircleTree(db: Database, locale: Locale): Promise<CircleNode[]> {
  const rows = await allCircles(db);
  const nodes = new Map<number, CircleNode>(rows.map((row) => [row.id, { ...presentCircle(row, locale), children: [] }]));
  const roots: CircleNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parentId === null ? undefined : nodes.get(node.parentId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

export interface CirclePage {
  circle: CircleView;
  /** From the root down to the parent. */
  ancestors: CircleView[];
  children: (CircleView & { childCount: number })[];
}

export async function getCirclePage(db: Database, id: number, locale: Locale): Promise<CirclePage | null> {
  const rows = await allCircles(db);
  const byId = new Map(rows.map((row) => [row.id, row]));
  const row = byId.get(id);
  if (!row) return null;
  const ancestors: CircleView[] = [];
  for (let parent = row.parentId === null ? undefined : byId.get(row.parentId); parent; parent = parent.parentId === null ? undefined : byId.get(parent.parentId)) {
    ancestors.unshift(presentCircle(parent, locale));
  }
  const children = rows
    .filter((candidate) => candidate.parentId === id)
    .map((child) => ({ ...presentCircle(child, locale), childCount: rows.filter((r) => r.parentId === child.id).length }));
  return { circle: presentCircle(row, locale), ancestors, children };
}

/** Circles whose name or description, in either language, contains the query. */
export async function searchCircles(db: Database, query: string, locale: Locale, limit = 20): Promise<CircleView[]> {
  const pattern = `%${query.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  const rows = await db
    .select()
    .from(circles)
    .where(or(ilike(circles.nameZh, pattern), ilike(circles.nameEn, pattern), ilike(circles.descriptionZh, pattern), ilike(circles.descriptionEn, pattern)))
    .orderBy(asc(circles.position), asc(circles.id))
    .limit(limit);
  return rows.map((row) => presentCircle(row, locale));
}

export async function circleExists(db: Database, id: number): Promise<boolean> {
  const [row] = await db.select({ id: circles.id }).from(circles).where(eq(circles.id, id));
  return Boolean(row);
}

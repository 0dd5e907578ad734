import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../tests/support/database.ts";
import { circleMembers, circles, users } from "../../server/db/schema/index.ts";
import { seedDemoUsers } from "../accounts/seed.ts";
import { getCirclePage } from "./service.ts";
import { seedCircles, seedCircleTree, seedDemoMemberships } from "./seed.ts";

const publicDirectory = path.resolve(import.meta.dirname, "../../public");
const emoji = /\p{Extended_Pictographic}/u;

describe("seeded circle logos", () => {
  it.each(seedCircles.map((circle) => circle.slug))("%s is a drawn SVG that needs no font", (slug) => {
    const svg = readFileSync(path.join(publicDirectory, "circle-logos", `${slug}.svg`), "utf8");
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    // Text in an SVG depends on the visitor's fonts: an emoji or a Chinese character shows as a box without them.
    expect(svg).not.toMatch(/<text|<tspan/);
    expect(svg).not.toMatch(emoji);
  });
});

describe.each(databaseKinds)("circle seed on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(() => database.dispose());

  const logoOf = async (slug: string) =>
    (await database.db.select({ logo: circles.logo }).from(circles).where(eq(circles.slug, slug)))[0]?.logo;

  it("gives every seeded circle its SVG logo", async () => {
    const rows = await database.db.select({ slug: circles.slug, logo: circles.logo }).from(circles);
    expect(rows).toHaveLength(seedCircles.length);
    for (const row of rows) expect(row.logo).toBe(`/circle-logos/${row.slug}.svg`);
  });

  it("replaces an older seed's emoji or missing logo when it runs again, but keeps one an administrator chose", async () => {
    await database.db.update(circles).set({ logo: "🌏" }).where(eq(circles.slug, "global-village"));
    await database.db.update(circles).set({ logo: null }).where(eq(circles.slug, "poetry"));
    await database.db.update(circles).set({ logo: "/attach/own-logo" }).where(eq(circles.slug, "cybersecurity"));
    await database.db.update(circles).set({ nameEn: "Maths" }).where(eq(circles.slug, "mathematics"));
    await seedCircleTree(database.db);
    expect(await logoOf("global-village")).toBe("/circle-logos/global-village.svg");
    expect(await logoOf("poetry")).toBe("/circle-logos/poetry.svg");
    expect(await logoOf("cybersecurity")).toBe("/attach/own-logo");
    // Everything else stays as it was made, and no circle is added twice.
    const [mathematics] = await database.db.select().from(circles).where(eq(circles.slug, "mathematics"));
    expect(mathematics?.nameEn).toBe("Maths");
    expect(await database.db.$count(circles)).toBe(seedCircles.length);
  });

  it("seeds founders, administrators and members for the demo users, once", async () => {
    await seedDemoUsers(database.db);
    await seedDemoMemberships(database.db);
    const idOf = async (slug: string) => (await database.db.select({ id: circles.id }).from(circles).where(eq(circles.slug, slug)))[0]!.id;
    const mathematics = await getCirclePage(database.db, null, await idOf("mathematics"), "en");
    expect(mathematics!.counts.members).toBe(2);
    expect(mathematics!.staff.map((member) => [member.username, member.role])).toEqual([
      ["creator", "founder"],
      ["demo", "admin"],
    ]);
    const [creator] = await database.db.select({ id: users.id }).from(users).where(eq(users.username, "creator"));
    const [root] = await database.db.select({ createdBy: circles.createdBy }).from(circles).where(eq(circles.id, 1));
    expect(root!.createdBy).toBe(creator!.id);
    // Every seeded circle has its founder.
    const founders = await database.db.select().from(circleMembers).where(eq(circleMembers.role, "founder"));
    expect(founders).toHaveLength(seedCircles.length);
    // Running again adds nothing, and a circle whose people changed is left as they made it.
    const before = await database.db.$count(circleMembers);
    const poetry = await idOf("poetry");
    await database.db.delete(circleMembers).where(eq(circleMembers.circleId, poetry));
    await database.db.insert(circleMembers).values({ circleId: poetry, userId: creator!.id, role: "founder" });
    await seedDemoMemberships(database.db);
    expect(await database.db.$count(circleMembers)).toBe(before - 1);
  });
});

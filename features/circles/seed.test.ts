import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { createTestDatabase, databaseKinds, type TestDatabase } from "../../tests/support/database.ts";
import { circles } from "../../server/db/schema/index.ts";
import { seedCircles, seedCircleTree } from "./seed.ts";

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
});

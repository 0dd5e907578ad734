import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "playwright-core";
import { closeBrowser, launchBrowser, newVisitor, signedInVisitor } from "./browser.ts";

const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

beforeAll(launchBrowser);
afterAll(closeBrowser);

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical findings on the current page. */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: Violation[] }> } }).axe;
    return (await axe.run(document)).violations;
  });
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`);
}

describe("accessibility (axe-core, no serious or critical violation)", () => {
  const pages = ["/", "/en/circles", "/circles/3", "/en/login", "/register", "/en/search?q=math", "/about", "/en/help", "/en/no-such-page"];
  for (const colorScheme of ["light", "dark"] as const) {
    it.each(pages)(`%s (${colorScheme})`, async (path) => {
      // bypassCSP lets the test inject axe-core; the page itself runs under its real policy otherwise.
      const { context, page } = await newVisitor({ colorScheme, locale: path.startsWith("/en") ? "en" : "zh-CN", bypassCSP: true });
      await page.goto(path);
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    });
  }

  it("the signed-in header and account page", async () => {
    const { context, page } = await signedInVisitor({ bypassCSP: true });
    await page.goto("/");
    await page.getByTestId("avatar-menu").click();
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto("/account/home");
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});

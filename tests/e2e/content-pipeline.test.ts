import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostileCorpus } from "../../features/content/hostile-corpus.ts";
import { closeRenderer, renderMarkdown } from "../../features/content/render.server.ts";
import { baseURL, closeBrowser, launchBrowser, newVisitor } from "./browser.ts";

/** Pipeline output for the corpus, and the guide rendered once per language, before the clock runs. */
const documents: Array<{ name: string; html: string }> = [];
beforeAll(async () => {
  await launchBrowser();
  // One at a time: all at once, the last ones would wait for a worker past the renderer's start
  // limit on a busy machine and come back empty, though nothing is wrong with them.
  for (const { name, markdown } of hostileCorpus) {
    try {
      documents.push({ name, html: (await renderMarkdown(markdown)).html });
    } catch {
      documents.push({ name, html: "" });
    }
  }
  for (const path of ["/help/formatting", "/en/help/formatting"]) expect((await fetch(`${baseURL()}${path}`)).status).toBe(200);
}, 240_000);
afterAll(async () => {
  await closeBrowser();
  await closeRenderer();
});

const katexStylesheet = readFileSync(createRequire(import.meta.url).resolve("katex/dist/katex.min.css"), "utf8");

describe("rendered hostile content in Chromium", () => {
  it("runs no script, opens no dialog and loads nothing from elsewhere", async () => {
    expect(documents.filter((document) => document.html !== "").length).toBeGreaterThan(hostileCorpus.length - 3);
    // A page with no Content-Security-Policy: the pipeline's output alone must be harmless.
    const { context, page } = await newVisitor({ baseURL: undefined });
    const dialogs: string[] = [];
    const requests: string[] = [];
    page.on("dialog", (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on("request", (request) => {
      if (!request.url().startsWith("data:")) requests.push(request.url());
    });
    await page.addInitScript(() => {
      const flag = window as unknown as { __pwned?: boolean; pwn: () => void };
      flag.pwn = () => {
        flag.__pwned = true;
      };
    });
    for (const { name, html } of documents) {
      await page.setContent(`<!doctype html><html><head><style>${katexStylesheet}</style></head><body><main>${html}</main></body></html>`);
      // Give handlers their chance: hover, focus and animate every element, open every <details>.
      await page.evaluate(async () => {
        for (const element of Array.from(document.querySelectorAll("main *"))) {
          for (const type of ["mouseover", "mouseenter", "focus", "animationstart", "load", "error", "toggle"]) {
            element.dispatchEvent(new Event(type, { bubbles: true }));
          }
          if (element instanceof HTMLDetailsElement) element.open = true;
          if (element instanceof HTMLElement) element.focus();
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      });
      const state = await page.evaluate(() => ({
        pwned: ["boolean", "number", "string"].includes(typeof (window as unknown as Record<string, unknown>).__pwned),
        scriptLinks: Array.from(document.querySelectorAll("a[href]")).filter((link) =>
          /^(?:javascript|data|vbscript):/i.test((link as HTMLAnchorElement).protocol),
        ).length,
        frames: document.querySelectorAll("iframe, object, embed, frame").length,
        clobbered: typeof (window as unknown as Record<string, unknown>).__pwned === "object",
      }));
      expect(state, name).toEqual({ pwned: false, scriptLinks: 0, frames: 0, clobbered: false });
    }
    expect(dialogs).toEqual([]);
    expect(requests.filter((url) => url.includes("evil.example"))).toEqual([]);
    await context.close();
  }, 120_000);
});

describe("formatting guide", () => {
  it.each([
    { path: "/help/formatting", heading: "写作格式", locale: "zh-CN" },
    { path: "/en/help/formatting", heading: "Formatting", locale: "en" },
  ])("$path shows formulas in KaTeX's fonts under the site's Content-Security-Policy", async ({ path, heading, locale }) => {
    const { context, page } = await newVisitor({ locale });
    const violations: string[] = [];
    const fonts: Array<{ url: string; status: number }> = [];
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
    });
    page.on("response", (response) => {
      if (/\.woff2?$/.test(new URL(response.url()).pathname)) fonts.push({ url: response.url(), status: response.status() });
    });
    const response = await page.goto(path);
    expect(response?.headers()["content-security-policy"]).toContain("font-src 'self'");
    expect(await page.locator("h1").textContent()).toBe(heading);
    await page.evaluate(() => document.fonts.ready);
    expect(await page.evaluate(() => document.fonts.check("16px KaTeX_Main") && document.fonts.check("16px KaTeX_Math"))).toBe(true);
    expect(fonts.length).toBeGreaterThan(0);
    expect(fonts.every((font) => font.status === 200 && new URL(font.url).origin === new URL(page.url()).origin)).toBe(true);
    expect(violations).toEqual([]);
    // Display math is laid out by KaTeX's stylesheet: the fraction bar has a border, MathML stays hidden.
    expect(
      await page
        .locator(".katex-display .frac-line")
        .first()
        .evaluate((line) => getComputedStyle(line).borderBottomStyle),
    ).toBe("solid");
    expect(
      await page
        .locator(".katex-mathml")
        .first()
        .evaluate((mathml) => getComputedStyle(mathml).position),
    ).toBe("absolute");
    await context.close();
  });

  it("colours code for the light and the dark scheme", async () => {
    const colours: Record<string, string> = {};
    for (const colorScheme of ["light", "dark"] as const) {
      const { context, page } = await newVisitor({ colorScheme, locale: "en" });
      await page.goto("/en/help/formatting");
      const keyword = page.locator(".rendered-content .shiki span", { hasText: /^def$/ });
      colours[colorScheme] = await keyword.evaluate((span) => getComputedStyle(span).color);
      const background = await page.locator(".rendered-content pre.shiki").evaluate((pre) => getComputedStyle(pre).backgroundColor);
      expect(background).toBe(colorScheme === "light" ? "rgb(255, 255, 255)" : "rgb(36, 41, 46)");
      await context.close();
    }
    expect(colours).toEqual({ light: "rgb(215, 58, 73)", dark: "rgb(249, 117, 131)" });
  });

  it("lists the guide in the help centre", async () => {
    const { context, page } = await newVisitor();
    await page.goto("/help");
    await page.getByRole("link", { name: "写作格式说明（Markdown、公式与代码）" }).click();
    await page.waitForURL((url) => url.pathname === "/help/formatting");
    await expect.poll(() => page.locator(".rendered-content table").count()).toBe(1);
    await context.close();
  });
});

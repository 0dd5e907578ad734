import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { renderInThisThread } from "../features/content/pipeline.server.ts";
import { createTextGenerator, type TextGenerator } from "./scale-text.ts";

describe("the scale data's text generator", () => {
  let texts: TextGenerator;
  beforeAll(async () => {
    texts = await createTextGenerator(path.resolve(import.meta.dirname, ".."));
  });

  it("gives every index its own body, the same in every run", async () => {
    const bodies = Array.from({ length: 300 }, (_, index) => texts.body(index).markdown);
    expect(new Set(bodies).size).toBe(300);
    expect(texts.body(42).markdown).toBe(bodies[42]);
    expect((await createTextGenerator(path.resolve(import.meta.dirname, ".."))).body(42).html).toBe(texts.body(42).html);
  });

  it("writes what the real pipeline would: the same headings, ids, length and reading time", async () => {
    // A long body (headings, a formula or code) in each language.
    for (const language of ["zh-CN", "en"] as const) {
      const index = Array.from({ length: 400 }, (_, i) => i).find((i) => texts.body(i, { language }).toc.length >= 2)!;
      const body = texts.body(index, { language });
      const rendered = await renderInThisThread(body.markdown, { locale: language, excerptLength: 140 });
      expect(body.toc).toEqual(rendered.toc);
      expect(body.textLength).toBe(rendered.textLength);
      expect(body.readingMinutes).toBe(rendered.readingMinutes);
    }
  });

  it("draws words by frequency: the commonest Chinese words fill far more of the text than rare ones", () => {
    const text = Array.from({ length: 200 }, (_, index) => texts.body(index, { language: "zh-CN" }).markdown).join("");
    const count = (word: string) => text.split(word).length - 1;
    expect(count("的")).toBeGreaterThan(50);
    expect(texts.vocabularySizes.zh).toBe(40_000);
    expect(texts.vocabularySizes.en).toBeGreaterThan(1000);
  });
});

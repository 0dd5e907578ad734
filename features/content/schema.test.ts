import { describe, expect, it } from "vitest";
import { markdownLimits, markdownSchema, utf8ByteLength } from "./schema.ts";
import { countTextLength, estimateReadingMinutes, makeExcerpt } from "./text-stats.ts";

describe("markdown limits", () => {
  it("measures UTF-8 bytes like the encoder does", () => {
    for (const text of ["", "abc", "中文", "é", "𝔸 emoji 😀", "\ud800 lone surrogate"]) {
      expect(utf8ByteLength(text), text).toBe(new TextEncoder().encode(text).length);
    }
  });

  it("accepts a document up to its kind's size and names the limit it broke", () => {
    const document = markdownSchema("document");
    expect(document.safeParse("中".repeat(Math.floor(markdownLimits.document / 3))).success).toBe(true);
    expect(document.safeParse("中".repeat(Math.floor(markdownLimits.document / 3) + 1)).error?.issues[0]?.message).toBe(
      "validation:content_too_long_document",
    );
    expect(markdownSchema("comment").safeParse("x".repeat(10 * 1024 + 1)).error?.issues[0]?.message).toBe(
      "validation:content_too_long_comment",
    );
    expect(document.safeParse(" \n\t ").error?.issues[0]?.message).toBe("validation:content_required");
    expect(document.safeParse(42).error?.issues[0]?.message).toBe("validation:content_required");
  });
});

describe("text statistics", () => {
  it("counts code points without whitespace", () => {
    expect(countTextLength("Hello, 世界")).toBe(8);
    expect(countTextLength("  𝔸😀 \n\t")).toBe(2);
  });

  it("estimates reading time from CJK characters and words", () => {
    expect(estimateReadingMinutes("")).toBe(0);
    expect(estimateReadingMinutes("一")).toBe(1);
    expect(estimateReadingMinutes("字".repeat(401))).toBe(2);
    expect(estimateReadingMinutes("don't stop-motion 3.14 ".repeat(100))).toBe(2);
  });

  it("cuts excerpts on code points and marks the cut", () => {
    expect(makeExcerpt("  a\n\nb  ", 10)).toBe("a b");
    expect(makeExcerpt("😀".repeat(5), 3)).toBe("😀😀😀…");
  });
});

import { describe, expect, it } from "vitest";
import { isMultiLine, isSingleLine } from "./single-line.ts";

describe("single-line text", () => {
  it("counts the line and paragraph separators as line breaks", () => {
    for (const separator of ["\n", "\r", "\u2028", "\u2029"]) {
      expect(isSingleLine(`one${separator}two`)).toBe(false);
      expect(isMultiLine(`one${separator}two`)).toBe(true);
    }
    expect(isSingleLine("一行 text")).toBe(true);
    expect(isMultiLine("one\u0007two")).toBe(false);
  });
});

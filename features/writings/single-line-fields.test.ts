import { describe, expect, it } from "vitest";
import { titleSchema, summarySchema } from "./schema.ts";
import { circleNameSchema } from "../circles/schema.ts";
import { bookNameSchema, chapterTitleSchema } from "../books/schema.ts";
import { profileFields } from "../profiles/schema.ts";

/** Issue 39: U+2028 and U+2029 reached the RIS export's one-line `TI` tag through a title. */
describe("single-line fields", () => {
  it("refuse the line and paragraph separators wherever a newline is refused", () => {
    for (const separator of ["\n", "\r", "\u2028", "\u2029"])
      for (const schema of [
        titleSchema,
        circleNameSchema,
        bookNameSchema,
        chapterTitleSchema,
        profileFields.nickname,
        profileFields.school,
      ])
        expect(schema.safeParse(`one${separator}two`).success).toBe(false);
    expect(titleSchema.safeParse("一行 text").success).toBe(true);
  });

  it("fold them into spaces in a summary, as newlines are", () => {
    expect(summarySchema.parse("one\u2028two\u2029three")).toBe("one two three");
  });
});

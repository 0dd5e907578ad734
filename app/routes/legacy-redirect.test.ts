import { describe, expect, it } from "vitest";
import { legacyTarget } from "./legacy-redirect.tsx";

describe("legacy addresses", () => {
  it.each([
    ["/wiki/details/12", "/circles/1/encyclopedia/12"],
    ["/wiki/details/12/en", "/circles/1/encyclopedia/12/en"],
    ["/wiki/details/12/zh-CN", "/circles/1/encyclopedia/12/zh-CN"],
    ["/wiki/details/12/fr", "invalid"],
    ["/books/3", "/circles/1/books/3"],
    ["/books/3/chapters/9", "/circles/1/books/3/chapters/9"],
    ["/community/posts/5", "/circles/1/posts/5"],
    ["/community/questions/6", "/circles/1/questions/6"],
    ["/writing/7", "/circles/1/writing/7"],
    ["/writing/7/en", "/circles/1/writing/7/en"],
    ["/writings/7", "/circles/1/writing/7"],
    ["/writings/7/de", "invalid"],
    ["/community", "/circles"],
    ["/community/circles", "/circles"],
    ["/books/abc", null],
  ])("%s → %s", (path, target) => {
    expect(legacyTarget(path)).toBe(target);
  });
});

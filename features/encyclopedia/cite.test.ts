import { describe, expect, it } from "vitest";
import { citeRevision } from "./cite.ts";

describe("citing an entry's revision", () => {
  const cited = {
    entryId: 7,
    revisionId: 42,
    title: "Pythagorean theorem (geometry)",
    language: "en" as const,
    site: "Circles Encyclopedia",
    savedAt: new Date("2026-11-25T18:30:00Z"), // 26 November in Asia/Shanghai
    url: "https://circles.example/en/circles/1/encyclopedia/7?revision=42",
    accessed: new Date("2026-11-27T02:00:00Z"),
  };

  it("gives GB/T 7714-2015, APA 7, MLA 9, BibTeX and RIS, each pinned to the revision's address", () => {
    const styles = citeRevision(cited);
    expect(styles.gbt7714).toBe(
      "Pythagorean theorem (geometry)[EB/OL]. Circles Encyclopedia, (2026-11-26)[2026-11-27]. https://circles.example/en/circles/1/encyclopedia/7?revision=42.",
    );
    expect(styles.apa).toBe(
      "Pythagorean theorem (geometry). (2026, November 26). In Circles Encyclopedia. https://circles.example/en/circles/1/encyclopedia/7?revision=42",
    );
    expect(styles.mla).toBe(
      "“Pythagorean theorem (geometry).” Circles Encyclopedia, 26 Nov. 2026, circles.example/en/circles/1/encyclopedia/7?revision=42. Accessed 27 Nov. 2026.",
    );
    expect(styles.bibtex).toContain("@misc{entry7rev42,");
    expect(styles.bibtex).toContain("url = {https://circles.example/en/circles/1/encyclopedia/7?revision=42},");
    expect(styles.bibtex).toContain("month = nov,");
    expect(styles.ris.split("\n")).toEqual(
      expect.arrayContaining([
        "TY  - ELEC",
        "DA  - 2026/11/26",
        "UR  - https://circles.example/en/circles/1/encyclopedia/7?revision=42",
        "ER  - ",
      ]),
    );
  });

  it("escapes what BibTeX reads as commands in a title", () => {
    expect(citeRevision({ ...cited, title: "50% {odd} & C_n" }).bibtex).toContain("title = {50\\% \\{odd\\} \\& C\\_n},");
  });
});

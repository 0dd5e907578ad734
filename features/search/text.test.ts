import { describe, expect, it } from "vitest";
import { foldText, indexTokens, learnWords, pinyinKeys, segment } from "./text.ts";
import { highlight, prepareQuery, suggestionQuery } from "./query.ts";

/** Segmentation and folding, the same at index and query time (issue 25). */
describe("search text", () => {
  it("keeps names whole and indexes their fine pieces: 令狐冲, 中华人民共和国", () => {
    expect(segment("令狐冲是华山派弟子").coarse).toEqual(["令狐冲", "是", "华山派", "弟子"]);
    expect(indexTokens("中华人民共和国")).toEqual(expect.arrayContaining(["中华人民共和国", "人民", "共和国"]));
  });

  it("folds traditional to simplified at index and query time: 數學 → 数学", () => {
    expect(foldText("數學分析")).toBe("数学分析");
    expect(prepareQuery("數學").words).toEqual(indexTokens("数学"));
  });

  it("segments mixed Chinese and English, stems English, keeps C++ and C# whole", () => {
    expect(segment("我喜欢C++和C#以及Python programming").coarse).toEqual(["我", "喜欢", "c++", "和", "c#", "以及", "python", "program"]);
  });

  it("splits a formula into its symbols the same way in text and query", () => {
    const tokens = indexTokens("质能方程 E=mc^2 很有名");
    for (const word of prepareQuery("E=mc^2").words) expect(tokens).toContain(word);
  });

  it("learns new words (circle and entry names) so they stay one word", () => {
    expect(segment("小明同学圈活动").coarse).not.toContain("小明同学圈");
    learnWords(["小明同學圈"]);
    expect(segment("小明同学圈活动").coarse).toEqual(["小明同学圈", "活动"]);
  });

  it("gives full pinyin and initials of names only when they are Chinese", () => {
    expect(pinyinKeys("数学")).toEqual(["shuxue", "sx"]);
    expect(pinyinKeys("Mathematics")).toEqual([]);
  });

  it("turns hostile text into a safe query or none", () => {
    expect(prepareQuery("&|!():*").tsquery).toBeNull();
    expect(prepareQuery("a' | b:* & !c").tsquery).toBe("'a' & 'b' & 'c'");
    expect(prepareQuery("x".repeat(5000)).words.length).toBeLessThanOrEqual(1);
    expect(suggestionQuery("shux")).toBe("'shux':*AB");
  });

  it("marks matched words in an escaped snippet", () => {
    const marks = prepareQuery("数学 programming").marks;
    expect(highlight("<b>数学</b> & Programming", marks)).toBe("&#60;b&#62;<mark>数学</mark>&#60;/b&#62; &#38; <mark>Programming</mark>");
  });
});

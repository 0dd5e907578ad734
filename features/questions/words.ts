/**
 * The words a question title is matched by (similar questions): Chinese words from
 * `Intl.Segmenter` (common words come out as two characters; a longer word also gives its
 * two-character pieces, so 线性代数 meets 代数), English words lower-cased, and neither single
 * characters nor the words every question shares (how, what, 如何, 什么). A real segmenter
 * (`@node-rs/jieba`, the search issue) can replace this file without touching its callers.
 */
const segmenter = new Intl.Segmenter("zh", { granularity: "word" });

const han = /\p{Script=Han}/u;

const stopWords = new Set([
  // English function words and question words.
  ..."a an the and or but of to in on at for with by from as is are was were be been being do does did how what why when where which who whom whose can could should would will shall may might must i me my we our you your he she it its they them their this that these those there here not no yes if then than so about into over under up down out any some all more most very just also get got have has had".split(
    " ",
  ),
  // Chinese question words and fillers every question has.
  ..."如何 怎么 怎样 什么 为什么 为何 哪些 哪个 是否 可以 能否 有没有 有什么 请问 一下 一个 一些 我们 你们 他们 自己 这个 那个 这些 那些 还是 或者 以及 应该 需要 知道 问题".split(
    " ",
  ),
]);

/** The distinct match words of a text, in order of appearance, at most `limit`. */
export function titleWords(text: string, limit = 32): string[] {
  const words = new Set<string>();
  for (const { segment, isWordLike } of segmenter.segment(text.normalize("NFKC"))) {
    if (!isWordLike) continue;
    const word = segment.toLowerCase();
    if (han.test(word)) {
      const chars = [...word];
      if (chars.length < 2) continue;
      if (!stopWords.has(word)) words.add(word);
      if (chars.length > 2)
        for (let index = 0; index + 2 <= chars.length; index += 1) addWord(words, chars.slice(index, index + 2).join(""));
    } else {
      if ([...word].length < 2 || /^\d+$/.test(word)) continue;
      addWord(words, word);
    }
    if (words.size >= limit) break;
  }
  return [...words].slice(0, limit);
}

function addWord(words: Set<string>, word: string): void {
  if (!stopWords.has(word)) words.add(word);
}

/**
 * Length, reading time and excerpt of a document's plain text.
 *
 * Length: the number of Unicode code points of the visible text, whitespace excluded. So every
 * Chinese character counts one, and so does every Latin letter, digit or punctuation mark
 * ("Hello, 世界" is 8). Formulas count their TeX source and code blocks their code.
 *
 * Reading time: 400 CJK characters or 200 words of other scripts a minute, rounded up; at least
 * one minute for any text, zero for none.
 */

export const cjkCharactersPerMinute = 400;
export const wordsPerMinute = 200;

/** Han ideographs, kana, Hangul and CJK punctuation: read one character at a time. */
const cjkCharacter = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/gu;
const word = /[\p{L}\p{N}]+(?:['’.-][\p{L}\p{N}]+)*/gu;

export function countTextLength(text: string): number {
  let count = 0;
  for (const character of text) if (!/\s/u.test(character)) count += 1;
  return count;
}

export function estimateReadingMinutes(text: string): number {
  const cjk = text.match(cjkCharacter)?.length ?? 0;
  const words = text.replace(cjkCharacter, " ").match(word)?.length ?? 0;
  if (cjk === 0 && words === 0) return 0;
  return Math.max(1, Math.ceil(cjk / cjkCharactersPerMinute + words / wordsPerMinute));
}

/** The first `length` code points of the text with whitespace collapsed, with "…" when cut. */
export function makeExcerpt(text: string, length: number): string {
  const collapsed = text.replace(/\s+/g, " ").trim();
  const characters = Array.from(collapsed);
  if (characters.length <= length) return collapsed;
  return characters.slice(0, length).join("").trimEnd() + "…";
}

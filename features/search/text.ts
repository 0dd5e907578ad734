import { Jieba } from "@node-rs/jieba";
import { dict } from "@node-rs/jieba/dict.js";
import * as OpenCC from "opencc-js";
import { pinyin } from "pinyin-pro";
import { stemmer } from "stemmer";
import { countInstance } from "../../server/lib/single-instance.ts";

/**
 * The text side of search, the same at index and query time: folding (NFKC, traditional to
 * simplified Chinese, lower case), words from the jieba dictionary segmenter (coarse words and
 * their fine search pieces, both kept for recall), English words stemmed, and pinyin of names.
 */
countInstance("search/text");

const jieba = Jieba.withDict(dict);
const toSimplified = OpenCC.Converter({ from: "t", to: "cn" });
const learned = new Set<string>();

const cjk = /\p{Script=Han}/u;
const latinWord = /^[\p{Script=Latin}]+$/u;
/** Programming names whose symbols are the point (`C++`, `C#`, `F#`): kept whole before segmentation. */
const symbolNames = /(?<![\p{L}\p{N}])([\p{L}][\p{L}\p{N}]*(?:\+\+|#))(?![\p{L}\p{N}])/gu;
/** What a token is made of: letters, digits and (inside symbol names) `+`/`#`. */
const meaningful = /[\p{L}\p{N}]/u;

/** NFKC, traditional → simplified, lower case, no NUL or control characters. */
export function foldText(text: string): string {
  const cleaned = text.normalize("NFKC").replace(/\p{Cc}/gu, " ");
  return toSimplified(cleaned).toLowerCase();
}

/** Teaches the segmenter names (circle names, entry names and aliases) so they stay one word. */
export function learnWords(words: Iterable<string>): void {
  const lines: string[] = [];
  for (const raw of words) {
    const word = foldText(raw).trim();
    if (word.length < 2 || word.length > 30 || /\s/.test(word) || !cjk.test(word) || learned.has(word)) continue;
    learned.add(word);
    lines.push(`${word} 100000`);
  }
  if (lines.length > 0) jieba.loadDict(Buffer.from(lines.join("\n")));
}

function normalizeToken(token: string): string | null {
  const trimmed = token.trim();
  if (!trimmed || !meaningful.test(trimmed)) return null;
  if (trimmed.length > 60) return null;
  if (latinWord.test(trimmed)) return stemmer(trimmed);
  return trimmed;
}

export interface Segments {
  /** The coarse words in order (jieba's precise mode), stemmed. */
  coarse: string[];
  /** For each coarse word, its fine pieces (search mode) when they differ from the word itself. */
  fine: string[][];
}

/** Segments folded text into coarse words with their fine pieces. */
export function segment(text: string): Segments {
  const folded = foldText(text);
  const coarse: string[] = [];
  const fine: string[][] = [];
  const push = (word: string) => {
    const token = normalizeToken(word);
    if (!token) return;
    coarse.push(token);
    const pieces = cjk.test(token) && token.length > 2 ? jieba.cutForSearch(token, true).map(normalizeToken) : [];
    fine.push([...new Set(pieces.filter((piece): piece is string => piece !== null && piece !== token))]);
  };
  let last = 0;
  for (const match of folded.matchAll(symbolNames)) {
    for (const word of jieba.cut(folded.slice(last, match.index), true)) push(word);
    push(match[1]!);
    last = match.index + match[0].length;
  }
  for (const word of jieba.cut(folded.slice(last), true)) push(word);
  return { coarse, fine };
}

/** Every token of a text, coarse and fine, for the index. */
export function indexTokens(text: string): string[] {
  const { coarse, fine } = segment(text);
  const tokens: string[] = [];
  coarse.forEach((word, index) => tokens.push(word, ...fine[index]!));
  return tokens;
}

/** The single Chinese characters of a name or title (so one-character queries find titles). */
export function characterTokens(text: string): string[] {
  return [...new Set([...foldText(text)].filter((character) => cjk.test(character)))];
}

/** Full pinyin and initials of a name (`数学` → `shuxue`, `sx`), letters only; empty without Chinese. */
export function pinyinKeys(text: string): string[] {
  const folded = foldText(text);
  if (!cjk.test(folded)) return [];
  const syllables = pinyin(folded, { toneType: "none", type: "array", nonZh: "consecutive" })
    .map((syllable) => syllable.replace(/[^a-z0-9]/g, ""))
    .filter(Boolean);
  return [syllables.join(""), syllables.map((syllable) => syllable[0]).join("")];
}

/** A PostgreSQL tsvector literal from weighted token lists (weights A–D), positions in order. */
export function tsvectorLiteral(parts: { tokens: string[]; weight: "A" | "B" | "C" | "D" }[]): string {
  const lexemes = new Map<string, string[]>();
  let position = 0;
  for (const part of parts) {
    for (const token of part.tokens) {
      position = Math.min(position + 1, 16383);
      const positions = lexemes.get(token) ?? [];
      if (positions.length < 64) positions.push(`${position}${part.weight}`);
      lexemes.set(token, positions);
    }
  }
  return [...lexemes].map(([lexeme, positions]) => `${quoteLexeme(lexeme)}:${positions.join(",")}`).join(" ");
}

/** A lexeme quoted for tsvector and tsquery input: any character is literal inside the quotes. */
export function quoteLexeme(lexeme: string): string {
  return `'${lexeme.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`;
}

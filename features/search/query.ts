import { foldText, quoteLexeme, segment } from "./text.ts";

/** At most this many words of a query are searched (the rest is ignored, never an error). */
const maxWords = 12;
export const maxQueryLength = 200;

/** A query made ready: the folded text, its tsquery (null when it has no words) and the words to mark. */
export interface PreparedQuery {
  folded: string;
  words: string[];
  /** Each word's alternatives: itself, its fine pieces together, and its synonyms (entry aliases). */
  tsquery: string | null;
  marks: string[];
}

/** Removes what no search needs and keeps any text harmless: NUL, controls, excess length. */
export function cleanQuery(raw: string): string {
  return raw
    .replace(/\p{Cc}/gu, " ")
    .trim()
    .slice(0, maxQueryLength);
}

function allOf(tokens: string[], suffix = ""): string {
  const unique = [...new Set(tokens)];
  return unique.length === 1
    ? `${quoteLexeme(unique[0]!)}${suffix}`
    : `(${unique.map((token) => quoteLexeme(token) + suffix).join(" & ")})`;
}

/**
 * The tsquery of a query: every coarse word must match (as itself, as all of its fine pieces, or
 * as one of its synonyms). `synonyms` are sets of folded names (an entry's name and aliases) that
 * any of the query's words or the whole query belongs to.
 */
export function prepareQuery(raw: string, synonymSets: string[][] = []): PreparedQuery {
  const folded = foldText(cleanQuery(raw)).trim();
  const { coarse, fine } = segment(folded);
  const words = coarse.slice(0, maxWords);
  const unstemmed = latinWordsOf(folded);
  const marks = new Set<string>();
  const synonymsOf = (text: string) => synonymSets.filter((set) => set.includes(text)).flat();
  const alternatives = (word: string, pieces: string[]) => {
    const options = [quoteLexeme(word)];
    if (pieces.length > 1) options.push(allOf(pieces));
    // What the suggestions find, the results find too: a Latin word as the start of a name's or
    // title's word or pinyin (`shuxue`, `gougu` → 勾股定理), weights A and B only, never the body;
    // from two letters (one letter would start half the titles).
    const typed = unstemmed.get(word);
    if (typed && typed.length > 1) options.push(`${quoteLexeme(typed)}:*AB`);
    for (const synonym of synonymsOf(word)) {
      const tokens = segment(synonym).coarse;
      if (tokens.length > 0 && synonym !== word) options.push(allOf(tokens));
      marks.add(synonym);
    }
    return options.length === 1 ? options[0]! : `(${options.join(" | ")})`;
  };
  const clauses = words.map((word, index) => {
    marks.add(word);
    for (const piece of fine[index] ?? []) marks.add(piece);
    return alternatives(word, fine[index] ?? []);
  });
  let tsquery = clauses.length > 0 ? clauses.join(" & ") : null;
  const whole = words.length > 1 ? synonymsOf(folded).filter((synonym) => synonym !== folded) : [];
  if (tsquery && whole.length > 0) {
    const options = whole.map((synonym) => segment(synonym).coarse).filter((tokens) => tokens.length > 0);
    for (const synonym of whole) marks.add(synonym);
    tsquery = `(${tsquery}) | ${options.map((tokens) => allOf(tokens)).join(" | ")}`;
  }
  return { folded, words, tsquery, marks: [...marks] };
}

const latinRun = /[\p{Script=Latin}]+/gu;

/** The query's Latin words as typed (folded, not stemmed), by their stem: `shuxue` for `shuxu`. */
function latinWordsOf(folded: string): Map<string, string> {
  const typed = new Map<string, string>();
  for (const [run] of folded.matchAll(latinRun)) {
    const stem = segment(run).coarse[0];
    if (stem && !typed.has(stem)) typed.set(stem, run);
  }
  return typed;
}

/** The suggestion tsquery: the words so far in names and pinyin (weights A and B), the last one as a prefix. */
export function suggestionQuery(raw: string): string | null {
  const words = segment(foldText(cleanQuery(raw))).coarse.slice(0, maxWords);
  if (words.length === 0) return null;
  return words.map((word, index) => `${quoteLexeme(word)}:${index === words.length - 1 ? "*" : ""}AB`).join(" & ");
}

const latin = /^[\p{Script=Latin}\p{N}]+$/u;

/**
 * A snippet of `text` around the first marked word: HTML-escaped, the marked words in `<mark>`.
 * Latin words match from their stem to the end of the word (`program` marks `programming`).
 */
export function highlight(text: string, marks: string[], length = 160): string {
  const patterns = [...new Set(marks.filter((mark) => mark.length > 0))]
    .sort((a, b) => b.length - a.length)
    .map((mark) => escapeRegExp(mark) + (latin.test(mark) ? "[\\p{L}\\p{N}]*" : ""));
  const folded = foldText(text);
  // Matching runs on the folded text (simplified, lower case) and marks the same places in the original.
  const source = folded.length === text.length ? folded : text;
  const matcher = patterns.length > 0 ? new RegExp(patterns.join("|"), "giu") : null;
  const first = matcher ? source.search(matcher) : -1;
  const start = first > 40 ? first - 40 : 0;
  const end = Math.min(text.length, start + length);
  const ranges: [number, number][] = [];
  if (matcher) {
    matcher.lastIndex = 0;
    for (const match of source.slice(start, end).matchAll(matcher)) {
      if (match[0].length === 0) continue;
      ranges.push([start + match.index, start + match.index + match[0].length]);
    }
  }
  let html = start > 0 ? "…" : "";
  let at = start;
  for (const [from, to] of ranges) {
    html += escapeHtml(text.slice(at, from)) + `<mark>${escapeHtml(text.slice(from, Math.min(to, end)))}</mark>`;
    at = Math.min(to, end);
  }
  html += escapeHtml(text.slice(at, end)) + (end < text.length ? "…" : "");
  return html;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

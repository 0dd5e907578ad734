import escapeHtml from "escape-html";
import { renderMarkdown } from "../content/render.server.ts";
import { parseCitation, type CitedItem } from "./citations.ts";
import type { EntrySnapshot } from "./revision-text.ts";
import type { StoredReference as EntryReference } from "../../server/db/schema/index.ts";
import type { CitationSettings, EntryLanguage } from "./schema.ts";

/*
 * An entry's description as stored HTML: its citations (`[@label]`) become numbered or labelled
 * marks per the entry's citation settings, linking to the reference list appended at the end,
 * whose items link back to every place they are cited. Everything goes through the shared
 * Markdown pipeline, whose sanitizer prefixes the ids (`user-content-`) and points the in-page
 * links at them.
 */

/** Fenced code, inline code (left as they are) or a citation. */
const tokens = /(^(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^\2[^\n]*$|$(?![\s\S])))|((`+)[^`\n][\s\S]*?\4)|\[(@[^[\]\n]{1,400})\]/gm;

const referenceHeading: Record<EntryLanguage, string> = { "zh-CN": "参考资料", en: "References" };
const unknownTitle: Record<EntryLanguage, string> = { "zh-CN": "未知的引用标签", en: "Unknown citation label" };

function bracketed(text: string, bracket: CitationSettings["bracket"]): string {
  return bracket === "round" ? `(${text})` : `[${text}]`;
}

/** A part of a reference ended by a full stop, unless it already ends in one ("Wright, E. M." stays). */
function closed(html: string, text: string): string {
  return /[.!?。！？]$/.test(text.trim()) ? html : `${html}.`;
}

/** One reference as a line of the list: authors. title. container, publisher, year: pages. DOI, URL (accessed). */
export function referenceText(reference: EntryReference): string {
  const parts: string[] = [];
  if (reference.authors.length > 0) {
    const authors = reference.authors.join(", ");
    parts.push(closed(escapeHtml(authors), authors));
  }
  parts.push(closed(`<em>${escapeHtml(reference.title)}</em>`, reference.title));
  const source = [reference.container, reference.publisher, reference.year].filter(Boolean).map((part) => part!);
  if (source.length > 0) {
    const text = source.join(", ") + (reference.pages ? `: ${reference.pages}` : "");
    parts.push(closed(escapeHtml(text), text));
  } else if (reference.pages) parts.push(closed(escapeHtml(reference.pages), reference.pages));
  if (reference.doi) parts.push(`DOI: <a href="https://doi.org/${escapeHtml(encodeURI(reference.doi))}">${escapeHtml(reference.doi)}</a>.`);
  if (reference.url)
    parts.push(
      `<a href="${escapeHtml(reference.url)}">${escapeHtml(reference.url)}</a>${reference.accessed ? ` (${escapeHtml(reference.accessed)})` : ""}.`,
    );
  return parts.join(" ");
}

/**
 * The links from a reference back to where it is cited: "^" itself when cited once, otherwise
 * "^" followed by one lettered link per place, from "a" ("^ a b"), as encyclopedias print them.
 */
export function backLinkHtml(ids: string[]): string {
  if (ids.length === 0) return "";
  if (ids.length === 1) return `<a href="#${ids[0]}">^</a>`;
  const letter = (at: number) => (at < 26 ? String.fromCharCode(97 + at) : String(at + 1));
  return `^ ${ids.map((id, at) => `<a href="#${id}">${letter(at)}</a>`).join(" ")}`;
}

/**
 * The Markdown with its citations replaced by inline HTML and the reference list appended.
 * `markUnknown`: an unknown label shows as a marked error (the editor's preview); saving refuses it before.
 */
export function citationMarkdown(snapshot: Pick<EntrySnapshot, "content" | "references" | "citation">, language: EntryLanguage): string {
  const { references, citation } = snapshot;
  const byLabel = new Map(references.map((reference) => [reference.label.toLowerCase(), reference]));
  const order: EntryReference[] = [];
  const backLinks = new Map<EntryReference, string[]>();
  let citationCount = 0;
  const mark = (reference: EntryReference, item: CitedItem): { id: string; text: string } => {
    if (!order.includes(reference)) order.push(reference);
    const number = order.indexOf(reference) + 1;
    citationCount += 1;
    const id = `cite-${number}-${citationCount}`;
    backLinks.set(reference, [...(backLinks.get(reference) ?? []), id]);
    const shown = citation.format === "label" ? reference.label : String(number);
    return { id, text: item.locator ? `${shown}, ${item.locator}` : shown };
  };
  const body = snapshot.content.replace(
    tokens,
    (whole: string, fenced?: string, _fence?: string, code?: string, _ticks?: string, inside?: string) => {
      if (fenced || code || !inside) return whole;
      const items = parseCitation(inside);
      if (!items) return whole;
      const unknown = items.filter((item) => !byLabel.has(item.label.toLowerCase()));
      if (unknown.length > 0) return `<mark title="${unknownTitle[language]}">${escapeHtml(whole)}</mark>`;
      const marks = items.map((item) => ({
        ...mark(byLabel.get(item.label.toLowerCase())!, item),
        reference: byLabel.get(item.label.toLowerCase())!,
      }));
      if (citation.format === "none") return marks.map((item) => `<a id="${item.id}"></a>`).join("");
      const tag = citation.position === "subscript" ? "sub" : "sup";
      const link = (item: { id: string; text: string; reference: EntryReference }, text: string) =>
        `<a href="#ref-${order.indexOf(item.reference) + 1}" id="${item.id}">${escapeHtml(text)}</a>`;
      if (citation.cite_type === "single")
        return `<${tag}>${marks.map((item) => link(item, bracketed(item.text, citation.bracket))).join("")}</${tag}>`;
      const separator = items.some((item) => item.locator) ? "; " : ", ";
      const open = citation.bracket === "round" ? "(" : "[";
      const close = citation.bracket === "round" ? ")" : "]";
      return `<${tag}>${escapeHtml(open)}${marks.map((item) => link(item, item.text)).join(escapeHtml(separator))}${escapeHtml(close)}</${tag}>`;
    },
  );
  if (references.length === 0) return body;
  const listed = [...order, ...references.filter((reference) => !order.includes(reference))];
  const items = listed.map((reference, index) => {
    const links = backLinkHtml(backLinks.get(reference) ?? []);
    return `<li id="ref-${index + 1}">${links !== "" && citation.format !== "none" ? links + " " : ""}${referenceText(reference)}</li>`;
  });
  return `${body}\n\n## ${referenceHeading[language]}\n\n<ol>\n${items.join("\n")}\n</ol>\n`;
}

/** The stored HTML of an entry's description with its citations and reference list. */
export async function renderEntryContent(
  snapshot: Pick<EntrySnapshot, "content" | "references" | "citation">,
  language: EntryLanguage,
): Promise<string> {
  const rendered = await renderMarkdown(citationMarkdown(snapshot, language), { locale: language });
  return rendered.html;
}

/*
 * Citations in an entry's text (spec §3): `[@label]`, several as `[@a; @b]`, a page as
 * `[@a, p. 12]`. Pure: the save checks the labels, the renderer numbers and formats them.
 */

/** One cited reference inside a citation: its label and an optional locator ("p. 12"). */
export interface CitedItem {
  label: string;
  locator: string | null;
}

/** `[@…]`: a bracket opening with `@`, on one line. */
export const citationPattern = /\[(@[^[\]\n]{1,400})\]/g;
const itemPattern = /^@([\p{L}\p{N}_][\p{L}\p{N}_:.-]{0,39})(?:\s*,\s*(.{1,100}))?$/u;

/** The items of a citation's inside (`@a, p. 12; @b`), or null when it is not a citation. */
export function parseCitation(inside: string): CitedItem[] | null {
  const items: CitedItem[] = [];
  for (const part of inside.split(";")) {
    const match = itemPattern.exec(part.trim());
    if (!match) return null;
    items.push({ label: match[1]!, locator: match[2]?.trim() || null });
  }
  return items.length > 0 ? items : null;
}

/** Markdown without code (fenced blocks, indented blocks are rare in entries; inline code spans): citations there are text. */
function withoutCode(markdown: string): string {
  return markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?(?:^\1[^\n]*$|$(?![\s\S]))/gm, "").replace(/(`+)[^`\n][\s\S]*?\1/g, "");
}

/** Every label cited in the text, in order of first citation. */
export function citedLabels(markdown: string): string[] {
  const labels: string[] = [];
  for (const match of withoutCode(markdown).matchAll(citationPattern)) {
    for (const item of parseCitation(match[1]!) ?? []) if (!labels.includes(item.label)) labels.push(item.label);
  }
  return labels;
}

/** The cited labels no reference has (labels compare case-insensitively). */
export function unknownLabels(markdown: string, references: readonly { label: string }[]): string[] {
  const known = new Set(references.map((reference) => reference.label.toLowerCase()));
  return citedLabels(markdown).filter((label) => !known.has(label.toLowerCase()));
}

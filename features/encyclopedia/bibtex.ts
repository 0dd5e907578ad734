/*
 * A small BibTeX reader for the entry editor: one pasted `@type{key, field = {…} | "…" | 123, …}`
 * becomes a reference (label = the key). Enough for what citation managers and publishers export.
 */

export interface BibtexReference {
  label: string;
  authors: string[];
  title: string;
  container?: string;
  publisher?: string;
  year?: string;
  pages?: string;
  url?: string;
  accessed?: string;
  doi?: string;
}

/** Braces and common escapes out of a field value. */
function clean(value: string): string {
  return value
    .replace(/\\[`'^"~=.uvHtcdbk]\{?([A-Za-z])\}?/g, "$1")
    .replace(/\\&/g, "&")
    .replace(/[{}]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** The fields of the first entry in the text, or null when there is none. */
function fieldsOf(text: string): { key: string; fields: Map<string, string> } | null {
  const head = /@\s*[A-Za-z]+\s*[{(]\s*([^,\s]+)\s*,/.exec(text);
  if (!head) return null;
  const fields = new Map<string, string>();
  let at = head.index + head[0].length;
  const field = /\s*([A-Za-z][\w-]*)\s*=\s*/y;
  while (at < text.length) {
    field.lastIndex = at;
    const match = field.exec(text);
    if (!match) break;
    at = field.lastIndex;
    let value: string;
    if (text[at] === "{") {
      let depth = 0;
      const start = at;
      for (; at < text.length; at += 1) {
        if (text[at] === "{") depth += 1;
        else if (text[at] === "}") depth -= 1;
        if (depth === 0) break;
      }
      value = text.slice(start + 1, at);
      at += 1;
    } else if (text[at] === '"') {
      const end = text.indexOf('"', at + 1);
      value = text.slice(at + 1, end < 0 ? text.length : end);
      at = end < 0 ? text.length : end + 1;
    } else {
      const end = /[,}\n]/.exec(text.slice(at));
      value = text.slice(at, end ? at + end.index : text.length);
      at += end ? end.index : text.length;
    }
    fields.set(match[1]!.toLowerCase(), clean(value));
    const comma = /\s*,?/y;
    comma.lastIndex = at;
    comma.exec(text);
    at = comma.lastIndex;
  }
  return { key: head[1]!, fields };
}

/** The reference a pasted BibTeX entry describes, or null when it is not one (or has no title). */
export function parseBibtex(text: string): BibtexReference | null {
  const parsed = fieldsOf(text.slice(0, 20_000));
  if (!parsed) return null;
  const get = (...names: string[]) => names.map((name) => parsed.fields.get(name)).find((value) => value) || undefined;
  const title = get("title");
  if (!title) return null;
  const authors = (get("author", "editor") ?? "")
    .split(/\s+and\s+/i)
    .map((name) => {
      const [last, first] = name.split(",").map((part) => part.trim());
      return first ? `${first} ${last}` : (last ?? "");
    })
    .filter((name) => name !== "");
  const doi = get("doi");
  return {
    label: parsed.key.replace(/[^\p{L}\p{N}_:.-]/gu, "").slice(0, 40) || "ref",
    authors,
    title,
    container: get("journal", "booktitle", "journaltitle", "series"),
    publisher: get("publisher", "school", "institution", "organization"),
    year: get("year") ?? get("date")?.slice(0, 4),
    pages: get("pages")?.replace(/-{1,2}/, "–"),
    url: get("url"),
    accessed: get("urldate"),
    doi: doi?.replace(/^https?:\/\/(dx\.)?doi\.org\//i, ""),
  };
}

/** The line that ends a pay-to-view writing's free part (the editor's paywall button inserts it). */
export const paywallMarker = "<!-- paywall -->";

const markerLine = /^[ \t]*<!--\s*paywall\s*-->[ \t]*$/m;

/**
 * A writing's Markdown split at its first paywall line, when it is paid (`price` > 0) and has one:
 * `paid` is null otherwise, and `free` is then the whole text (the line itself is dropped).
 */
export function splitPaywall(markdown: string, price: number): { free: string; paid: string | null } {
  const match = markerLine.exec(markdown);
  if (!match) return { free: markdown, paid: null };
  const free = markdown.slice(0, match.index);
  const rest = markdown.slice(match.index + match[0].length);
  if (price <= 0) return { free: `${free}${rest}`, paid: null };
  return { free, paid: rest };
}

/**
 * One-line text (titles, names, aliases, a profile's nickname): no control characters, and neither
 * the Unicode line nor paragraph separator (U+2028, U+2029), which are line breaks too — in
 * JavaScript source, in many editors, and in exports such as RIS whose tags are one line each.
 */
export const singleLinePattern = /^[^\p{Cc}\u2028\u2029]*$/u;

export function isSingleLine(value: string): boolean {
  return singleLinePattern.test(value);
}

/** Text that may hold line breaks (`\n`, `\r`, tabs) but no other control character. */
export function isMultiLine(value: string): boolean {
  return /^[^\p{Cc}]*$/u.test(value.replace(/[\n\r\t\u2028\u2029]/g, ""));
}

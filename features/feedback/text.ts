import { z } from "zod";

/*
 * Text fields of the site's own forms (feedback, friend links): trimmed, bounded, and without
 * control characters; single-line fields also refuse line and paragraph separators (U+2028/2029).
 */
const isControl = (code: number) => code < 0x20 || code === 0x7f;
const isSeparator = (code: number) => code === 0x2028 || code === 0x2029;

export function singleLineText(max: number, tooLong: string, required?: string) {
  const base = z.string({ error: required ?? "validation:invalid_value" }).trim();
  return (required ? base.min(1, required) : base)
    .max(max, tooLong)
    .refine(
      (value) => ![...value].some((c) => isControl(c.codePointAt(0)!) || isSeparator(c.codePointAt(0)!)),
      "validation:invalid_characters",
    );
}

export function multiLineText(max: number, tooLong: string, required?: string) {
  const base = z.string({ error: required ?? "validation:invalid_value" }).trim();
  return (required ? base.min(1, required) : base)
    .max(max, tooLong)
    .refine(
      (value) => ![...value].some((c) => c !== "\n" && c !== "\r" && c !== "\t" && isControl(c.codePointAt(0)!)),
      "validation:invalid_characters",
    );
}

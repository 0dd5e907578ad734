import type { circles } from "../../server/db/schema/index.ts";
import { isLocale, type Locale } from "../../common/locale.ts";
import type { CircleVisibility } from "./policy.ts";

export type CircleRow = typeof circles.$inferSelect;

/** What leaves the server about a circle, in the viewer's language. */
export interface CircleView {
  id: number;
  parentId: number | null;
  name: string;
  description: string;
  logo: string | null;
  visibility: CircleVisibility;
  defaultLanguage: Locale;
  languages: Locale[];
  createdAt: string;
}

export function circleLanguages(row: Pick<CircleRow, "languages" | "defaultLanguage">): Locale[] {
  const listed = row.languages.filter(isLocale);
  const fallback = defaultLanguageOf(row);
  return listed.includes(fallback) ? listed : [fallback, ...listed];
}

export function defaultLanguageOf(row: Pick<CircleRow, "defaultLanguage">): Locale {
  return isLocale(row.defaultLanguage) ? row.defaultLanguage : "zh-CN";
}

function nameIn(row: CircleRow, language: Locale): string {
  return language === "en" ? row.nameEn : row.nameZh;
}

function descriptionIn(row: CircleRow, language: Locale): string {
  return language === "en" ? row.descriptionEn : row.descriptionZh;
}

/**
 * The circle's texts in the viewer's language when the circle is written in it (and has a name
 * there), otherwise in its default language.
 */
export function localizedTexts(row: CircleRow, locale: Locale): { name: string; description: string } {
  const language = circleLanguages(row).includes(locale) && nameIn(row, locale) ? locale : defaultLanguageOf(row);
  return { name: nameIn(row, language) || row.nameZh || row.nameEn, description: descriptionIn(row, language) };
}

export function presentCircle(row: CircleRow, locale: Locale): CircleView {
  return {
    id: row.id,
    parentId: row.parentId,
    ...localizedTexts(row, locale),
    logo: row.logo,
    visibility: row.visibility,
    defaultLanguage: defaultLanguageOf(row),
    languages: circleLanguages(row),
    createdAt: row.createdAt.toISOString(),
  };
}

/** camelCase keys → snake_case, deeply: the JSON API speaks snake_case like its request bodies. */
export function snakeKeys<T>(value: T): unknown {
  if (Array.isArray(value)) return value.map(snakeKeys);
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) => [key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`), snakeKeys(child)]),
    );
  }
  return value;
}

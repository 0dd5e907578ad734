/** zh-CN has no path prefix; English lives under /en. */
export const locales = ["zh-CN", "en"] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = "zh-CN";
export const languageCookie = "lang";
export const languageCookieMaxAge = 365 * 24 * 60 * 60;
export const timeZone = "Asia/Shanghai";

export function isLocale(value: unknown): value is Locale {
  return value === "zh-CN" || value === "en";
}

export function localeFromPath(pathname: string): Locale {
  return pathname === "/en" || pathname.startsWith("/en/") ? "en" : "zh-CN";
}

/** The path without its language prefix, always starting with "/". */
export function stripLocale(pathname: string): string {
  if (pathname === "/en") return "/";
  return pathname.startsWith("/en/") ? pathname.slice(3) : pathname;
}

/** A site path in the given language: localizePath("/circles", "en") === "/en/circles". */
export function localizePath(path: string, locale: Locale): string {
  if (locale === defaultLocale) return path;
  return path === "/" ? "/en" : `/en${path}`;
}

/** Picks a locale from a cookie value or an Accept-Language header; zh-CN when nothing matches. */
export function negotiateLocale(cookieValue: string | undefined, acceptLanguage: string | undefined): Locale {
  if (isLocale(cookieValue)) return cookieValue;
  const ranked = (acceptLanguage ?? "")
    .split(",")
    .map((part) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.find((param) => param.trim().startsWith("q="));
      return { tag: tag.toLowerCase(), q: q ? Number(q.trim().slice(2)) || 0 : 1 };
    })
    .filter((entry) => entry.tag)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of ranked) {
    if (tag.startsWith("zh")) return "zh-CN";
    if (tag.startsWith("en")) return "en";
  }
  return defaultLocale;
}

export function formatDate(value: Date | string, locale: Locale, options: Intl.DateTimeFormatOptions = { dateStyle: "medium" }): string {
  return new Intl.DateTimeFormat(locale, { timeZone, ...options }).format(typeof value === "string" ? new Date(value) : value);
}

/** Only same-site paths may be returned to after login (no open redirects). */
export function safeNextPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return null;
  return value;
}

/** Where the language switch goes: the same page in `lang` (or the other language when `lang` is not one). */
export function languageSwitchTarget(lang: unknown, next: unknown): { locale: Locale; path: string } {
  const from = typeof next === "string" ? safeNextPath(next) ?? "/" : "/";
  const locale = isLocale(lang) ? lang : localeFromPath(from) === "en" ? "zh-CN" : "en";
  return { locale, path: localizePath(stripLocale(from), locale) };
}

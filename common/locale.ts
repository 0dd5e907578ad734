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

/**
 * The page a path is for. React Router fetches loader data for a page from `/page.data`
 * (`/_root.data` for `/`, `/page/_.data` with a trailing slash); loaders see that data URL.
 */
export function pagePathname(pathname: string): string {
  if (pathname === "/_root.data") return "/";
  if (pathname.endsWith("/_.data")) return pathname.slice(0, -"_.data".length);
  if (pathname.endsWith(".data")) return pathname.slice(0, -".data".length);
  return pathname;
}

/** The URL of the page a request is for, without React Router's data suffix and route parameters. */
export function pageUrl(requestUrl: string): URL {
  const url = new URL(requestUrl);
  const page = pagePathname(url.pathname);
  if (page !== url.pathname) {
    url.pathname = page;
    url.searchParams.delete("_routes");
  }
  return url;
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

const shanghaiDayFormat = new Intl.DateTimeFormat("en-CA", { timeZone });

/** The calendar day (YYYY-MM-DD) in Asia/Shanghai at a moment: the site's "today". */
export function shanghaiDay(moment: Date = new Date()): string {
  return shanghaiDayFormat.format(moment);
}

// Building a formatter costs far more than using one: one per locale and set of options, kept.
const dateFormats = new Map<string, Intl.DateTimeFormat>();

export function formatDate(value: Date | string, locale: Locale, options: Intl.DateTimeFormatOptions = { dateStyle: "medium" }): string {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { timeZone, ...options });
    if (dateFormats.size < 100) dateFormats.set(key, format);
  }
  return format.format(typeof value === "string" ? new Date(value) : value);
}

const nextPathBase = "http://circles.invalid";

/** Whitespace, control characters and the backslash. */
function isUnsafeInPath(character: string): boolean {
  const code = character.codePointAt(0) ?? 0;
  return code <= 0x20 || (code >= 0x7f && code <= 0x9f) || character === "\\";
}

/** "//host" and "/\\host" are protocol-relative to browsers: a Location starting so leaves the site. */
function isProtocolRelative(path: string): boolean {
  return path.startsWith("//") || path.startsWith("/\\");
}

/**
 * Only same-site paths may be returned to after login (no open redirects). Browsers drop tabs and
 * line breaks from URLs and read "\\" as "/", so "/\t/evil.example" would leave the site: any
 * whitespace, control character or backslash is refused. The path is judged after URL resolution
 * ("/..//evil.example" and "/%2e%2e//evil.example" resolve to "//evil.example"), and the answer is
 * that resolved, percent-encoded path, ready for a Location header.
 */
export function safeNextPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith("/") || isProtocolRelative(value) || [...value].some(isUnsafeInPath)) return null;
  let url: URL;
  try {
    url = new URL(value, nextPathBase);
  } catch {
    return null;
  }
  if (url.origin !== nextPathBase || isProtocolRelative(url.pathname)) return null;
  return url.pathname + url.search + url.hash;
}

/** Where the language switch goes: the same page in `lang` (or the other language when `lang` is not one). */
export function languageSwitchTarget(lang: unknown, next: unknown): { locale: Locale; path: string } {
  const from = typeof next === "string" ? (safeNextPath(next) ?? "/") : "/";
  const locale = isLocale(lang) ? lang : localeFromPath(from) === "en" ? "zh-CN" : "en";
  // Taking the prefix off "/en//evil.example" leaves "//evil.example": judge the result again.
  const path = safeNextPath(localizePath(stripLocale(from), locale)) ?? localizePath("/", locale);
  return { locale, path };
}

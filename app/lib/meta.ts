import { getI18n } from "../../common/i18n.ts";
import { localeFromPath, localizePath, type Locale } from "../../common/locale.ts";
import { stripLocale } from "../../common/locale.ts";

/** "page title - site name", plus alternate-language links for search engines. */
export function pageMeta(
  location: { pathname: string },
  title: string | ((t: ReturnType<typeof getI18n>["t"]) => string),
  description?: string,
) {
  const locale = localeFromPath(location.pathname);
  const t = getI18n(locale).t;
  const text = typeof title === "function" ? title(t) : t(title);
  const path = stripLocale(location.pathname);
  const alternates = (["zh-CN", "en"] as Locale[]).map((lang) => ({
    tagName: "link",
    rel: "alternate",
    hrefLang: lang,
    href: localizePath(path, lang),
  }));
  const siteName = t("common:site.name");
  return [
    ...feedLinks(path, locale, t),
    // A page named like the site (none should be) is not called "Circles - Circles".
    { title: text === siteName ? siteName : `${text} - ${siteName}` },
    { name: "description", content: description ?? t("common:site.tagline") },
    ...alternates,
  ];
}

/**
 * `<link rel="alternate">` to the RSS feeds a page has (app/routes/feed.ts): the site's on every
 * page, and a circle's or a user's own on their pages.
 */
function feedLinks(path: string, locale: Locale, t: ReturnType<typeof getI18n>["t"]) {
  const link = (href: string, title: string) => ({ tagName: "link", rel: "alternate", type: "application/rss+xml", title, href });
  const links = [link(localizePath("/feed.xml", locale), t("common:feed.subscribe_site"))];
  const own = /^\/(circles\/\d+|profile\/[^/]+)$/.exec(path);
  if (own)
    links.push(
      link(
        localizePath(`/${own[1]}/feed.xml`, locale),
        t("common:feed.subscribe", {
          name: own[1]!.startsWith("profile/") ? decodeURIComponent(own[1]!.slice(8)) : t("common:feed.this_circle"),
        }),
      ),
    );
  return links;
}

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
    // A page named like the site (none should be) is not called "Circles - Circles".
    { title: text === siteName ? siteName : `${text} - ${siteName}` },
    { name: "description", content: description ?? t("common:site.tagline") },
    ...alternates,
  ];
}

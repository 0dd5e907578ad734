import { Link, useLocation } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { localeFromPath, localizePath } from "../../common/locale.ts";

export function SiteFooter() {
  const { t } = useTranslation("common");
  const locale = localeFromPath(useLocation().pathname);
  const path = (to: string) => localizePath(to, locale);
  return (
    <footer className="site-footer">
      <nav aria-label={t("footer.about")}>
        <Link to={path("/about")}>{t("footer.about")}</Link>
        <Link to={path("/about/privacy")}>{t("footer.privacy")}</Link>
        <Link to={path("/help")}>{t("footer.help")}</Link>
        <Link to={path("/app/download")}>{t("footer.app")}</Link>
        <Link to={path("/contact")}>{t("footer.contact")}</Link>
        <Link to={path("/feedback")}>{t("footer.feedback")}</Link>
        <Link to={path("/link")}>{t("footer.links")}</Link>
        <Link to={path("/school")}>{t("footer.school")}</Link>
        <a href="/sitemap.xml">{t("footer.sitemap")}</a>
      </nav>
      <p>
        {t("footer.copyright", { year: new Date().getFullYear() })} · {t("site.free_notice")}
      </p>
    </footer>
  );
}

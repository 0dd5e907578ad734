import type { ReactNode } from "react";
import { NavLink } from "react-router";
import { useTranslation } from "react-i18next";
import { localizePath, type Locale } from "../../common/locale.ts";
import "../lib/creator-catalog.ts";

/** The creator pages that exist; analysis and monetization join here when they are built. */
const sections = [
  { path: "/creator", key: "home", end: true },
  { path: "/creator/manage/content", key: "content", end: false },
  { path: "/creator/manage/comment", key: "comments", end: false },
  { path: "/account/drafts", key: "drafts", end: false },
] as const;

/** The creator centre's frame: its pages on the side (below the header on phones), the page beside them. */
export function CreatorLayout({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation("creator");
  const locale = i18n.language as Locale;
  return (
    <div className="account-layout creator-layout">
      <nav className="panel account-nav" aria-label={t("nav.label")}>
        <p className="account-nav-title">{t("nav.label")}</p>
        <ul>
          {sections.map((section) => (
            <li key={section.key}>
              <NavLink to={localizePath(section.path, locale)} end={section.end}>
                {t(`nav.${section.key}`)}
              </NavLink>
            </li>
          ))}
          <li>
            <NavLink to={localizePath("/circles/1/write/article", locale)}>{t("nav.write")}</NavLink>
          </li>
        </ul>
      </nav>
      <div className="account-content">{children}</div>
    </div>
  );
}

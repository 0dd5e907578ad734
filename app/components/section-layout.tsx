import type { ReactNode } from "react";
import { NavLink } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { localizePath, type Locale } from "../../common/locale.ts";

export interface Section {
  path: string;
  /** Its label's key under `nav.` in the namespace. */
  key: string;
  /** Current only on exactly this path (not on the pages below it). */
  end: boolean;
}

/**
 * A centre's frame (the wallet, the creator centre): its pages as a side menu (above the page on
 * phones), labelled from `nav.*` of one catalog namespace, and the page beside them.
 */
export function SectionLayout({
  namespace,
  sections,
  className,
  children,
}: {
  namespace: string;
  sections: readonly Section[];
  className: string;
  children: ReactNode;
}) {
  const { t, i18n } = useTranslation(namespace);
  const locale = i18n.language as Locale;
  return (
    <div className={`account-layout ${className}`}>
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
        </ul>
      </nav>
      <div className="account-content">{children}</div>
    </div>
  );
}

import type { ReactNode } from "react";
import { NavLink } from "react-router";
import { useTranslation } from "react-i18next";
import { localizePath, type Locale } from "../../common/locale.ts";
import "../lib/wallet-catalog.ts";

const sections = [
  { path: "/wallet", key: "home", end: true },
  { path: "/wallet/sinecoin", key: "sinecoin", end: true },
  { path: "/wallet/reward", key: "reward", end: true },
  { path: "/wallet/accounts", key: "accounts", end: true },
  { path: "/wallet/sinecoin_recharge", key: "recharge", end: true },
] as const;

/** The wallet's frame: its pages on the side (above on phones), the page beside them. */
export function WalletLayout({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation("wallet");
  const locale = i18n.language as Locale;
  return (
    <div className="account-layout wallet-layout">
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

import type { ReactNode } from "react";
import { NavLink } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { localizePath, type Locale } from "../../common/locale.ts";
import "../lib/centre-catalog.ts";

const sections = ["home", "profile", "avatar", "drafts", "store", "missions"] as const;

/** The personal centre's frame: its sections on the side, the page beside them. */
export function AccountLayout({ username, children }: { username: string; children: ReactNode }) {
  const { t, i18n } = useTranslation("centre");
  const locale = i18n.language as Locale;
  return (
    <div className="account-layout">
      <nav className="panel account-nav" aria-label={t("nav.label")}>
        <p className="account-nav-title">{t("nav.label")}</p>
        <ul>
          {sections.map((section) => (
            <li key={section}>
              <NavLink to={localizePath(`/account/${section}`, locale)} end>
                {t(`nav.${section}`)}
              </NavLink>
            </li>
          ))}
          <li>
            <NavLink to={localizePath("/messages/reply_comment", locale)}>{t("nav.messages")}</NavLink>
          </li>
          <li>
            <NavLink to={localizePath(`/profile/${username}`, locale)}>{t("nav.public_profile")}</NavLink>
          </li>
          <li>
            <NavLink to={localizePath("/creator", locale)}>{t("nav.creator")}</NavLink>
          </li>
        </ul>
      </nav>
      <div className="account-content">{children}</div>
    </div>
  );
}

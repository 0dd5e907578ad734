import { useRef } from "react";
import { Form, Link, useLocation } from "react-router";
import { useTranslation } from "react-i18next";
import { Avatar, Badge, Button, Dropdown } from "antd";
import { BellOutlined, EditOutlined, SearchOutlined } from "@ant-design/icons";
import { useSession } from "../lib/session-store.ts";
import { localeFromPath, localizePath, stripLocale } from "../lib/locale.ts";
import { unreadTotal } from "../../features/messages/schema.ts";

/** Header: logo, Home, Circles, search, Write, message bell, avatar menu or Login/Register, language switch. */
export function SiteHeader({ csrfToken }: { csrfToken: string | null }) {
  const { t } = useTranslation(["common", "accounts"]);
  const location = useLocation();
  const locale = localeFromPath(location.pathname);
  const path = (to: string) => localizePath(to, locale);
  const { user, unread } = useSession();
  const signedIn = user.user_id !== 0;
  const current = stripLocale(location.pathname) + location.search;
  const otherLocale = locale === "en" ? "zh-CN" : "en";
  const logoutForm = useRef<HTMLFormElement>(null);
  const total = unreadTotal(unread);

  return (
    <header className="site-header">
      <a className="skip-link" href="#content">
        {t("nav.skip_to_content")}
      </a>
      <div className="site-header-inner">
        <Link to={path("/")} className="site-logo" aria-label={t("site.name")}>
          <img src="/favicon.svg" alt="" width={28} height={28} />
          <span>{t("site.name")}</span>
        </Link>
        <nav aria-label={t("nav.main_navigation")} className="site-nav">
          <Link to={path("/")}>{t("nav.home")}</Link>
          <Link to={path("/circles")}>{t("nav.circles")}</Link>
        </nav>
        <Form method="get" action={path("/search")} role="search" className="site-search">
          <input name="q" type="search" aria-label={t("nav.search")} placeholder={t("nav.search_placeholder")} className="ant-input ant-input-outlined circles site-search-input" maxLength={100} />
          <button type="submit" className="site-search-button" aria-label={t("nav.search")}>
            <SearchOutlined />
          </button>
        </Form>
        <div className="site-actions">
          <Button type="primary" icon={<EditOutlined />} href={path("/circles/1/write/article")}>
            {t("nav.write")}
          </Button>
          {signedIn ? (
            <>
              <Link to={path("/messages/system_notice")} className="site-bell" aria-label={t("nav.messages_unread", { count: total })}>
                <Badge count={total} size="small" overflowCount={99}>
                  <BellOutlined />
                </Badge>
              </Link>
              <Dropdown
                trigger={["click", "hover"]}
                menu={{
                  items: [
                    { key: "signed-in", label: t("accounts:menu.signed_in_as", { name: user.nickname || user.username }), disabled: true },
                    { type: "divider" },
                    { key: "account", label: <Link to={path("/account/home")}>{t("nav.account")}</Link> },
                    { key: "logout", label: t("accounts:menu.logout"), onClick: () => logoutForm.current?.requestSubmit() },
                  ],
                }}
              >
                <Link to={path("/account/home")} className="site-avatar" data-testid="avatar-menu">
                  <Avatar src={user.avatar} alt={t("accounts:menu.avatar_alt", { name: user.username })} size={32} />
                  <span className="site-username">{user.nickname || user.username}</span>
                </Link>
              </Dropdown>
              <Form method="post" action={path("/logout")} ref={logoutForm} className="site-logout-form">
                <input type="hidden" name="csrftoken" value={csrfToken ?? ""} />
                <noscript>
                  <button type="submit">{t("nav.logout")}</button>
                </noscript>
              </Form>
            </>
          ) : (
            <>
              <Link to={`${path("/login")}?next=${encodeURIComponent(current)}`}>{t("nav.login")}</Link>
              <Link to={path("/register")}>{t("nav.register")}</Link>
            </>
          )}
          <a href={`/set-language?lang=${otherLocale}&next=${encodeURIComponent(current)}`} hrefLang={otherLocale} lang={otherLocale} aria-label={t("nav.switch_language_label")} className="site-language">
            {t("nav.switch_language")}
          </a>
        </div>
      </div>
    </header>
  );
}

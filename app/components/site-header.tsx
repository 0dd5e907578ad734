import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { Form, Link, useLocation } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { BellIcon, SearchIcon, WriteIcon } from "./icons.tsx";
import { useSession } from "../lib/session-store.ts";
import { localeFromPath, localizePath, stripLocale } from "../../common/locale.ts";
import { messageCentreCategories, unreadIn, unreadTotal, type MessageCentreCategory } from "../../features/messages/schema.ts";

const SearchSuggestions = lazy(() => import("./search-suggestions.tsx"));

/**
 * Header: logo, Home, Circles, search, Write, message bell, avatar menu or Login/Register, language switch.
 * The avatar menu is a <details> element: it opens without JavaScript and costs no menu library.
 */
export function SiteHeader({ csrfToken }: { csrfToken: string | null }) {
  const { t } = useTranslation("common");
  const location = useLocation();
  const locale = localeFromPath(location.pathname);
  const path = (to: string) => localizePath(to, locale);
  const { user, unread } = useSession();
  const signedIn = user.user_id !== 0;
  const current = stripLocale(location.pathname) + location.search;
  const otherLocale = locale === "en" ? "zh-CN" : "en";
  const total = unreadTotal(unread);
  // The bell opens the first message category with something unread.
  const bellTarget =
    (Object.keys(messageCentreCategories) as MessageCentreCategory[]).find((category) => unreadIn(category, unread) > 0) ?? "reply_comment";
  const menu = useRef<HTMLDetailsElement>(null);
  const searchBox = useRef<HTMLInputElement>(null);
  // The suggestions' code loads on the first focus of the search box, never with the page.
  const [suggesting, setSuggesting] = useState(false);
  // On a phone the search box hides behind its magnifier (the header keeps one row): the first
  // tap opens it; without JavaScript the tap opens the search page.
  const [searchOpen, setSearchOpen] = useState(false);
  useEffect(() => setSearchOpen(false), [location.key]);
  const openSearch = (event: React.MouseEvent) => {
    const input = searchBox.current;
    if (!input || input.offsetParent !== null) return;
    event.preventDefault();
    setSearchOpen(true);
    requestAnimationFrame(() => searchBox.current?.focus());
  };
  // The menu closes after a navigation and on a click elsewhere.
  useEffect(() => menu.current?.removeAttribute("open"), [location.key]);
  useEffect(() => {
    const close = (event: MouseEvent) => {
      if (menu.current && !menu.current.contains(event.target as Node)) menu.current.removeAttribute("open");
    };
    document.addEventListener("click", close);
    return () => document.removeEventListener("click", close);
  }, []);

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
          <Link to={path("/ranking")}>{t("nav.ranking")}</Link>
        </nav>
        <Form
          method="get"
          action={path("/search")}
          role="search"
          className={searchOpen ? "site-search site-search-open" : "site-search"}
          onKeyDown={(event) => {
            if (event.key === "Escape") setSearchOpen(false);
          }}
        >
          <input
            name="q"
            type="search"
            aria-label={t("nav.search")}
            placeholder={t("nav.search_placeholder")}
            className="text-input site-search-input"
            maxLength={200}
            ref={searchBox}
            onFocus={() => setSuggesting(true)}
          />
          {suggesting ? (
            <Suspense fallback={null}>
              <SearchSuggestions input={searchBox} />
            </Suspense>
          ) : null}
          <button
            type="submit"
            className="site-search-button"
            aria-label={t("nav.search")}
            onClick={openSearch}
            data-testid="search-toggle"
          >
            <SearchIcon />
          </button>
        </Form>
        <div className="site-actions">
          <Link to={path("/write")} className="button button-primary">
            <WriteIcon />
            <span className="site-write-label">{t("nav.write")}</span>
          </Link>
          <Link to={path("/ask")} className="button" data-testid="header-ask">
            {t("nav.ask")}
          </Link>
          {signedIn ? (
            <>
              <Link to={path(`/messages/${bellTarget}`)} className="site-bell" aria-label={t("nav.messages_unread", { count: total })}>
                <BellIcon />
                {total > 0 ? (
                  <span className="site-bell-count" aria-hidden="true" data-testid="unread-total">
                    {total > 99 ? "99+" : total}
                  </span>
                ) : null}
              </Link>
              <details className="user-menu" ref={menu}>
                <summary
                  className="site-avatar"
                  data-testid="avatar-menu"
                  aria-label={t("menu.signed_in_as", { name: user.nickname || user.username })}
                >
                  <img
                    className="site-avatar-image"
                    src={user.avatar_small}
                    alt={t("menu.avatar_alt", { name: user.username })}
                    width={32}
                    height={32}
                  />
                  <span className="site-username">{user.nickname || user.username}</span>
                </summary>
                <div className="user-menu-panel">
                  <p className="user-menu-signed-in">{t("menu.signed_in_as", { name: user.nickname || user.username })}</p>
                  <Link to={path("/account/home")}>{t("nav.account")}</Link>
                  <Link to={path("/creator")}>{t("nav.creator")}</Link>
                  <Link to={path(`/profile/${user.username}`)}>{t("nav.my_profile")}</Link>
                  <Form method="post" action={path("/logout")}>
                    <input type="hidden" name="csrftoken" value={csrfToken ?? ""} />
                    <button type="submit" className="user-menu-button">
                      {t("menu.logout")}
                    </button>
                  </Form>
                </div>
              </details>
            </>
          ) : (
            <>
              <Link to={`${path("/login")}?next=${encodeURIComponent(current)}`}>{t("nav.login")}</Link>
              <Link to={path("/register")}>{t("nav.register")}</Link>
            </>
          )}
          <a
            href={`/set-language?lang=${otherLocale}&next=${encodeURIComponent(current)}`}
            hrefLang={otherLocale}
            lang={otherLocale}
            title={t("nav.switch_language_label")}
            className="site-language"
          >
            {t("nav.switch_language")}
          </a>
        </div>
      </div>
    </header>
  );
}

import { NavLink } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { localizePath, type Locale } from "../../common/locale.ts";
import { messageCentreCategories, unreadIn, type MessageCentreCategory } from "../../features/messages/schema.ts";
import { useSession } from "../lib/session-store.ts";

/** The message centre's menu: every category with its live unread count. */
export function MessageCentreNav() {
  const { t, i18n } = useTranslation(["centre"]);
  const locale = i18n.language as Locale;
  const { unread } = useSession();
  const categories = Object.keys(messageCentreCategories) as MessageCentreCategory[];
  return (
    <nav className="panel message-nav" aria-label={t("centre:messages.categories")}>
      <h1 className="page-title">{t("centre:messages.title")}</h1>
      <ul>
        {categories.map((name) => {
          const count = unreadIn(name, unread);
          return (
            <li key={name}>
              <NavLink to={localizePath(`/messages/${name}`, locale)}>
                {t(`centre:messages.category_${name}`)}
                {count > 0 ? (
                  <span className="message-count" aria-label={t("centre:messages.unread", { count })}>
                    {count}
                  </span>
                ) : null}
              </NavLink>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

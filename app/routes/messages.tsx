import { useEffect } from "react";
import { NavLink } from "react-router";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../components/empty-state.tsx";
import type { Route } from "./+types/messages";
import { getAppContext, notFound, requireViewer } from "../lib/context.server.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { useSession, useSessionStore } from "../lib/session-store.ts";
import { isMessageCentreCategory, messageCentreCategories, unreadIn, type MessageCentreCategory } from "../../features/messages/schema.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "common:messages.title");

/** Signed-in only. Opening a category marks it read (the notification lists arrive with messaging). */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  requireViewer(getAppContext(context));
  if (!isMessageCentreCategory(params.category)) notFound(request);
  return { category: params.category as MessageCentreCategory };
}

export default function MessageCentre({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("common");
  const locale = i18n.language as Locale;
  const { category } = loaderData;
  const store = useSessionStore();
  const { unread } = useSession();

  useEffect(() => {
    for (const read of messageCentreCategories[category]) {
      void store.markRead(read).catch(() => undefined);
    }
  }, [category, store]);

  const categories = Object.keys(messageCentreCategories) as MessageCentreCategory[];
  return (
    <div className="message-centre">
      <nav className="panel message-nav" aria-label={t("messages.categories")}>
        <h1 className="page-title">{t("messages.title")}</h1>
        <ul>
          {categories.map((name) => {
            const count = unreadIn(name, unread);
            return (
              <li key={name}>
                <NavLink to={localizePath(`/messages/${name}`, locale)}>
                  {t(`messages.category_${name}`)}
                  {count > 0 ? (
                    <span className="message-count" aria-label={t("messages.unread", { count })}>
                      {count}
                    </span>
                  ) : null}
                </NavLink>
              </li>
            );
          })}
        </ul>
      </nav>
      <section className="panel message-list" aria-labelledby="message-category-title">
        <h2 id="message-category-title" className="page-title">
          {t(`messages.category_${category}`)}
        </h2>
        <EmptyState description={t("messages.empty")} />
      </section>
    </div>
  );
}

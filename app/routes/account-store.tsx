import { Link } from "react-router";
import { useTranslation } from "react-i18next";
import type { Route } from "./+types/account-store";
import { getAppContext, requireViewer } from "../lib/context.server.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { AccountLayout } from "../components/account-layout.tsx";
import { EmptyState } from "../components/empty-state.tsx";
import "../lib/centre-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "centre:store.title");

/** The user's favourites. Nothing can be favourited before writings and questions exist: an honest empty state. */
export async function loader({ context }: Route.LoaderArgs) {
  const viewer = requireViewer(getAppContext(context));
  return { username: viewer.username };
}

export default function AccountStore({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("centre");
  const locale = i18n.language as Locale;
  return (
    <AccountLayout username={loaderData.username}>
      <section className="panel" aria-labelledby="store-title">
        <h1 id="store-title" className="page-title">
          {t("store.title")}
        </h1>
        <EmptyState description={t("store.empty")}>
          <Link to={localizePath("/circles", locale)} className="button">
            {t("store.browse")}
          </Link>
        </EmptyState>
      </section>
    </AccountLayout>
  );
}

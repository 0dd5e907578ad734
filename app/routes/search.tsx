import { Form } from "react-router";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../components/empty-state.tsx";
import type { Route } from "./+types/search";
import { getAppContext, tagPage } from "../lib/context.server.ts";
import { localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import "../lib/search-catalog.ts";
import { searchCircles } from "../../features/circles/service.ts";
import { CircleCards } from "../components/circle-cards.tsx";
import { circlesTag } from "../../server/lib/cache-tags.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "search:title");

/** Searches circles for now; articles, questions and entries join as those features arrive. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const query = (pageUrl(request.url).searchParams.get("q") ?? "").replaceAll("\u0000", "").trim().slice(0, 100);
  tagPage(app, circlesTag);
  return { query, circles: query ? await searchCircles(app.db, app.viewer, query, app.locale) : [] };
}

export default function Search({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("common");
  const locale = i18n.language as Locale;
  const { query, circles } = loaderData;
  return (
    <section className="panel" aria-labelledby="search-title">
      <h1 id="search-title" className="page-title">
        {query ? t("search:results_for", { query }) : t("search:title")}
      </h1>
      <Form method="get" action={localizePath("/search", locale)} role="search" className="search-form">
        <input
          className="text-input"
          type="search"
          name="q"
          defaultValue={query}
          aria-label={t("nav.search")}
          placeholder={t("nav.search_placeholder")}
          maxLength={100}
        />
        <button type="submit" className="button button-primary">
          {t("nav.search")}
        </button>
      </Form>
      {!query ? (
        <p className="muted">{t("search:prompt")}</p>
      ) : circles.length === 0 ? (
        <EmptyState description={t("search:no_results", { query })} />
      ) : (
        <>
          <h2>{t("search:circles")}</h2>
          <CircleCards circles={circles} />
        </>
      )}
    </section>
  );
}

import { Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/circle-questions";
import { getAppContext } from "../lib/context.server.ts";
import { questionListPage } from "../lib/question-pages.server.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { Breadcrumb } from "../components/breadcrumb.tsx";
import { EmptyState } from "../components/empty-state.tsx";
import { QuestionList, questionStylesheets } from "../components/question-parts.tsx";
import { questionTabValues } from "../../features/questions/constants.ts";
import "../lib/questions-catalog.ts";

export const links = () => [...questionStylesheets];
export const meta: Route.MetaFunction = ({ location, loaderData }) =>
  pageMeta(location, (t) => t("questions:list.meta_title", { circle: loaderData?.circle.name ?? "" }));

/** `/circles/{id}/questions`: Latest, Hot and Unanswered, paged by cursor (plain links). */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  return questionListPage(getAppContext(context), request, params);
}

export default function CircleQuestions({ loaderData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("questions");
  const locale = i18n.language as Locale;
  const { circle, tab, list, canAsk } = loaderData;
  const base = localizePath(`/circles/${circle.id}/questions`, locale);
  const tabHref = (name: string) => (name === "latest" ? base : `${base}?tab=${name}`);
  return (
    <>
      <Breadcrumb
        label={t("common:circles.breadcrumb")}
        trail={[
          { to: localizePath("/circles", locale), label: t("common:circles.title") },
          { to: localizePath(`/circles/${circle.id}`, locale), label: circle.name },
        ]}
        current={t("list.title")}
      />
      <section className="panel" aria-labelledby="questions-title">
        <div className="answers-toolbar">
          <h1 id="questions-title" className="page-title">
            {t("list.meta_title", { circle: circle.name })}
          </h1>
          {canAsk ? (
            <Link className="button button-primary" to={localizePath(`/circles/${circle.id}/ask`, locale)} data-testid="ask-question">
              {t("list.ask")}
            </Link>
          ) : null}
        </div>
        {loaderData.deleted ? (
          <p className="notice" role="status">
            {t("question.question_deleted")}
          </p>
        ) : null}
        {list ? (
          <>
            <nav className="tabs-nav" aria-label={t("list.tabs_label")}>
              {questionTabValues.map((name) => (
                <Link key={name} to={tabHref(name)} aria-current={tab === name ? "page" : undefined} preventScrollReset>
                  {t(`list.tab_${name}`)}
                </Link>
              ))}
            </nav>
            {list.items.length > 0 ? (
              <QuestionList
                items={list.items}
                nextCursor={list.nextCursor}
                moreHref={(cursor) => `${tabHref(tab)}${tab === "latest" ? "?" : "&"}cursor=${encodeURIComponent(cursor)}`}
              />
            ) : (
              <EmptyState description={t(tab === "unanswered" ? "list.empty_unanswered" : "list.empty")} />
            )}
          </>
        ) : (
          <EmptyState description={t("list.members_only")} />
        )}
      </section>
    </>
  );
}

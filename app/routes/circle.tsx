import { data, Link, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { EmptyState } from "../components/empty-state.tsx";
import type { Route } from "./+types/circle";
import { assertFormCsrf, getAppContext, notFound, readForm } from "../lib/context.server.ts";
import { circleIdOf, tagCirclePage, withFormToken } from "../lib/circle-pages.server.ts";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { getCirclePage } from "../../features/circles/service.ts";
import { joinCircleOperation, leaveCircleOperation } from "../../features/circles/operations.ts";
import { dispatchIntent, failuresOnErrorScreen, formAction, requireSignedIn, type FormPost } from "../../server/lib/operation.ts";
import { CircleCards } from "../components/circle-cards.tsx";
import { CircleCounts } from "../components/circle-counts.tsx";
import { CircleLogo } from "../components/circle-logo.tsx";
import { MembershipToggle } from "../components/membership-toggle.tsx";
import { CircleBooks } from "../components/circle-books.tsx";
import { bookStylesheets } from "../components/book-parts.tsx";
import { circleBooksTab } from "../lib/circle-books.server.ts";
import "../lib/circles-catalog.ts";
import { WritingList } from "../components/writing-list.tsx";
import { listWritings, type WritingListPage } from "../../features/writings/queries.ts";
import { editorPath } from "../../features/writings/paths.ts";
import { pageUrl } from "../../common/locale.ts";
import { Breadcrumb } from "../components/breadcrumb.tsx";
import { EntryList } from "../components/entry-list.tsx";
import { listCircleEntries, type EntrySummary } from "../../features/encyclopedia/service.ts";

export const meta: Route.MetaFunction = ({ location, loaderData }) =>
  pageMeta(location, loaderData ? () => loaderData.circle.name : "common:circles.not_found", loaderData?.circle.description || undefined);

/** Visitors' copies are cached (and dropped by the circle's tags); signed-in viewers get a private page with a form token. */
/** Book cards on the books tab. */
export const links = () => [...bookStylesheets];

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

const tabs = ["articles", "books", "posts", "questions", "encyclopedia"] as const;
type Tab = (typeof tabs)[number];

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const id = circleIdOf(request, params.circleId);
  const circlePage = await getCirclePage(app.db, app.viewer, id, app.locale);
  if (!circlePage) notFound(request);
  await tagCirclePage(app, id);
  const url = pageUrl(request.url);
  const tab = url.searchParams.get("tab") ?? "articles";
  let writings: WritingListPage | null = null;
  if (circlePage.can.read_content && (tab === "articles" || tab === "posts")) {
    writings = await listWritings(app.db, app.viewer, {
      tab: "all",
      circleId: id,
      types: tab === "posts" ? ["post"] : ["article", "serial"],
      cursor: url.searchParams.get("cursor"),
    });
  }
  const entries: EntrySummary[] | null = circlePage.can.read_content && tab === "encyclopedia" ? await listCircleEntries(app.db, id) : null;
  const page = { ...circlePage, writings, entries, books: await circleBooksTab(request, id, circlePage.can.read_content, app.db) };
  if (app.viewer) return withFormToken(app, page);
  return data({ ...page, csrfToken: null as string | null });
}

/** Join and leave as plain form posts (leaving is confirmed first); a refusal is the error screen. */
export async function action({ context, params, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  const id = circleIdOf(request, params.circleId);
  const form = await readForm(request);
  requireSignedIn(app.viewer);
  assertFormCsrf(app, form);
  return dispatchIntent({ app, request, form, params }, { join: joinForm(id), leave: leaveForm(id) });
}

const joinForm = (id: number) =>
  formAction(joinCircleOperation, {
    params: () => ({ id }),
    body: () => ({}),
    done: () => ({ notice: "joined" as const, confirmLeave: false }),
    ...failuresOnErrorScreen,
  });

const leaveForm = (id: number) => async (post: FormPost) => {
  if (post.form.get("confirmed") !== "1") return { notice: null, confirmLeave: true };
  return formAction(leaveCircleOperation, {
    params: () => ({ id }),
    body: () => ({}),
    done: () => ({ notice: "left" as const, confirmLeave: false }),
    ...failuresOnErrorScreen,
  })(post);
};

export default function Circle({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("circles");
  const locale = i18n.language as Locale;
  const [params] = useSearchParams();
  const requested = params.get("tab");
  const tab: Tab = tabs.includes(requested as Tab) ? (requested as Tab) : "articles";
  const { circle, ancestors, children, counts, staff, role, can, csrfToken } = loaderData;
  const link = (id: number) => localizePath(`/circles/${id}`, locale);
  return (
    <>
      <Breadcrumb
        label={t("common:circles.breadcrumb")}
        trail={[
          { to: localizePath("/circles", locale), label: t("common:circles.title") },
          ...ancestors.map((ancestor) => ({ to: link(ancestor.id), label: ancestor.name })),
        ]}
        current={circle.name}
      />
      <section className="panel circle-header" aria-labelledby="circle-title">
        <div className="circle-tree-item">
          <CircleLogo circle={circle} size={72} locale={locale} alt={t("common:circles.logo_alt", { name: circle.name })} />
          <div className="circle-header-text">
            <h1 id="circle-title" className="page-title">
              {circle.name}
            </h1>
            <p>{circle.description}</p>
            <CircleCounts counts={counts} />
            <p className="muted">
              {t("common:circles.created", { date: formatDate(circle.createdAt, locale) })} ·{" "}
              {t("page.visibility_label", { visibility: t(`visibility.${circle.visibility}`) })}
              {role ? ` · ${t("page.your_role", { role: t(`roles.${role}`) })}` : ""}
            </p>
          </div>
        </div>
        {params.get("deleted") === "1" ? (
          <p className="notice" role="status">
            {t("writings:read.deleted")}
          </p>
        ) : null}
        {actionData?.notice ? (
          <p className="notice" role="status">
            {t(actionData.notice === "joined" ? "page.joined_notice" : "page.left_notice")}
          </p>
        ) : null}
        <div className="circle-actions">
          <MembershipToggle
            circleId={circle.id}
            circleName={circle.name}
            role={role}
            can={can}
            csrfToken={csrfToken}
            confirmLeave={actionData?.confirmLeave ?? false}
          />
          {can.create_subcircle ? (
            <Link className="button" to={localizePath(circle.parentId === null ? "/circles/new" : `/circles/${circle.id}/new`, locale)}>
              {t("page.create_subcircle")}
            </Link>
          ) : null}
          {can.edit_settings ? (
            <Link className="button" to={localizePath(`/circles/${circle.id}/settings`, locale)}>
              {t("page.manage")}
            </Link>
          ) : null}
        </div>
      </section>
      <section className="panel" aria-labelledby="staff-title">
        <h2 id="staff-title" className="page-title">
          {t("page.staff")}
        </h2>
        {staff.length === 0 ? (
          <p className="muted">{t("page.no_staff")}</p>
        ) : (
          <ul className="staff-list">
            {staff.map((member) => (
              <li key={member.userId}>
                <span className="role-badge">{t(`roles.${member.role}`)}</span> {member.nickname}{" "}
                <span className="muted">@{member.username}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="panel" aria-labelledby="subcircles-title">
        <h2 id="subcircles-title" className="page-title">
          {t("common:circles.subcircles")}
        </h2>
        {children.length === 0 ? (
          <EmptyState description={t("common:circles.no_subcircles")} />
        ) : (
          <CircleCards circles={children.map((child) => ({ ...child, childCount: child.counts.subcircles }))} />
        )}
      </section>
      <section className="panel" aria-label={t("page.content_tabs")}>
        {can.read_content ? (
          <>
            <nav className="tabs-nav" aria-label={t("page.content_tabs")}>
              {tabs.map((name) => (
                <Link
                  key={name}
                  to={name === "articles" ? link(circle.id) : `${link(circle.id)}?tab=${name}`}
                  aria-current={tab === name ? "page" : undefined}
                  preventScrollReset
                >
                  {t(`page.tab_${name}`)}
                </Link>
              ))}
            </nav>
            {tab === "books" ? (
              loaderData.books ? (
                <CircleBooks circleId={circle.id} list={loaderData.books} canWrite={can.write} />
              ) : (
                <EmptyState description={t(`page.empty_${tab}`)} />
              )
            ) : tab === "encyclopedia" ? (
              loaderData.entries && loaderData.entries.length > 0 ? (
                <EntryList entries={loaderData.entries} />
              ) : (
                <EmptyState description={t("page.empty_encyclopedia")} />
              )
            ) : (
              <>
                {(tab === "articles" || tab === "posts") && can.write ? (
                  <p className="circle-write-links">
                    <Link
                      className="button button-primary"
                      to={localizePath(editorPath(circle.id, tab === "posts" ? "post" : "article"), locale)}
                      data-testid={`write-${tab}`}
                    >
                      {t(tab === "posts" ? "writings:list.write_post" : "writings:list.write_article")}
                    </Link>
                  </p>
                ) : null}
                {loaderData.writings && loaderData.writings.items.length > 0 ? (
                  <WritingList
                    items={loaderData.writings.items}
                    nextCursor={loaderData.writings.nextCursor}
                    moreHref={(cursor) => `${link(circle.id)}?tab=${tab}&cursor=${encodeURIComponent(cursor)}`}
                  />
                ) : (
                  <EmptyState description={t(`page.empty_${tab}`)} />
                )}
              </>
            )}
          </>
        ) : (
          <EmptyState description={t("page.members_only")}>
            {can.join || !csrfToken ? <span>{t("page.members_only_join")}</span> : null}
          </EmptyState>
        )}
      </section>
    </>
  );
}

import { data, Link, useSearchParams } from "react-router";
import { z } from "zod";
import { useTranslation } from "../lib/i18n.tsx";
import { EmptyState } from "../components/empty-state.tsx";
import type { Route } from "./+types/circle";
import { assertFormCsrf, getAppContext, notFound, readForm } from "../lib/context.server.ts";
import { circleIdOf, tagCirclePage, withFormToken } from "../lib/circle-pages.server.ts";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import { AppError, presentError } from "../../common/app-error.ts";
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
import "../lib/encyclopedia-catalog.ts";
import { listCircleEntryGroups, type EntryGroupItem } from "../../features/encyclopedia/home.ts";
import { listPins, pinnableTypeSchema, pinSubject, unpinSubject, type PinnedItem } from "../../features/circles/pins.ts";
import { PinnedList, PinnedMark, PinToggle } from "../components/circle-pins.tsx";
import circleHomeStyles from "../styles/circle-home.css?url";
import { listQuestions } from "../../features/questions/service.ts";
import { QuestionList, questionStylesheets } from "../components/question-parts.tsx";
import { HighlightedList } from "../components/circle-highlights.tsx";
import { activeHighlights } from "../../features/shop/service.ts";
import { writingPath } from "../../features/writings/paths.ts";

export const meta: Route.MetaFunction = ({ location, loaderData }) =>
  pageMeta(location, loaderData ? () => loaderData.circle.name : "common:circles.not_found", loaderData?.circle.description || undefined);

/** Book cards on the books tab; the page's two columns. */
export const links = () => [...bookStylesheets, ...questionStylesheets, { rel: "stylesheet", href: circleHomeStyles }];

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** The content tabs (the questions tab lists the newest or hottest; the circle's Q&A page has them all). */
const tabs = ["articles", "books", "posts", "questions", "encyclopedia"] as const;
type Tab = (typeof tabs)[number];
const sorts = ["latest", "hot"] as const;
type Sort = (typeof sorts)[number];
/** Tabs with a Latest/Hot order. */
const sortedTabs: ReadonlySet<Tab> = new Set(["articles", "books", "posts", "questions"]);

const tabOf = (value: string | null): Tab => (tabs.includes(value as Tab) ? (value as Tab) : "articles");
const sortOf = (value: string | null): Sort => (value === "hot" ? "hot" : "latest");

const pinFormSchema = z.object({
  intent: z.enum(["pin", "unpin"]),
  type: pinnableTypeSchema,
  id: z.coerce.number().int().positive().max(2_147_483_647),
});

export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const id = circleIdOf(request, params.circleId);
  const circlePage = await getCirclePage(app.db, app.viewer, id, app.locale);
  if (!circlePage) notFound(request);
  await tagCirclePage(app, id);
  const url = pageUrl(request.url);
  const tab = tabOf(url.searchParams.get("tab"));
  const sort = sortOf(url.searchParams.get("sort"));
  const readable = circlePage.can.read_content;
  let writings: WritingListPage | null = null;
  if (readable && (tab === "articles" || tab === "posts")) {
    writings = await listWritings(app.db, app.viewer, {
      tab: sort === "hot" ? "hot" : "all",
      circleId: id,
      types: tab === "posts" ? ["post"] : ["article", "serial"],
      cursor: url.searchParams.get("cursor"),
      locale: app.locale,
    });
  }
  const questions =
    readable && tab === "questions"
      ? await listQuestions(app.db, app.viewer, { circleId: id, tab: sort, cursor: url.searchParams.get("cursor") })
      : null;
  const [entries, books, pins, highlighted] = await Promise.all([
    readable && tab === "encyclopedia" ? listCircleEntryGroups(app.db, id, app.locale) : Promise.resolve<EntryGroupItem[] | null>(null),
    circleBooksTab(request, id, readable, app.db),
    readable ? listPins(app.db, app.viewer, id) : Promise.resolve<PinnedItem[]>([]),
    readable ? activeHighlights(app.db, id, app.now()) : Promise.resolve([]),
  ]);
  // Highlights end by the clock: a cached copy lives at most the page cache's minute past the end.
  const highlights = highlighted.map((highlight) => ({
    writing_id: highlight.writingId,
    title: highlight.title,
    path: writingPath({ id: highlight.writingId, circleId: id, type: highlight.type }),
  }));
  const page = { ...circlePage, writings, entries, books, pins, questions, highlights };
  if (app.viewer) return withFormToken(app, page);
  return data({ ...page, csrfToken: null as string | null });
}

/** Join and leave as plain form posts (leaving is confirmed first); a refusal is the error screen. */
export async function action({ context, params, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  const id = circleIdOf(request, params.circleId);
  const form = await readForm(request);
  const viewer = requireSignedIn(app.viewer);
  assertFormCsrf(app, form);
  const pinForm = (intent: "pin" | "unpin") => async (post: FormPost) => {
    const parsed = pinFormSchema.safeParse(Object.fromEntries(post.form));
    if (!parsed.success) throw new AppError("bad_request");
    const { type, id: subjectId } = parsed.data;
    try {
      if (intent === "pin") await pinSubject({ db: app.db }, viewer, id, type, subjectId);
      else await unpinSubject({ db: app.db }, viewer, id, type, subjectId);
    } catch (error) {
      // A full list is the moderator's to fix here: a localized message on the page, not an error screen.
      if (error instanceof AppError && error.code === "too_many_pins")
        return { notice: null, confirmLeave: false, error: presentError(error, app.locale).message };
      throw error;
    }
    return { notice: intent === "pin" ? ("pinned" as const) : ("unpinned" as const), confirmLeave: false };
  };
  return dispatchIntent(
    { app, request, form, params },
    { join: joinForm(id), leave: leaveForm(id), pin: pinForm("pin"), unpin: pinForm("unpin") },
  );
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
  const tab = tabOf(params.get("tab"));
  const sort = sortOf(params.get("sort"));
  const { circle, ancestors, children, counts, staff, role, can, csrfToken, pins } = loaderData;
  const link = (id: number) => localizePath(`/circles/${id}`, locale);
  const tabHref = (name: Tab, order: Sort = "latest") => {
    const query = new URLSearchParams({
      ...(name === "articles" ? {} : { tab: name }),
      ...(order === "hot" ? { sort: order } : {}),
    }).toString();
    return `${link(circle.id)}${query ? `?${query}` : ""}`;
  };
  // Moderators pin and unpin in place; pinned items are also marked where the list shows them.
  const pinToken = can.pin ? csrfToken : null;
  const pinned = new Set(pins.map((pin) => `${pin.type}-${pin.id}`));
  const pinControls = (type: "writing" | "book", id: number) => (
    <>
      {pinned.has(`${type}-${id}`) ? <PinnedMark /> : null}
      {pinToken ? <PinToggle circleId={circle.id} type={type} id={id} pinned={pinned.has(`${type}-${id}`)} csrfToken={pinToken} /> : null}
    </>
  );
  const notices = {
    joined: "page.joined_notice",
    left: "page.left_notice",
    pinned: "page.pinned_notice",
    unpinned: "page.unpinned_notice",
  } as const;
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
            <p className="muted">
              {t("counts.members", { count: counts.members })} ·{" "}
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
            {t(notices[actionData.notice])}
          </p>
        ) : null}
        {actionData && "error" in actionData && actionData.error ? (
          <p className="form-error" role="alert">
            {actionData.error}
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
          {can.moderate ? (
            <Link className="button" to={localizePath(`/circles/${circle.id}/settings/reports`, locale)} data-testid="circle-reports">
              {t("settings.reports")}
            </Link>
          ) : null}
        </div>
      </section>
      <div className="circle-layout">
        <div className="circle-main">
          <section className="panel" aria-label={t("page.content_tabs")} data-testid="circle-content">
            {can.read_content ? (
              <>
                <div className="content-toolbar">
                  <nav className="tabs-nav" aria-label={t("page.content_tabs")}>
                    {tabs.map((name) => (
                      <Link key={name} to={tabHref(name)} aria-current={tab === name ? "page" : undefined} preventScrollReset>
                        {t(`page.tab_${name}`)}
                      </Link>
                    ))}
                  </nav>
                  {sortedTabs.has(tab) ? (
                    <nav className="sort-nav" aria-label={t("page.sort_label")}>
                      {sorts.map((name) => (
                        <Link key={name} to={tabHref(tab, name)} aria-current={sort === name ? "true" : undefined} preventScrollReset>
                          {t(`page.sort_${name}`)}
                        </Link>
                      ))}
                    </nav>
                  ) : null}
                </div>
                <PinnedList circleId={circle.id} pins={pins} csrfToken={pinToken} />
                {tab === "articles" || tab === "posts" ? <HighlightedList highlights={loaderData.highlights} /> : null}
                {tab === "books" ? (
                  loaderData.books ? (
                    <CircleBooks
                      circleId={circle.id}
                      list={loaderData.books}
                      canWrite={can.write}
                      sort={sort}
                      actions={(book) => pinControls("book", book.id)}
                    />
                  ) : (
                    <EmptyState description={t(`page.empty_${tab}`)} />
                  )
                ) : tab === "questions" ? (
                  <>
                    <p className="circle-write-links">
                      {can.write ? (
                        <Link
                          className="button button-primary"
                          to={localizePath(`/circles/${circle.id}/ask`, locale)}
                          data-testid="ask-question"
                        >
                          {t("questions:list.ask")}
                        </Link>
                      ) : null}{" "}
                      <Link className="button" to={localizePath(`/circles/${circle.id}/questions`, locale)} data-testid="all-questions">
                        {t("questions:list.all_questions")}
                      </Link>
                    </p>
                    {loaderData.questions && loaderData.questions.items.length > 0 ? (
                      <QuestionList
                        items={loaderData.questions.items}
                        nextCursor={loaderData.questions.nextCursor}
                        moreHref={(cursor) => {
                          const base = tabHref(tab, sort);
                          return `${base}${base.includes("?") ? "&" : "?"}cursor=${encodeURIComponent(cursor)}`;
                        }}
                      />
                    ) : (
                      <EmptyState description={t("questions:list.empty")} />
                    )}
                  </>
                ) : tab === "encyclopedia" ? (
                  <>
                    {can.write ? (
                      <p className="circle-write-links">
                        <Link
                          className="button button-primary"
                          to={localizePath(`/circles/${circle.id}/encyclopedia/write`, locale)}
                          data-testid="entry-create"
                        >
                          {t("encyclopedia:read.create")}
                        </Link>
                      </p>
                    ) : null}
                    {loaderData.entries && loaderData.entries.length > 0 ? (
                      <EntryList entries={loaderData.entries} />
                    ) : (
                      <EmptyState description={t("page.empty_encyclopedia")} />
                    )}
                  </>
                ) : (
                  <>
                    {can.write ? (
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
                        moreHref={(cursor) => {
                          const base = tabHref(tab, sort);
                          return `${base}${base.includes("?") ? "&" : "?"}cursor=${encodeURIComponent(cursor)}`;
                        }}
                        actions={(item) => pinControls("writing", item.id)}
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
        </div>
        <aside className="circle-side" aria-label={t("page.side_label")}>
          <section className="panel" aria-labelledby="circle-about-title">
            <h2 id="circle-about-title" className="page-title">
              {t("page.about")}
            </h2>
            <CircleCounts counts={counts} />
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
                    <span className="role-badge">{t(`roles.${member.role}`)}</span>{" "}
                    <Link to={localizePath(`/profile/${member.username}`, locale)}>{member.nickname}</Link>{" "}
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
        </aside>
      </div>
    </>
  );
}

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
import { bookStylesheets } from "../components/book-parts.tsx";
import "../lib/circles-catalog.ts";
import { pageUrl } from "../../common/locale.ts";
import { questionStylesheets } from "../components/question-parts.tsx";
import { circleTabList } from "../../features/subjects/circle-tab.ts";
import type { CircleTabView } from "../lib/circle-tab-view.ts";
import { Breadcrumb } from "../components/breadcrumb.tsx";
import { listPins, pinnableTypeSchema, pinSubject, unpinSubject, type PinnedItem } from "../../features/circles/pins.ts";
import { PinnedList, PinnedMark, PinToggle } from "../components/circle-pins.tsx";
import circleHomeStyles from "../styles/circle-home.css?url";

export const meta: Route.MetaFunction = ({ location, loaderData }) =>
  pageMeta(location, loaderData ? () => loaderData.circle.name : "common:circles.not_found", loaderData?.circle.description || undefined);

/** Book cards on the books tab; the page's two columns. */
export const links = () => [...bookStylesheets, ...questionStylesheets, { rel: "stylesheet", href: circleHomeStyles }];

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

const sorts = ["latest", "hot"] as const;
type Sort = (typeof sorts)[number];
const sortOf = (value: string | null): Sort => (value === "hot" ? "hot" : "latest");

/**
 * Each tab's view by its name: the files of app/components/circle-tabs/, each exporting `views`
 * (the tabs themselves, their order and lists come from the kinds' registrations).
 */
const tabViews: Record<string, CircleTabView> = Object.assign(
  {},
  ...Object.values(import.meta.glob<{ views: Record<string, CircleTabView> }>("../components/circle-tabs/*.tsx", { eager: true })).map(
    (module) => module.views,
  ),
);

/** The page's tab: the named one when a kind declares it, else the first. */
function tabOf<Tab extends { name: string }>(tabs: Tab[], value: string | null): Tab {
  return tabs.find((tab) => tab.name === value) ?? tabs[0]!;
}

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
  const tabs = circleTabList().map(({ name, sorted }) => ({ name, sorted }));
  const { name: tab } = tabOf(tabs, url.searchParams.get("tab"));
  const readable = circlePage.can.read_content;
  const rawPage = url.searchParams.get("page");
  const query = {
    circleId: id,
    sort: sortOf(url.searchParams.get("sort")),
    cursor: url.searchParams.get("cursor"),
    page: rawPage && /^\d{1,5}$/.test(rawPage) && Number(rawPage) > 0 ? Number(rawPage) : 1,
    locale: app.locale,
    now: app.now(),
  };
  const [tabData, pins] = await Promise.all([
    readable ? tabOf(circleTabList(), tab).load(app.db, app.viewer, query) : Promise.resolve(null),
    readable ? listPins(app.db, app.viewer, id) : Promise.resolve<PinnedItem[]>([]),
  ]);
  const page = { ...circlePage, tabs, tab, tabData, pins };
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
  const sort = sortOf(params.get("sort"));
  const { circle, ancestors, children, counts, staff, role, can, csrfToken, pins, tabs, tab } = loaderData;
  const TabView = tabViews[tab];
  const link = (id: number) => localizePath(`/circles/${id}`, locale);
  const tabHref = (name: string, order: Sort = "latest") => {
    const query = new URLSearchParams({
      ...(name === tabs[0]?.name ? {} : { tab: name }),
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
                    {tabs.map(({ name }) => (
                      <Link key={name} to={tabHref(name)} aria-current={tab === name ? "page" : undefined} preventScrollReset>
                        {t(`kinds:tabs.${name}`)}
                      </Link>
                    ))}
                  </nav>
                  {tabs.find((entry) => entry.name === tab)?.sorted ? (
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
                {TabView ? (
                  <TabView
                    name={tab}
                    data={loaderData.tabData}
                    circleId={circle.id}
                    canWrite={can.write}
                    sort={sort}
                    moreHref={(cursor) => {
                      const base = tabHref(tab, sort);
                      return `${base}${base.includes("?") ? "&" : "?"}cursor=${encodeURIComponent(cursor)}`;
                    }}
                    pinControls={pinControls}
                  />
                ) : null}
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

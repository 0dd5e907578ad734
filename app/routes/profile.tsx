import { data, Form, Link, redirect, useFetcher } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { Trans } from "../components/trans.tsx";
import type { Route } from "./+types/profile";
import { assertFormCsrf, csrfForForm, getAppContext, here, notFound, readForm, tagPage } from "../lib/context.server.ts";
import { findUserByUsername, getProfileSummary, listActivity, type ActivityItem } from "../../features/profiles/service.ts";
import { canSeeHidden } from "../../features/reports/visibility.ts";
import { moderationNotice } from "../../features/reports/service.ts";
import { ReportControl } from "../components/report-control.tsx";
import { HiddenNotice } from "../components/hidden-notice.tsx";
import { presentActivity, presentPublicProfile } from "../../features/profiles/presenter.ts";
import { followOperation, unfollowOperation } from "../../features/follows/operations.ts";
import { blockOperation, unblockOperation } from "../../features/chats/operations.ts";
import { hasBlocked } from "../../features/chats/blocks.ts";
import { dispatchIntent, failureOf, formAction, requireSignedIn, type FormFailure } from "../../server/lib/operation.ts";
import { can } from "../../features/follows/policy.ts";
import { listWritings, type WritingListPage } from "../../features/writings/queries.ts";
import { WritingList } from "../components/writing-list.tsx";
import { AppError } from "../../common/app-error.ts";
import { formatDate, localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { EmptyState } from "../components/empty-state.tsx";
import { UserTypeBadge } from "../components/user-type-badge.tsx";
import "../lib/centre-catalog.ts";
import "../../common/i18n-forms.ts";
import { userTag } from "../../server/lib/cache-tags.ts";
import { listQuestions, listUserAnswers } from "../../features/questions/service.ts";
import { dateTime, QuestionList, questionStylesheets } from "../components/question-parts.tsx";
import { FramedAvatar, WornBadge } from "../components/shop-icons.tsx";

export const links = () => [...questionStylesheets];

export const meta: Route.MetaFunction = ({ location, loaderData }) =>
  pageMeta(
    location,
    (t) => (loaderData ? t("centre:profile.title", { name: loaderData.profile.nickname }) : t("common:error.not_found_title")),
    loaderData?.profile.signature || undefined,
  );

const tabs = ["questions", "articles", "answers", "activity"] as const;
type Tab = (typeof tabs)[number];

/**
 * The tab a profile opens on: the one asked for, else the first non-empty one in the tabs' order
 * (questions and answers open when asked for), else Articles.
 */
async function openTab(
  requested: Tab | null,
  articles: () => Promise<WritingListPage>,
  activity: () => Promise<ActivityItem[]>,
): Promise<{ tab: Tab; activity: ActivityItem[]; writingPage: WritingListPage | null }> {
  if (requested === "activity") return { tab: requested, activity: await activity(), writingPage: null };
  if (requested === "articles") return { tab: requested, activity: [], writingPage: await articles() };
  if (requested) return { tab: requested, activity: [], writingPage: null };
  const writingPage = await articles();
  if (writingPage.items.length > 0) return { tab: "articles", activity: [], writingPage };
  const lines = await activity();
  return lines.length > 0 ? { tab: "activity", activity: lines, writingPage: null } : { tab: "articles", activity: [], writingPage };
}

/** A public profile: who they are, counts, check-in days, the follow toggle, and their content by tab. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const user = await findUserByUsername(app.db, params.username);
  if (!user) notFound(request);
  const url = pageUrl(request.url);
  // One address per profile: a differently cased name leads to the real one.
  if (user.username !== params.username) throw redirect(here(app, `/profile/${user.username}${url.search}`));
  // A profile hidden by moderation opens only to its owner and site moderators.
  if (user.hiddenAt && !(await canSeeHidden(app.db, app.viewer, { authorId: user.id, circleId: null }))) notFound(request);
  const requested = url.searchParams.get("tab");
  const viewer = app.viewer;
  const articles = () =>
    listWritings(app.db, viewer, { tab: "all", authorId: user.id, cursor: url.searchParams.get("cursor"), locale: app.locale });
  const [summary, opened] = await Promise.all([
    getProfileSummary(app.db, user, viewer?.id ?? null, app.now()),
    openTab(tabs.includes(requested as Tab) ? (requested as Tab) : null, articles, () => listActivity(app.db, user.id, viewer)),
  ]);
  const { tab, activity, writingPage } = opened;
  const cursor = url.searchParams.get("cursor");
  const [questionPage, answerPage] = await Promise.all([
    tab === "questions" ? listQuestions(app.db, viewer, { authorId: user.id, cursor }) : Promise.resolve(null),
    tab === "answers" ? listUserAnswers(app.db, viewer, user.id, { cursor }) : Promise.resolve(null),
  ]);
  tagPage(app, userTag(user.id));
  const csrf = viewer ? csrfForForm(app) : undefined;
  const body = {
    profile: presentPublicProfile(summary),
    followedByViewer: summary.followedByViewer,
    isSelf: viewer?.id === user.id,
    signedIn: viewer !== null,
    can: { follow: can(viewer, "follow", { userId: user.id }), message: viewer !== null && viewer.id !== user.id },
    blockedByViewer: viewer && viewer.id !== user.id ? await hasBlocked(app.db, viewer.id, user.id) : false,
    tab,
    activity: activity.map((item) => presentActivity(item, app.locale)),
    writings: writingPage,
    questions: questionPage,
    answers: answerPage,
    csrfToken: csrf?.token ?? null,
    moderation: user.hiddenAt ? await moderationNotice(app.db, "user", user.id) : null,
    userId: user.id,
  };
  const headers: Record<string, string> = viewer ? { "Cache-Control": "private, no-store" } : {};
  if (csrf?.setCookie) headers["Set-Cookie"] = csrf.setCookie;
  return data(body, { headers });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  const cacheControl = loaderHeaders.get("Cache-Control");
  return cacheControl ? { "Cache-Control": cacheControl } : {};
}

export type FollowAnswer = { following: boolean; followers: number } | { error: string } | { blocked: true };

/** The Follow / Unfollow toggle (a plain POST without JavaScript). Visitors are sent to log in. */
export async function action({ context, params, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  const form = await readForm(request);
  requireSignedIn(app.viewer);
  const post = { app, request, form, params: { username: params.username } };
  try {
    assertFormCsrf(app, form);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return followFailed(failureOf(error, app.locale));
  }
  return dispatchIntent(post, {
    follow: followToggle(followOperation),
    unfollow: followToggle(unfollowOperation),
    block: blockToggle(blockOperation),
    unblock: blockToggle(unblockOperation),
  });
}

const followFailed = (failure: FormFailure) => data<FollowAnswer>({ error: failure.formError ?? "" }, { status: failure.status });

/** Either way the toggle answers the new state; every refusal but the login is said beside the button. */
const followToggle = (operation: typeof followOperation) =>
  formAction(operation, {
    body: () => ({}),
    done: (state) => data<FollowAnswer>({ following: state.following, followers: state.followers_count }),
    failed: followFailed,
    errorScreen: (error) => error.status === 401,
  });

/** Block or unblock from the profile (a plain POST); the page reads the new state again. */
const blockToggle = (operation: typeof blockOperation) =>
  formAction(operation, {
    body: () => ({}),
    done: () => data<FollowAnswer>({ blocked: true }),
    failed: followFailed,
    errorScreen: (error) => error.status === 401,
  });

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation(["centre", "common", "accounts"]);
  const locale = i18n.language as Locale;
  const { profile, tab } = loaderData;
  const path = (to: string) => localizePath(to, locale);
  const profilePath = path(`/profile/${profile.username}`);
  const fetcher = useFetcher<FollowAnswer>();
  const answer = fetcher.data ?? (actionData as FollowAnswer | undefined);
  // Optimistic while the toggle is on its way; the revalidated loader is the truth afterwards.
  const pending = fetcher.formData?.get("intent");
  const following = pending ? pending === "follow" : loaderData.followedByViewer;
  return (
    <div className="profile-page">
      <HiddenNotice state={loaderData.moderation} />
      <section className="panel profile-card" aria-labelledby="profile-name">
        <FramedAvatar frame={profile.avatar_frame}>
          <img
            className="profile-avatar"
            src={profile.avatar}
            alt={t("common:menu.avatar_alt", { name: profile.username })}
            width={112}
            height={112}
          />
        </FramedAvatar>
        <div className="profile-main">
          <h1 id="profile-name" className="page-title">
            {profile.nickname} <WornBadge item={profile.badge} /> <UserTypeBadge type={profile.user_type_key} />
          </h1>
          <p className="muted">{t("profile.username", { username: profile.username })}</p>
          {profile.signature ? <p className="profile-signature">{profile.signature}</p> : null}
          {profile.self_description ? (
            <p className="profile-bio" data-testid="profile-bio">
              {profile.self_description}
            </p>
          ) : null}
          {profile.school || profile.profession ? (
            <dl className="profile-facts" data-testid="profile-facts">
              {profile.school ? (
                <div>
                  <dt className="muted">{t("profile.school")}</dt>
                  <dd>{profile.school}</dd>
                </div>
              ) : null}
              {profile.profession ? (
                <div>
                  <dt className="muted">{t("profile.profession")}</dt>
                  <dd>{profile.profession}</dd>
                </div>
              ) : null}
            </dl>
          ) : null}
          <ul className="profile-counts" data-testid="profile-counts">
            <li>
              <strong data-testid="followers-count">{profile.followers_count}</strong>{" "}
              <span className="muted">{t("profile.followers")}</span>
            </li>
            <li title={t("profile.standing_formula")} data-testid="profile-standing">
              <strong>{profile.intelligence_score}</strong> <span className="muted">{t("profile.standing")}</span>
            </li>
            <li>
              <strong data-testid="following-count">{profile.following_count}</strong>{" "}
              <span className="muted">{t("profile.following")}</span>
            </li>
            <li>
              <strong data-testid="profile-consecutive">{profile.consecutive_checkin_days}</strong>{" "}
              <span className="muted">{t("profile.consecutive")}</span>
            </li>
            <li>
              <strong data-testid="profile-total">{profile.total_checkin_days}</strong> <span className="muted">{t("profile.total")}</span>
            </li>
          </ul>
          <p className="muted">{t("profile.joined", { date: formatDate(profile.joined, locale) })}</p>
        </div>
        <div className="profile-actions">
          {loaderData.can.follow ? (
            <fetcher.Form method="post" action={profilePath}>
              <input type="hidden" name="csrftoken" value={loaderData.csrfToken ?? ""} />
              <input type="hidden" name="intent" value={following ? "unfollow" : "follow"} />
              <button
                type="submit"
                className={following ? "button" : "button button-primary"}
                aria-pressed={following}
                data-testid="follow-button"
              >
                {following ? t("profile.unfollow") : t("profile.follow")}
              </button>
            </fetcher.Form>
          ) : null}
          {loaderData.can.message ? (
            <Link to={path(`/messages/chat/${profile.username}`)} className="button button-primary" data-testid="start-chat">
              {t("profile.send_message")}
            </Link>
          ) : null}
          {/* Block and Report are rarely wanted: they wait in a "more" menu beside the two actions. */}
          {!loaderData.isSelf ? (
            <details className="more-menu" data-testid="profile-more">
              <summary className="button more-menu-toggle" aria-label={t("profile.more")}>
                ⋯
              </summary>
              <div className="more-menu-panel">
                {loaderData.can.message ? (
                  <Form method="post" action={profilePath} className="inline-form">
                    <input type="hidden" name="csrftoken" value={loaderData.csrfToken ?? ""} />
                    <button
                      type="submit"
                      name="intent"
                      value={loaderData.blockedByViewer ? "unblock" : "block"}
                      className="more-menu-item"
                      data-testid="profile-block"
                    >
                      {loaderData.blockedByViewer ? t("chat.unblock") : t("chat.block")}
                    </button>
                  </Form>
                ) : null}
                <ReportControl
                  subjectType="user"
                  subjectId={loaderData.userId}
                  csrfToken={loaderData.csrfToken}
                  next={`/profile/${profile.username}`}
                  className="more-menu-item"
                />
              </div>
            </details>
          ) : null}
          {loaderData.isSelf ? (
            <Link to={path("/account/profile")} className="button">
              {t("profile.edit")}
            </Link>
          ) : null}
          {!loaderData.signedIn ? (
            <Link to={`${path("/login")}?next=${encodeURIComponent(`/profile/${profile.username}`)}`} className="button button-primary">
              {t("profile.login_to_follow")}
            </Link>
          ) : null}
          <div role="status" aria-live="polite">
            {answer && "error" in answer ? <p className="form-error">{answer.error}</p> : null}
          </div>
        </div>
      </section>
      <section className="panel">
        <nav className="tabs-nav" aria-label={t("profile.tabs_label")}>
          {tabs.map((name) => (
            <Link key={name} to={`${profilePath}?tab=${name}`} aria-current={tab === name ? "page" : undefined} preventScrollReset>
              {t(`profile.tab_${name}`)}
            </Link>
          ))}
        </nav>
        {tab === "activity" && loaderData.activity.length > 0 ? (
          <ol className="activity-list" data-testid="activity-list">
            {loaderData.activity.map((item) => (
              <li key={item.id}>
                <span>
                  <ActivityLine item={item} path={path} />
                </span>
                <time className="muted" dateTime={item.at}>
                  {formatDate(item.at, locale, { dateStyle: "medium", timeStyle: "short" })}
                </time>
              </li>
            ))}
          </ol>
        ) : tab === "questions" && loaderData.questions && loaderData.questions.items.length > 0 ? (
          <QuestionList
            items={loaderData.questions.items}
            nextCursor={loaderData.questions.nextCursor}
            moreHref={(cursor) => `${profilePath}?tab=questions&cursor=${encodeURIComponent(cursor)}`}
          />
        ) : tab === "answers" && loaderData.answers && loaderData.answers.items.length > 0 ? (
          <ProfileAnswers
            page={loaderData.answers}
            moreHref={(cursor) => `${profilePath}?tab=answers&cursor=${encodeURIComponent(cursor)}`}
          />
        ) : tab === "articles" && loaderData.writings && loaderData.writings.items.length > 0 ? (
          <WritingList
            items={loaderData.writings.items}
            nextCursor={loaderData.writings.nextCursor}
            moreHref={(cursor) => `${profilePath}?tab=articles&cursor=${encodeURIComponent(cursor)}`}
          />
        ) : (
          <EmptyState description={t(`profile.empty_${tab}`)} />
        )}
      </section>
    </div>
  );
}

/** A user's answers: the question each answers, its opening lines, accepted or not, when. */
function ProfileAnswers({ page, moreHref }: { page: Awaited<ReturnType<typeof listUserAnswers>>; moreHref: (cursor: string) => string }) {
  const { t, i18n } = useTranslation("questions");
  const locale = i18n.language as Locale;
  return (
    <>
      <ol className="question-list" data-testid="answer-list">
        {page.items.map((item) => (
          <li key={item.id} className="question-list-item">
            <h3 className="question-list-title">
              <Link to={localizePath(item.url, locale)}>{item.question.title}</Link>
            </h3>
            <p className="question-list-best">
              {item.accepted ? <span className="accepted-badge">{t("list.accepted")}</span> : null}
              {item.excerpt}
            </p>
            <p className="muted question-list-facts">
              <time dateTime={item.publishedAt}>{t("question.published", { date: formatDate(item.publishedAt, locale, dateTime) })}</time>
            </p>
          </li>
        ))}
      </ol>
      {page.nextCursor ? (
        <p className="writing-list-more">
          <Link className="button" to={moreHref(page.nextCursor)} preventScrollReset>
            {t("question.more_answers")}
          </Link>
        </p>
      ) : null}
    </>
  );
}

type ActivityView = ReturnType<typeof presentActivity>;

/**
 * The lines that are not a kind's content. A kind's line (its registration's `activity`) is
 * `profile.activity_<verb with _ for .>` when the catalog words it, else the plain "Published …".
 */
const activityKeys: Partial<Record<string, string>> = {
  "user.registered": "profile.activity_registered",
  "user.followed": "profile.activity_followed",
};

/** One activity line, said in full with its link ("joined the circle <Mathematics>"). */
function ActivityLine({ item, path }: { item: ActivityView; path: (to: string) => string }) {
  const { t } = useTranslation("centre");
  const key = activityKeys[item.verb] ?? [`profile.activity_${item.verb.replace(".", "_")}`, "profile.activity_published"];
  if (item.verb === "user.followed" && item.target) {
    return (
      <Trans
        t={t}
        i18nKey={key}
        values={{ name: item.target.nickname }}
        components={[<Link key="target" className="activity-link" to={path(`/profile/${item.target.username}`)} />]}
      />
    );
  }
  if (item.link) {
    return (
      <Trans
        t={t}
        i18nKey={key}
        values={{ name: item.link.label }}
        components={[<Link key="link" className="activity-link" to={path(item.link.path)} lang={item.link.language ?? undefined} />]}
      />
    );
  }
  return <>{t("profile.activity_registered")}</>;
}

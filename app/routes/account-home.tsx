import { data, Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/account-home";
import { assertFormCsrf, csrfForForm, getAppContext, privatePageHeaders, readForm, requireViewer } from "../lib/context.server.ts";
import { getUser } from "../../features/accounts/service.ts";
import { defaultAvatar } from "../../features/accounts/presenter.ts";
import { getProfileSummary } from "../../features/profiles/service.ts";
import { userTypeKeys } from "../../features/profiles/presenter.ts";
import { checkInOperation } from "../../features/checkins/operations.ts";
import { AppError } from "../../common/app-error.ts";
import { dispatchIntent, failureOf, formAction, type FormFailure } from "../../server/lib/operation.ts";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { AccountLayout } from "../components/account-layout.tsx";
import { CheckinCard, type CheckinAnswer } from "../components/checkin-card.tsx";
import { UserTypeBadge } from "../components/user-type-badge.tsx";
import { countryName } from "../../features/accounts/countries.ts";
import "../lib/centre-catalog.ts";
import "../../common/i18n-forms.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "centre:home.title");

export const headers = privatePageHeaders;

/** The personal centre: who I am, my counts, the daily check-in, shortcuts, balances and basic information. */
export async function loader({ context }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const user = await getUser(app.db, requireViewer(app).id);
  if (!user) throw new AppError("not_authenticated");
  const summary = await getProfileSummary(app.db, user, user.id, app.now());
  const csrf = csrfForForm(app);
  const body = {
    csrfToken: csrf.token,
    username: user.username,
    nickname: user.nickname,
    signature: user.signature,
    avatar: user.avatar ?? defaultAvatar,
    userType: userTypeKeys[user.userType],
    email: user.email,
    phone: user.phone,
    gender: user.gender,
    birthday: user.birthday,
    country: countryName(user.country, app.locale),
    joined: user.createdAt.toISOString(),
    sinecoin: user.sinecoin,
    gold: user.gold,
    counts: { followers: summary.followers, following: summary.following, reads: summary.reads, likes: summary.likes },
    checkin: summary.checkin,
    // Site moderators find their queue here.
    moderator: user.siteRole !== "none",
  };
  return data(body, { headers: csrf.setCookie ? { "Set-Cookie": csrf.setCookie } : undefined });
}

/** The check-in card's form (also as a plain POST without JavaScript): every refusal is said on the card. */
export async function action({ context, params, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  requireViewer(app);
  const form = await readForm(request);
  try {
    assertFormCsrf(app, form);
    return await dispatchIntent({ app, request, form, params }, { checkin: checkinForm });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return checkinFailed(failureOf(error, app.locale));
  }
}

const checkinFailed = (failure: FormFailure) =>
  data<CheckinAnswer>({ checkin: { error: failure.formError ?? "" } }, { status: failure.status });

const checkinForm = formAction(checkInOperation, {
  done: (result) => data<CheckinAnswer>({ checkin: { reward: result.reward, gold: result.gold } }),
  failed: checkinFailed,
  errorScreen: () => false,
});

export default function AccountHome({ loaderData: user, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation(["centre", "accounts"]);
  const locale = i18n.language as Locale;
  const path = (to: string) => localizePath(to, locale);
  const rows: [string, string][] = [
    [t("accounts:home.username"), user.username],
    [t("accounts:home.email"), user.email ?? t("accounts:home.not_set")],
    [t("accounts:home.phone"), user.phone ?? t("accounts:home.not_set")],
    [t("accounts:home.gender"), t(`accounts:register.gender_${user.gender}`)],
    [t("accounts:home.birthday"), formatDate(`${user.birthday}T00:00:00+08:00`, locale)],
    [t("accounts:home.country"), user.country],
    [t("accounts:home.joined"), formatDate(user.joined, locale)],
  ];
  const counts = [
    ["followers", user.counts.followers],
    ["following", user.counts.following],
    ["reads", user.counts.reads],
    ["likes", user.counts.likes],
  ] as const;
  return (
    <AccountLayout username={user.username}>
      <section className="panel account-identity" aria-labelledby="account-title">
        <img
          className="profile-avatar"
          src={user.avatar}
          alt={t("common:menu.avatar_alt", { name: user.username })}
          width={96}
          height={96}
        />
        <div className="account-identity-text">
          <h1 id="account-title" className="page-title">
            {user.nickname} <UserTypeBadge type={user.userType} />
          </h1>
          <p className="muted">{user.signature || t("home.no_signature")}</p>
          <ul className="profile-counts" data-testid="account-counts">
            {counts.map(([name, value]) => (
              <li key={name}>
                <strong>{value}</strong> <span className="muted">{t(`home.${name}`)}</span>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <CheckinCard status={user.checkin} csrfToken={user.csrfToken} answer={actionData} />
      <section className="panel" aria-labelledby="shortcuts-title">
        <h2 id="shortcuts-title" className="page-title">
          {t("home.shortcuts")}
        </h2>
        <ul className="shortcut-grid">
          <li>
            <Link to={path("/account/profile")}>{t("home.edit_profile")}</Link>
          </li>
          <li>
            <Link to={path("/account/avatar")}>{t("home.change_avatar")}</Link>
          </li>
          <li>
            <Link to={path("/account/store")}>{t("nav.store")}</Link>
          </li>
          <li>
            <Link to={path("/account/missions")}>{t("nav.missions")}</Link>
          </li>
          <li>
            <Link to={path("/messages/reply_comment")}>{t("nav.messages")}</Link>
          </li>
          <li>
            <Link to={path(`/profile/${user.username}`)}>{t("nav.public_profile")}</Link>
          </li>
          {user.moderator ? (
            <li>
              <Link to={path("/admin/reports")} data-testid="moderation-queue-link">
                {t("nav.moderation")}
              </Link>
            </li>
          ) : null}
        </ul>
      </section>
      <section className="panel" aria-labelledby="wallet-title">
        <h2 id="wallet-title" className="page-title">
          {t("accounts:home.wallet_heading")}
        </h2>
        <dl className="facts">
          <div>
            <dt>{t("accounts:home.sinecoin")}</dt>
            <dd data-testid="sinecoin">{user.sinecoin}</dd>
          </div>
          <div>
            <dt>{t("accounts:home.gold")}</dt>
            <dd data-testid="gold">{user.gold}</dd>
          </div>
        </dl>
      </section>
      <section className="panel" aria-labelledby="basic-title">
        <h2 id="basic-title" className="page-title">
          {t("accounts:home.profile_heading")}
        </h2>
        <dl className="facts" data-testid="account-facts">
          {rows.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </section>
    </AccountLayout>
  );
}

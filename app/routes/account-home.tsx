import { useTranslation } from "react-i18next";
import type { Route } from "./+types/account-home";
import { getAppContext, requireViewer } from "../lib/context.server.ts";
import { getUser } from "../../features/accounts/service.ts";
import { AppError } from "../../common/app-error.ts";
import { formatDate, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "accounts:home.title");

const typeKeys = { "Registered users": "registered", "Official users": "official", "VIP users": "vip", "SVIP users": "svip" } as const;

/** The signed-in user's own account: basic information and balances (editing arrives with profiles). */
export async function loader({ context }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const viewer = await getUser(app.db, requireViewer(app).id);
  if (!viewer) throw new AppError("not_authenticated");
  return {
    username: viewer.username,
    nickname: viewer.nickname,
    email: viewer.email,
    phone: viewer.phone,
    userType: typeKeys[viewer.userType],
    gender: viewer.gender,
    birthday: viewer.birthday,
    country: new Intl.DisplayNames([app.locale], { type: "region" }).of(viewer.country) ?? viewer.country,
    joined: viewer.createdAt.toISOString(),
    sinecoin: viewer.sinecoin,
    gold: viewer.gold,
  };
}

export default function AccountHome({ loaderData: user }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("accounts");
  const locale = i18n.language as Locale;
  const rows: [string, string][] = [
    [t("home.username"), user.username],
    [t("home.nickname"), user.nickname],
    [t("home.email"), user.email ?? t("home.not_set")],
    [t("home.phone"), user.phone ?? t("home.not_set")],
    [t("home.user_type"), t(`home.type_${user.userType}`)],
    [t("home.gender"), t(`register.gender_${user.gender}`)],
    [t("home.birthday"), user.birthday ? formatDate(`${user.birthday}T00:00:00+08:00`, locale) : t("home.not_set")],
    [t("home.country"), user.country],
    [t("home.joined"), formatDate(user.joined, locale)],
  ];
  return (
    <div className="account-home">
      <section className="panel" aria-labelledby="account-title">
        <h1 id="account-title" className="page-title">
          {t("home.heading")}
        </h1>
        <h2>{t("home.profile_heading")}</h2>
        <dl className="facts">
          {rows.map(([label, value]) => (
            <div key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </section>
      <section className="panel" aria-labelledby="wallet-title">
        <h2 id="wallet-title" className="page-title">
          {t("home.wallet_heading")}
        </h2>
        <dl className="facts">
          <div>
            <dt>{t("home.sinecoin")}</dt>
            <dd data-testid="sinecoin">{user.sinecoin}</dd>
          </div>
          <div>
            <dt>{t("home.gold")}</dt>
            <dd>{user.gold}</dd>
          </div>
        </dl>
      </section>
    </div>
  );
}

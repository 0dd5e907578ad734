import { Form, Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/admin-disputes";
import { getAppContext } from "../lib/context.server.ts";
import { disputesAction, disputesLoader } from "../lib/trade-dispute-pages.server.ts";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { Amount } from "../components/coins.tsx";
import "../lib/admin-catalog.ts";
import "../lib/trade-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "trade:disputes.title");

/** `/admin/disputes` (site moderators and admins): disputed rejections of task submissions, decided with a reason. */
export async function loader({ context, request }: Route.LoaderArgs) {
  return disputesLoader(getAppContext(context), request);
}

export async function action({ context, request }: Route.ActionArgs) {
  return disputesAction(getAppContext(context), request);
}

export default function AdminDisputes({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("trade");
  const locale = i18n.language as Locale;
  const { state, disputes, csrfToken } = loaderData;
  const path = localizePath("/admin/disputes", locale);
  const time = (value: string | null) => (value ? formatDate(value, locale, { dateStyle: "medium", timeStyle: "short" }) : "");
  const notice = actionData && "notice" in actionData ? actionData.notice : null;
  const error = actionData && "formError" in actionData ? actionData.formError : null;
  return (
    <section className="panel">
      <h1 className="page-title">{t("disputes.title")}</h1>
      <p className="muted">{t("disputes.intro")}</p>
      <nav className="mission-scopes" aria-label={t("disputes.title")}>
        <Link to={path} aria-current={state === "open" ? "page" : undefined}>
          {t("disputes.open")}
        </Link>{" "}
        ·{" "}
        <Link to={`${path}?state=decided`} aria-current={state === "decided" ? "page" : undefined}>
          {t("disputes.decided")}
        </Link>
      </nav>
      {notice ? <p role="status">{notice}</p> : null}
      {error ? <p role="alert">{error}</p> : null}
      {disputes.length === 0 ? <p>{t(state === "open" ? "disputes.none_open" : "disputes.none_decided")}</p> : null}
      {disputes.map((dispute) => (
        <article key={dispute.id} className="dispute" data-progress={dispute.id}>
          <h2>
            <Link to={dispute.url}>{dispute.title}</Link>
          </h2>
          <dl>
            <dt>{t("disputes.reward")}</dt>
            <dd>
              <Amount value={dispute.reward} currency="sinecoin" />
            </dd>
            <dt>{t("disputes.worker")}</dt>
            <dd>{dispute.worker.name}</dd>
            <dt>{t("disputes.poster")}</dt>
            <dd>{dispute.poster.name}</dd>
            <dt>{t("disputes.submission")}</dt>
            <dd style={{ whiteSpace: "pre-wrap" }}>{dispute.content ?? ""}</dd>
            <dt>{t("disputes.rejection")}</dt>
            <dd>{dispute.reason ?? ""}</dd>
            <dt>{t("disputes.disputed_at")}</dt>
            <dd>{time(dispute.disputed_at)}</dd>
            {dispute.decision ? (
              <>
                <dt>{t("disputes.decision")}</dt>
                <dd>
                  {t(`disputes.${dispute.decision}`)} · {time(dispute.decided_at)}
                </dd>
                <dt>{t("disputes.note")}</dt>
                <dd>{dispute.note}</dd>
              </>
            ) : null}
          </dl>
          {dispute.decision ? null : (
            <Form method="post">
              <input type="hidden" name="csrftoken" value={csrfToken} />
              <input type="hidden" name="intent" value="decide" />
              <input type="hidden" name="progress_id" value={dispute.id} />
              <label>
                {t("disputes.reason")} <input name="reason" required maxLength={1000} />
              </label>{" "}
              <button type="submit" name="decision" value="uphold">
                {t("disputes.uphold")}
              </button>{" "}
              <button type="submit" name="decision" value="overturn">
                {t("disputes.overturn")}
              </button>
            </Form>
          )}
        </article>
      ))}
    </section>
  );
}

import { Form, Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/admin-monetization";
import { getAppContext } from "../lib/context.server.ts";
import { adminMonetizationAction, adminMonetizationLoader } from "../lib/monetization-review-pages.server.ts";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { monetizationPaths } from "../../features/monetization/criteria.ts";
import "../lib/admin-catalog.ts";
import "../lib/monetization-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "monetization:review.title");

/** `/admin/monetization` (site admins): creator applications waiting for review, approved or rejected with a reason (audited). */
export async function loader({ context }: Route.LoaderArgs) {
  return adminMonetizationLoader(getAppContext(context));
}

export async function action({ context, request }: Route.ActionArgs) {
  return adminMonetizationAction(getAppContext(context), request);
}

const creatorCriteria = monetizationPaths.find((path) => path.key === "creator")?.criteria ?? [];

export default function AdminMonetization({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("monetization");
  const locale = i18n.language as Locale;
  const time = (value: string) => formatDate(value, locale, { dateStyle: "medium", timeStyle: "short" });
  const notice = actionData && "notice" in actionData ? actionData.notice : null;
  const error = actionData && "formError" in actionData ? actionData.formError : null;
  const person = (row: (typeof loaderData.waiting)[number]) => (
    <Link to={localizePath(`/profile/${row.username}`, locale)}>{row.nickname}</Link>
  );
  // A pending application's reason is its unmet criteria's keys; a decided one's the admin's words.
  const unmet = (reason: string | null) =>
    (reason ?? "")
      .split(",")
      .filter(Boolean)
      .map((key) =>
        t(`programme.criterion.${key}`, { required: creatorCriteria.find((criterion) => criterion.key === key)?.required ?? 0 }),
      )
      .join(locale === "en" ? "; " : "；");
  return (
    <section className="panel">
      <h1 className="page-title">{t("review.title")}</h1>
      <p className="muted">{t("review.intro")}</p>
      {notice ? <p role="status">{notice}</p> : null}
      {error ? <p role="alert">{error}</p> : null}
      <h2>{t("review.waiting")}</h2>
      {loaderData.waiting.length === 0 ? <p>{t("review.none")}</p> : null}
      <ul className="admin-cashouts" data-testid="admin-applications">
        {loaderData.waiting.map((row) => (
          <li key={row.user_id}>
            <p>
              {person(row)} · {time(row.created_at)} · {t("review.unmet", { criteria: unmet(row.reason) })}
            </p>
            <Form method="post">
              <input type="hidden" name="csrftoken" value={loaderData.csrfToken} />
              <input type="hidden" name="user_id" value={row.user_id} />
              <label>
                {t("review.reason")} <input name="reason" maxLength={1000} />
              </label>{" "}
              <button type="submit" name="intent" value="approve">
                {t("review.approve")}
              </button>{" "}
              <button type="submit" name="intent" value="reject">
                {t("review.reject")}
              </button>
            </Form>
          </li>
        ))}
      </ul>
      <h2>{t("review.recent")}</h2>
      <table className="admin-table">
        <thead>
          <tr>
            <th>{t("review.col_user")}</th>
            <th>{t("review.col_applied")}</th>
            <th>{t("review.col_status")}</th>
            <th>{t("review.col_reason")}</th>
          </tr>
        </thead>
        <tbody>
          {loaderData.recent.map((row) => (
            <tr key={row.user_id}>
              <td>{person(row)}</td>
              <td>{time(row.created_at)}</td>
              <td>{t(`review.status.${row.status}`)}</td>
              <td>{row.reason ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

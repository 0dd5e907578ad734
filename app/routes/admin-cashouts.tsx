import { Form } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/admin-cashouts";
import { getAppContext } from "../lib/context.server.ts";
import { adminCashoutsAction, adminCashoutsLoader } from "../lib/cashout-pages.server.ts";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { Link } from "react-router";
import "../lib/admin-catalog.ts";
import "../lib/monetization-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "admin:menu.cashouts");

/** `/admin/cashouts` (site admins): approve or reject each requested cashout, with a reason (audited). */
export async function loader({ context }: Route.LoaderArgs) {
  return adminCashoutsLoader(getAppContext(context));
}

export async function action({ context, request }: Route.ActionArgs) {
  return adminCashoutsAction(getAppContext(context), request);
}

function yuan(fen: number): string {
  return (fen / 100).toFixed(2);
}

export default function AdminCashouts({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("monetization");
  const locale = i18n.language as Locale;
  const time = (value: string) => formatDate(value, locale, { dateStyle: "medium", timeStyle: "short" });
  const notice = actionData && "notice" in actionData ? actionData.notice : null;
  const error = actionData && "formError" in actionData ? actionData.formError : null;
  const person = (row: (typeof loaderData.waiting)[number]) => (
    <Link to={localizePath(`/profile/${row.username}`, locale)}>{row.nickname}</Link>
  );
  return (
    <section className="panel">
      <h1 className="page-title">{t("admin.title")}</h1>
      {notice ? <p role="status">{notice}</p> : null}
      {error ? <p role="alert">{error}</p> : null}
      <h2>{t("admin.waiting")}</h2>
      {loaderData.waiting.length === 0 ? <p>{t("admin.none")}</p> : null}
      <ul className="admin-cashouts" data-testid="admin-cashouts">
        {loaderData.waiting.map((row) => (
          <li key={row.id}>
            <p>
              {person(row)} · {time(row.created_at)} · {t("cashout.coins", { count: row.amount })} · {`¥${yuan(row.net_fen)}`} ·{" "}
              {t("admin.payee")}: {t(`cashout.provider_${row.payee.provider}`)} {row.payee.account} ({row.payee.real_name})
            </p>
            <Form method="post">
              <input type="hidden" name="csrftoken" value={loaderData.csrfToken} />
              <input type="hidden" name="cashout_id" value={row.id} />
              <label>
                {t("admin.reason")} <input name="reason" maxLength={1000} />
              </label>{" "}
              <button type="submit" name="intent" value="approve">
                {t("admin.approve")}
              </button>{" "}
              <button type="submit" name="intent" value="reject">
                {t("admin.reject")}
              </button>
            </Form>
          </li>
        ))}
      </ul>
      <h2>{t("admin.recent")}</h2>
      <table className="admin-table">
        <thead>
          <tr>
            <th>{t("admin.user")}</th>
            <th>{t("cashout.col_time")}</th>
            <th>{t("cashout.col_amount")}</th>
            <th>{t("cashout.col_net")}</th>
            <th>{t("cashout.col_status")}</th>
          </tr>
        </thead>
        <tbody>
          {loaderData.recent.map((row) => (
            <tr key={row.id}>
              <td>{person(row)}</td>
              <td>{time(row.created_at)}</td>
              <td>{row.amount}</td>
              <td>{`¥${yuan(row.net_fen)}`}</td>
              <td>
                {t(`cashout.status.${row.status}`)}
                {row.reason ? ` · ${row.reason}` : ""}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

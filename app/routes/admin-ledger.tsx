import { Form } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/admin-ledger";
import { getAppContext } from "../lib/context.server.ts";
import { ledgerAction, ledgerLoader } from "../lib/admin-pages.server.ts";
import { formatDate, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import "../lib/admin-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "admin:menu.ledger");

/** `/admin/ledger` (admins): the last ledger check and a button to run it, and corrections (a second admin approves large ones). */
export async function loader({ context }: Route.LoaderArgs) {
  return ledgerLoader(getAppContext(context));
}

export async function action({ context, request }: Route.ActionArgs) {
  return ledgerAction(getAppContext(context), request);
}

export default function AdminLedger({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("admin");
  const locale = i18n.language as Locale;
  const { last } = loaderData;
  const notice = actionData && "notice" in actionData ? actionData.notice : null;
  const error = actionData && "formError" in actionData ? actionData.formError : null;
  return (
    <section className="panel">
      <h1 className="page-title">{t("menu.ledger")}</h1>
      {notice ? <p role="status">{notice}</p> : null}
      {error ? <p role="alert">{error}</p> : null}
      <h2>{t("ledger.last")}</h2>
      {last ? (
        <dl>
          <dt>{t("users.time")}</dt>
          <dd>{formatDate(last.ran_at, locale, { dateStyle: "medium", timeStyle: "medium" })}</dd>
          <dt>{t("ledger.transactions")}</dt>
          <dd>{last.transactions}</dd>
          <dt>{t("ledger.entries")}</dt>
          <dd>{last.entries}</dd>
          <dt>{t("ledger.problems")}</dt>
          <dd>
            {last.consistent
              ? t("dashboard.consistent")
              : [
                  ...last.unbalanced_transactions.map((id) => `#${id}`),
                  ...last.mismatched_users.map((u) => `user ${u.user_id} ${u.field}: ${u.cached} ≠ ${u.ledger}`),
                ].join("; ")}
          </dd>
        </dl>
      ) : (
        <p>{t("ledger.never")}</p>
      )}
      <Form method="post">
        <input type="hidden" name="csrftoken" value={loaderData.csrfToken} />
        <input type="hidden" name="intent" value="check" />
        <label>
          {t("users.reason")} <input name="reason" required />
        </label>{" "}
        <button type="submit">{t("ledger.run")}</button>
      </Form>
      <h2>{t("corrections.title")}</h2>
      <p>{t("corrections.explain", { amount: loaderData.approvalAbove })}</p>
      <Form method="post">
        <input type="hidden" name="csrftoken" value={loaderData.csrfToken} />
        <input type="hidden" name="intent" value="correct" />
        <label>
          {t("corrections.user_id")} <input name="user_id" type="number" min={1} required />
        </label>{" "}
        <label>
          {t("corrections.currency")}{" "}
          <select name="currency" defaultValue="sinecoin">
            <option value="sinecoin">{t("corrections.currencies.sinecoin")}</option>
            <option value="gold">{t("corrections.currencies.gold")}</option>
          </select>
        </label>{" "}
        <label>
          {t("corrections.amount")} <input name="amount" type="number" required />
        </label>{" "}
        <label>
          {t("users.reason")} <input name="reason" required />
        </label>{" "}
        <button type="submit">{t("corrections.submit")}</button>
      </Form>
      {loaderData.corrections.length === 0 ? (
        <p>{t("corrections.none")}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>#</th>
              <th>{t("users.time")}</th>
              <th>{t("corrections.user_id")}</th>
              <th>{t("corrections.amount")}</th>
              <th>{t("users.reason")}</th>
              <th>{t("corrections.state")}</th>
            </tr>
          </thead>
          <tbody>
            {loaderData.corrections.map((row) => (
              <tr key={row.id}>
                <td>{row.id}</td>
                <td>{formatDate(row.created_at, locale, { dateStyle: "medium", timeStyle: "short" })}</td>
                <td>
                  {row.user.username} (#{row.user.id})
                </td>
                <td>
                  {row.amount} {t(`corrections.currencies.${row.currency}`)}
                </td>
                <td>{row.reason}</td>
                <td>
                  {t(`corrections.status.${row.status}`)}
                  {row.status === "pending" && row.requested_by === loaderData.viewerId ? <> · {t("corrections.yours")}</> : null}
                  {row.status === "pending" && row.requested_by !== loaderData.viewerId
                    ? (["approve", "reject"] as const).map((intent) => (
                        <Form method="post" key={intent}>
                          <input type="hidden" name="csrftoken" value={loaderData.csrfToken} />
                          <input type="hidden" name="intent" value={intent} />
                          <input type="hidden" name="correction_id" value={row.id} />
                          <label>
                            {t("users.reason")} <input name="reason" required />
                          </label>{" "}
                          <button type="submit">{t(`corrections.${intent}`)}</button>
                        </Form>
                      ))
                    : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

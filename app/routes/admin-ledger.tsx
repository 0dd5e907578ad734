import { Form } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/admin-ledger";
import { getAppContext } from "../lib/context.server.ts";
import { ledgerAction, ledgerLoader } from "../lib/admin-pages.server.ts";
import { formatDate, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import "../lib/admin-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "admin:menu.ledger");

/** `/admin/ledger` (admins): the last ledger check and a button to run it. */
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
    </section>
  );
}

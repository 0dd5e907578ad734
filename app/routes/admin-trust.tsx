import { Form, Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/admin-trust";
import { getAppContext } from "../lib/context.server.ts";
import { trustAction, trustLoader } from "../lib/admin-trust-pages.server.ts";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import "../lib/admin-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "admin:menu.trust");

/** `/admin/trust` (admins): the rings the nightly job found, with members and evidence, and today's uncounted actions. */
export async function loader({ context, request }: Route.LoaderArgs) {
  return trustLoader(getAppContext(context), request);
}

export async function action({ context, request }: Route.ActionArgs) {
  return trustAction(getAppContext(context), request);
}

export default function AdminTrust({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("admin");
  const locale = i18n.language as Locale;
  const { rings, verdicts, status } = loaderData;
  const notice = actionData && "notice" in actionData ? actionData.notice : null;
  const error = actionData && "formError" in actionData ? actionData.formError : null;
  const base = localizePath("/admin/trust", locale);
  const users = localizePath("/admin/users", locale);
  return (
    <section className="panel">
      <h1 className="page-title">{t("menu.trust")}</h1>
      {notice ? <p role="status">{notice}</p> : null}
      {error ? <p role="alert">{error}</p> : null}
      <h2>{t("trust.verdicts_today")}</h2>
      {verdicts.length === 0 ? (
        <p>{t("trust.no_verdicts")}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>{t("trust.action")}</th>
              <th>{t("trust.reason")}</th>
              <th>{t("trust.count")}</th>
            </tr>
          </thead>
          <tbody>
            {verdicts.map((row) => (
              <tr key={`${row.action}-${row.reason}`}>
                <td>{t(`trust.actions.${row.action}`)}</td>
                <td>{t(`trust.reasons.${row.reason}`)}</td>
                <td>{row.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>{t("trust.rings")}</h2>
      <nav aria-label={t("trust.rings")}>
        {status === "open" ? <strong>{t("trust.open")}</strong> : <Link to={base}>{t("trust.open")}</Link>}
        {" · "}
        {status === "dismissed" ? (
          <strong>{t("trust.dismissed_tab")}</strong>
        ) : (
          <Link to={`${base}?status=dismissed`}>{t("trust.dismissed_tab")}</Link>
        )}
      </nav>
      {rings.length === 0 ? <p>{t("trust.none")}</p> : null}
      {rings.map((ring) => {
        const names = new Map(ring.members.map((member) => [member.id, member.username]));
        return (
          <article key={ring.id} className="admin-ring" aria-label={t("trust.ring", { id: ring.id })}>
            <h3>{t("trust.ring", { id: ring.id })}</h3>
            <p>
              {t("trust.found", {
                first: formatDate(ring.found_at, locale, { dateStyle: "medium", timeStyle: "short" }),
                last: formatDate(ring.last_found_at, locale, { dateStyle: "medium", timeStyle: "short" }),
              })}
            </p>
            <ul>
              {ring.members.map((member) => (
                <li key={member.id}>
                  <Link to={`${users}/${member.id}`}>{member.username}</Link> ({member.nickname}) · {t("trust.score")}{" "}
                  {member.intelligence_score}
                </li>
              ))}
            </ul>
            <p>
              {t("trust.share", {
                share: Math.round(ring.evidence.inside_share * 100),
                inside: ring.evidence.inside,
                given: ring.evidence.given,
                days: ring.evidence.window_days,
              })}
            </p>
            {ring.evidence.shared.length > 0 ? (
              <ul>
                {ring.evidence.shared.map((shared) => (
                  <li key={`${shared.kind}-${shared.value}`}>
                    {t(`trust.shared.${shared.kind}`)}: {shared.value} — {shared.users.map((id) => names.get(id) ?? `#${id}`).join(", ")}
                  </li>
                ))}
              </ul>
            ) : null}
            {ring.evidence.pairs.length > 0 ? (
              <table>
                <thead>
                  <tr>
                    <th>{t("trust.from")}</th>
                    <th>{t("trust.to")}</th>
                    <th>{t("trust.actions.like")}</th>
                    <th>{t("trust.actions.follow")}</th>
                    <th>{t("trust.actions.tip")}</th>
                  </tr>
                </thead>
                <tbody>
                  {ring.evidence.pairs.map((pair) => (
                    <tr key={`${pair.from}-${pair.to}`}>
                      <td>{names.get(pair.from) ?? `#${pair.from}`}</td>
                      <td>{names.get(pair.to) ?? `#${pair.to}`}</td>
                      <td>{pair.likes}</td>
                      <td>{pair.follows}</td>
                      <td>{pair.tips}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ) : null}
            {ring.status === "open" ? (
              <Form method="post">
                <input type="hidden" name="csrftoken" value={loaderData.csrfToken} />
                <input type="hidden" name="intent" value="dismiss" />
                <input type="hidden" name="ring_id" value={ring.id} />
                <label>
                  {t("users.reason")} <input name="reason" required />
                </label>{" "}
                <button type="submit">{t("trust.dismiss")}</button>
              </Form>
            ) : (
              <p>{t("trust.dismissed_because", { reason: ring.decision_reason })}</p>
            )}
          </article>
        );
      })}
    </section>
  );
}

import { Form } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/admin-announcements";
import { getAppContext } from "../lib/context.server.ts";
import { announcementsAction, announcementsLoader } from "../lib/admin-content-pages.server.ts";
import { formatDate, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import "../lib/admin-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "admin:menu.announcements");
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** `/admin/announcements`: write one in both languages (now or at a Beijing time), withdraw one; each with a reason. */
export async function loader({ context }: Route.LoaderArgs) {
  return announcementsLoader(getAppContext(context));
}

export async function action({ context, request }: Route.ActionArgs) {
  return announcementsAction(getAppContext(context), request);
}

export default function AdminAnnouncements({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("admin");
  const locale = i18n.language as Locale;
  const notice = actionData && "notice" in actionData ? actionData.notice : null;
  const error = actionData && "formError" in actionData ? actionData.formError : null;
  const typed: Record<string, string> = actionData && "values" in actionData ? actionData.values : {};
  const time = (value: string) => formatDate(value, locale, { dateStyle: "medium", timeStyle: "short" });
  return (
    <section className="panel">
      <h1 className="page-title">{t("menu.announcements")}</h1>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <h2>{t("announcements.write")}</h2>
      <Form method="post" className="admin-form">
        <input type="hidden" name="csrftoken" value={loaderData.csrfToken} />
        <input type="hidden" name="intent" value="publish" />
        {(["title_zh", "title_en"] as const).map((name) => (
          <p key={name}>
            <label>
              {t(`announcements.${name}`)}
              <br />
              <input name={name} required maxLength={100} size={60} defaultValue={typed[name]} />
            </label>
          </p>
        ))}
        {(["body_zh", "body_en"] as const).map((name) => (
          <p key={name}>
            <label>
              {t(`announcements.${name}`)}
              <br />
              <textarea name={name} required maxLength={5000} rows={5} cols={60} defaultValue={typed[name]} />
            </label>
          </p>
        ))}
        <p>
          <label>
            {t("announcements.publish_at")} <input type="datetime-local" name="publish_at" defaultValue={typed.publish_at} />
          </label>
        </p>
        <p>
          <label>
            {t("announcements.reason")} <input name="reason" required maxLength={1000} defaultValue={typed.reason} />
          </label>
        </p>
        <button type="submit">{t("announcements.publish")}</button>
      </Form>
      <h2>{t("announcements.list")}</h2>
      {loaderData.announcements.length === 0 ? (
        <p>{t("announcements.none")}</p>
      ) : (
        <table className="admin-table">
          <thead>
            <tr>
              <th>{t("announcements.time")}</th>
              <th>{t("announcements.title_zh")}</th>
              <th>{t("announcements.title_en")}</th>
              <th>{t("announcements.status")}</th>
              <th>{t("announcements.withdraw")}</th>
            </tr>
          </thead>
          <tbody>
            {loaderData.announcements.map((item) => (
              <tr key={item.id} data-testid={`announcement-${item.id}`}>
                <td>{time(item.publish_at)}</td>
                <td>{item.title_zh}</td>
                <td>{item.title_en}</td>
                <td>{t(`announcements.statuses.${item.status}`)}</td>
                <td>
                  {item.status === "withdrawn" ? null : (
                    <Form method="post" className="inline-form">
                      <input type="hidden" name="csrftoken" value={loaderData.csrfToken} />
                      <input type="hidden" name="intent" value="withdraw" />
                      <input type="hidden" name="id" value={item.id} />
                      <label>
                        {t("announcements.reason")} <input name="reason" required maxLength={1000} />
                      </label>{" "}
                      <button type="submit">{t("announcements.withdraw")}</button>
                    </Form>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

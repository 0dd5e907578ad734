import { Form } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/admin-missions";
import { getAppContext } from "../lib/context.server.ts";
import { adminMissionsAction, adminMissionsLoader } from "../lib/admin-missions-pages.server.ts";
import { pageMeta } from "../lib/meta.ts";
import { Amount } from "../components/coins.tsx";
import "../lib/admin-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "admin:menu.missions");
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** `/admin/missions` (admins): make missions, change their terms, pause and resume them; each write with a reason, audited. */
export async function loader({ context }: Route.LoaderArgs) {
  return adminMissionsLoader(getAppContext(context));
}

export async function action({ context, request }: Route.ActionArgs) {
  return adminMissionsAction(getAppContext(context), request);
}

const scopes = ["daily", "weekly", "creator"] as const;

export default function AdminMissions({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { missions, metrics, csrfToken } = loaderData;
  const notice = actionData && "notice" in actionData ? actionData.notice : null;
  const error = actionData && "formError" in actionData ? actionData.formError : null;
  const failedOn = actionData && "missionId" in actionData ? actionData.missionId : null;
  /** What was typed into the form that failed (the new mission's when `failedOn` is null). */
  const typed: Record<string, string> = actionData && "values" in actionData ? actionData.values : {};
  const typedFor = (id: number | null) =>
    actionData && "values" in actionData && failedOn === (id === null ? null : String(id)) ? typed : {};
  const fresh = typedFor(null);
  const metricSelect = (name: string, value: string | undefined) => (
    <select name={name} defaultValue={value} required>
      {metrics.map((metric) => (
        <option key={metric} value={metric}>
          {t(`missions.metrics.${metric}`)}
        </option>
      ))}
    </select>
  );
  return (
    <section className="panel">
      <h1 className="page-title">{t("menu.missions")}</h1>
      <p className="muted">{t("missions.intro")}</p>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {error && failedOn === null ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {scopes.map((scope) => {
        const rows = missions.filter((mission) => mission.scope === scope);
        return (
          <section key={scope}>
            <h2>{t(`missions.scopes.${scope}`)}</h2>
            {rows.length === 0 ? <p>{t("missions.none")}</p> : null}
            {rows.map((mission) => {
              const values = typedFor(mission.id);
              return (
                <article key={mission.id} className="admin-mission" data-mission={mission.key}>
                  <h3>
                    {mission.title_zh} / {mission.title_en} <code>{mission.key}</code>{" "}
                    <span className="muted">{t(mission.active ? "missions.active" : "missions.paused_state")}</span>
                  </h3>
                  <p>
                    {t(`missions.metrics.${mission.metric}`)} · {t("missions.target")} {mission.target} · {t("missions.reward")}{" "}
                    <Amount value={mission.reward.amount} currency={mission.reward.currency} /> ·{" "}
                    {t("missions.claimed_count", { count: mission.claimed })}
                  </p>
                  {failedOn === String(mission.id) && error ? (
                    <p className="form-error" role="alert">
                      {error}
                    </p>
                  ) : null}
                  <details>
                    <summary>{t("missions.edit")}</summary>
                    <Form method="post" className="admin-form">
                      <input type="hidden" name="csrftoken" value={csrfToken} />
                      <input type="hidden" name="intent" value="update" />
                      <input type="hidden" name="id" value={mission.id} />
                      <p>
                        <label>
                          {t("missions.title_zh")}{" "}
                          <input name="title_zh" required maxLength={100} defaultValue={values.title_zh ?? mission.title_zh} />
                        </label>
                      </p>
                      <p>
                        <label>
                          {t("missions.title_en")}{" "}
                          <input name="title_en" required maxLength={100} defaultValue={values.title_en ?? mission.title_en} />
                        </label>
                      </p>
                      <p>
                        <label>
                          {t("missions.metric")} {metricSelect("metric", values.metric ?? mission.metric)}
                        </label>
                      </p>
                      <p>
                        <label>
                          {t("missions.target")}{" "}
                          <input
                            type="number"
                            name="target"
                            min={1}
                            max={1_000_000}
                            required
                            defaultValue={values.target ?? mission.target}
                          />
                        </label>{" "}
                        <label>
                          {t("missions.reward")} ({t(`missions.currencies.${mission.reward.currency}`)}){" "}
                          <input
                            type="number"
                            name="reward_amount"
                            min={1}
                            max={100_000}
                            required
                            defaultValue={values.reward_amount ?? mission.reward.amount}
                          />
                        </label>{" "}
                        <label>
                          {t("missions.position")}{" "}
                          <input type="number" name="position" min={0} max={10_000} defaultValue={values.position ?? mission.position} />
                        </label>
                      </p>
                      <p>
                        <label>
                          {t("missions.reason")} <input name="reason" required maxLength={1000} defaultValue={values.reason} />
                        </label>{" "}
                        <button type="submit">{t("missions.save")}</button>
                      </p>
                    </Form>
                  </details>
                  <Form method="post" className="inline-form">
                    <input type="hidden" name="csrftoken" value={csrfToken} />
                    <input type="hidden" name="intent" value={mission.active ? "pause" : "resume"} />
                    <input type="hidden" name="id" value={mission.id} />
                    <label>
                      {t("missions.reason")} <input name="reason" required maxLength={1000} />
                    </label>{" "}
                    <button type="submit">{t(mission.active ? "missions.pause" : "missions.resume")}</button>
                  </Form>
                </article>
              );
            })}
          </section>
        );
      })}
      <h2>{t("missions.create")}</h2>
      <Form method="post" className="admin-form">
        <input type="hidden" name="csrftoken" value={csrfToken} />
        <input type="hidden" name="intent" value="create" />
        <p>
          <label>
            {t("missions.key")} <input name="key" required pattern="[a-z][a-z0-9_]{2,47}" maxLength={48} defaultValue={fresh.key} />
          </label>{" "}
          <span className="muted">{t("missions.key_hint")}</span>
        </p>
        <p>
          <label>
            {t("missions.scope")}{" "}
            <select name="scope" required defaultValue={fresh.scope ?? "daily"}>
              {scopes.map((scope) => (
                <option key={scope} value={scope}>
                  {t(`missions.scopes.${scope}`)}
                </option>
              ))}
            </select>
          </label>{" "}
          <span className="muted">{t("missions.scope_hint")}</span>
        </p>
        <p>
          <label>
            {t("missions.metric")} {metricSelect("metric", fresh.metric)}
          </label>
        </p>
        <p>
          <label>
            {t("missions.target")} <input type="number" name="target" min={1} max={1_000_000} required defaultValue={fresh.target} />
          </label>{" "}
          <label>
            {t("missions.reward")}{" "}
            <input type="number" name="reward_amount" min={1} max={100_000} required defaultValue={fresh.reward_amount} />
          </label>{" "}
          <label>
            {t("missions.position")} <input type="number" name="position" min={0} max={10_000} defaultValue={fresh.position ?? "0"} />
          </label>
        </p>
        <p>
          <label>
            {t("missions.title_zh")} <input name="title_zh" required maxLength={100} defaultValue={fresh.title_zh} />
          </label>
        </p>
        <p>
          <label>
            {t("missions.title_en")} <input name="title_en" required maxLength={100} defaultValue={fresh.title_en} />
          </label>
        </p>
        <p>
          <label>
            {t("missions.reason")} <input name="reason" required maxLength={1000} defaultValue={fresh.reason} />
          </label>
        </p>
        <button type="submit">{t("missions.create_button")}</button>
      </Form>
    </section>
  );
}

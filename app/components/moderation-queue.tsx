import { Form, Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import type { PresentedCase } from "../../features/reports/operations.ts";
import "../lib/moderation-catalog.ts";

const statuses = ["open", "decided", "all"] as const;
const actions = ["hide", "restore", "delete", "dismiss"] as const;

const when = (value: string, locale: Locale) => formatDate(value, locale, { dateStyle: "medium", timeStyle: "short" });

/**
 * A moderation queue: a status filter (a plain GET form), then each case with its subject, its
 * reasons and reporters together, its history (who decided what, when, with which note) and a
 * decision form (hide, restore, delete, dismiss with a note) that posts back to the page.
 */
export function ModerationQueue({
  cases,
  status,
  path,
  csrfToken,
}: {
  cases: PresentedCase[];
  status: (typeof statuses)[number];
  /** The queue page's own path (already localized). */
  path: string;
  csrfToken: string;
}) {
  const { t, i18n } = useTranslation("moderation");
  const locale = i18n.language as Locale;
  return (
    <div className="moderation-queue">
      <Form method="get" action={path} className="search-form" aria-label={t("queue.filter")}>
        <label htmlFor="queue-status">{t("queue.status_label")}</label>
        <select id="queue-status" name="status" className="native-select" defaultValue={status}>
          {statuses.map((value) => (
            <option key={value} value={value}>
              {t(`queue.status.${value}`)}
            </option>
          ))}
        </select>
        <button type="submit" className="button">
          {t("queue.filter")}
        </button>
      </Form>
      {cases.length === 0 ? (
        <p className="muted" data-testid="queue-empty">
          {t("queue.empty")}
        </p>
      ) : (
        <ol className="case-list">
          {cases.map((item) => (
            <li key={item.id} className="case-item" data-testid="case" data-case-id={item.id}>
              <div className="case-head">
                <strong>{t("queue.case", { id: item.id })}</strong> <span className="tag">{t(`kinds.${item.subject.type}`)}</span>{" "}
                {item.status === "decided" && item.decision ? (
                  <span className="tag">{t(`queue.decided_as.${item.decision}`)}</span>
                ) : (
                  <span className="tag">{t("queue.status.open")}</span>
                )}{" "}
                <span className="tag" data-testid="case-visibility">
                  {item.hidden ? t("queue.state_hidden") : t("queue.state_visible")}
                </span>
              </div>
              <p className="case-subject">
                {item.decision === "delete" ? (
                  <span>{item.subject.title}</span>
                ) : (
                  <Link to={localizePath(item.subject.path, locale)} data-testid="case-subject">
                    {item.subject.title}
                  </Link>
                )}
                {item.author ? (
                  <span className="muted">
                    {" "}
                    · {t("queue.author")}: {item.author.nickname} (@{item.author.username})
                  </span>
                ) : null}
              </p>
              <p className="muted">
                {t("queue.reporters", { count: item.reporter_count })} · {t("queue.reasons")}:{" "}
                {item.reasons.map((reason) => t(`interactions:report.reasons.${reason}`)).join(", ")} ·{" "}
                {t("queue.opened", { time: when(item.created_at, locale) })}
              </p>
              <details>
                <summary>{t("queue.reports")}</summary>
                <ul className="case-reports">
                  {item.reports.map((report) => (
                    <li key={report.id}>
                      {t("queue.reported_by", {
                        name: report.reporter.nickname,
                        reason: t(`interactions:report.reasons.${report.reason}`),
                        time: when(report.created_at, locale),
                      })}
                      {report.description ? <q className="case-description">{report.description}</q> : null}
                    </li>
                  ))}
                </ul>
              </details>
              <div className="case-history">
                <h3>{t("queue.history")}</h3>
                {item.history.length === 0 ? (
                  <p className="muted">{t("queue.no_history")}</p>
                ) : (
                  <ul data-testid="case-history">
                    {item.history.map((decision) => (
                      <li key={decision.id}>
                        {decision.actor
                          ? t("queue.by", {
                              action: t(`queue.decided_as.${decision.action}`),
                              name: decision.actor.nickname,
                              time: when(decision.created_at, locale),
                            })
                          : t("queue.by_unknown", {
                              action: t(`queue.decided_as.${decision.action}`),
                              time: when(decision.created_at, locale),
                            })}
                        {decision.note ? <q className="case-description">{decision.note}</q> : null}
                      </li>
                    ))}
                  </ul>
                )}
              </div>
              {item.decision === "delete" ? (
                <p className="muted">{t("queue.closed")}</p>
              ) : (
                <Form method="post" action={`${path}?status=${status}`} className="case-decision" data-testid="case-decision">
                  <input type="hidden" name="csrftoken" value={csrfToken} />
                  <input type="hidden" name="case_id" value={item.id} />
                  <fieldset className="plain-fieldset">
                    <legend>{t("queue.decision")}</legend>
                    <div className="radio-row case-actions">
                      {actions.map((action) => (
                        <label key={action}>
                          <input type="radio" name="action" value={action} required data-testid={`action-${action}`} />{" "}
                          {t(`queue.actions.${action}`)}
                        </label>
                      ))}
                    </div>
                  </fieldset>
                  <label htmlFor={`note-${item.id}`}>{t("queue.note")}</label>
                  <textarea
                    id={`note-${item.id}`}
                    name="note"
                    className="text-input"
                    rows={2}
                    maxLength={500}
                    placeholder={t("queue.note_hint")}
                  />
                  <button type="submit" name="intent" value="resolve" className="button button-primary" data-testid="decide">
                    {t("queue.decide")}
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}

import type { ReactNode } from "react";
import { Form } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { InteractionSummary } from "../../features/reactions/viewer-state.ts";
import type { AnswerItem } from "../../features/questions/types.ts";
import { ActionBar } from "./action-bar.tsx";
import { RenderedContent } from "./rendered-content.tsx";
import { AnswerTimes, PersonLine } from "./question-parts.tsx";
import "../lib/questions-catalog.ts";

/**
 * One answer as the question page and the answer's own page show it: the author card with the
 * accepted mark, published and edited times, the content (or what replaces it: the edit form), the
 * action bar, the page's own actions, delete (asked first, also without JavaScript) and what
 * follows (its comments).
 */
export function AnswerCard({
  answer,
  questionTitle,
  language,
  interactions,
  csrfToken,
  canDelete,
  confirmDelete,
  id,
  label,
  panel = false,
  testId,
  content,
  actions,
  children,
}: {
  answer: AnswerItem;
  questionTitle: string;
  language?: string;
  interactions: InteractionSummary;
  csrfToken: string | null;
  canDelete: boolean;
  /** The page without JavaScript asks before deleting: this answer's question is shown. */
  confirmDelete: boolean;
  id: string;
  label: string;
  panel?: boolean;
  testId: string;
  /** Shown instead of the rendered answer (its author's edit form). */
  content?: ReactNode;
  /** Actions before Delete (open on its own, accept, edit). */
  actions?: ReactNode;
  /** After the actions: the comments. */
  children?: ReactNode;
}) {
  const { t } = useTranslation("questions");
  const classes = ["answer-card", answer.accepted ? "answer-card-accepted" : "", panel ? "panel" : ""].filter(Boolean).join(" ");
  return (
    <article className={classes} id={id} aria-label={label} data-testid={testId}>
      <PersonLine person={answer.author}>
        {answer.accepted ? (
          <span className="accepted-badge" data-testid="accepted-badge">
            {t("question.accepted")}
          </span>
        ) : null}
      </PersonLine>
      <AnswerTimes answer={answer} />
      {content ?? <RenderedContent html={answer.html} lang={language} />}
      <ActionBar subjectType="answer" subjectId={answer.id} summary={interactions} csrfToken={csrfToken} title={questionTitle} />
      <div className="question-actions">
        {actions}
        {canDelete && csrfToken ? (
          <Form method="post" className="inline-form">
            <input type="hidden" name="csrftoken" value={csrfToken} />
            <input type="hidden" name="intent" value="delete-answer" />
            <input type="hidden" name="answer_id" value={answer.id} />
            {confirmDelete ? <input type="hidden" name="confirmed" value="1" /> : null}
            {confirmDelete ? (
              <p className="form-error" role="alert">
                {t("question.confirm_delete_answer")}
              </p>
            ) : null}
            <button type="submit" className="button button-danger" data-testid={confirmDelete ? "confirm-delete-answer" : "delete-answer"}>
              {confirmDelete ? t("question.confirm_delete") : t("question.delete_answer")}
            </button>
          </Form>
        ) : null}
      </div>
      {children}
    </article>
  );
}

import { Form } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { formatDate, type Locale } from "../../common/locale.ts";
import { MarkdownEditorField } from "./markdown-editor-field.tsx";
import { AutosaveStatusText, DraftConflict } from "./draft-status.tsx";
import { useMarkdownEditor } from "../lib/use-markdown-editor.ts";
import { useDraftAutosave } from "../lib/use-draft-autosave.ts";
import "../lib/questions-catalog.ts";
import "../lib/editor-catalog.ts";

export interface AnswerDraft {
  key: string;
  version: number;
  body: string | null;
  updatedAt: string | null;
}

/**
 * The answer form: the same editor as asking (Markdown toolbar, formulas, code, image upload and
 * the live preview; CodeMirror is imported only once the page is hydrated) and a server draft
 * saved while typing. Without JavaScript it is the plain textarea the form posts.
 */
export function AnswerEditor({
  csrfToken,
  circleId,
  draft,
  initialText,
  formError,
  error,
}: {
  csrfToken: string;
  circleId: number;
  draft: AnswerDraft;
  initialText: string | undefined;
  formError?: string;
  error?: string;
}) {
  const { t, i18n } = useTranslation("questions");
  const locale = i18n.language as Locale;
  const autosave = useDraftAutosave({
    draftKey: draft.key,
    initialVersion: draft.version,
    csrfToken,
    snapshot: () => ({ title: "", body: markdown.content, fields: { circle_id: circleId } }),
  });
  const markdown = useMarkdownEditor({
    initialText: initialText ?? draft.body ?? "",
    label: t("question.answer_label"),
    csrfToken,
    onEdit: () => autosave.markDirty(),
  });
  const status = autosave.status;
  return (
    <Form method="post" className="answer-box" preventScrollReset onSubmit={() => autosave.stop()}>
      <input type="hidden" name="csrftoken" value={csrfToken} />
      <input type="hidden" name="intent" value="answer" />
      {formError ? (
        <p className="form-error" role="alert" data-testid="answer-error">
          {formError}
        </p>
      ) : null}
      {draft.updatedAt && initialText === undefined ? (
        <p className="notice" role="status" data-testid="answer-draft-restored">
          {t("editor:editor.restored", { time: formatDate(draft.updatedAt, locale, { dateStyle: "short", timeStyle: "short" }) })}
        </p>
      ) : null}
      {status.state === "conflict" ? (
        <DraftConflict
          status={status}
          onKeepMine={autosave.keepMine}
          onTakeTheirs={(current) => {
            autosave.takeTheirs(current);
            markdown.replaceText(current.body);
          }}
        />
      ) : null}
      <MarkdownEditorField
        editor={markdown}
        id="answer-content"
        label={t("question.answer_label")}
        hint={t("question.answer_hint")}
        error={error}
        rows={10}
      />
      <div className="form-actions">
        <button type="submit" className="button button-primary" data-testid="answer-submit">
          {t("question.answer_submit")}
        </button>
        <AutosaveStatusText status={status} />
      </div>
    </Form>
  );
}

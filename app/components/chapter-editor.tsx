import { useState } from "react";
import { Form, Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import { FormField, describedBy } from "./form-field.tsx";
import { MarkdownEditorField } from "./markdown-editor-field.tsx";
import { chapterTitleMaxLength, createChapterSchema } from "../../features/books/schema.ts";
import { useFormValidation } from "../lib/use-form-validation.ts";
import { useMarkdownEditor } from "../lib/use-markdown-editor.ts";
import { chapterBackupKey, chapterBackupScope, useLocalBackup, type BackupText } from "../lib/use-local-backup.ts";
import "../../features/books/catalog.ts";

export interface ChapterEditorProps {
  action: string;
  csrfToken: string;
  title: string;
  content: string;
  /** Server-rendered preview of the text last posted with "Preview" (the pipeline's sanitized HTML). */
  previewHtml: string | null;
  errors?: Record<string, string>;
  submitLabel: string;
  /** Whose browser backup this form keeps, and of which chapter (null: the add-chapter form). */
  backup: { userId: number; bookId: number; chapterId: number | null };
  /** The title and text the server has for this form (the stored chapter, or empty for a new one). */
  serverText: BackupText;
  /** The text the server just saved (the edit form's success answer). */
  savedText?: BackupText | null;
}

const chapterInputFromForm = (form: FormData) => ({ title: form.get("title") ?? undefined, content: form.get("content") ?? undefined });

/**
 * The chapter editor: a title and the shared Markdown field (the writing editor's CodeMirror,
 * toolbar, image upload and live preview once JavaScript runs). Without JavaScript the text is a
 * plain textarea and "Preview" posts the form for a preview rendered on the server by the same
 * pipeline that publishes. A failed save keeps everything typed: the field's text lives in this
 * component, and without JavaScript the action sends the posted values back.
 */
export function ChapterEditor({
  action,
  csrfToken,
  title,
  content,
  previewHtml,
  errors: serverErrors,
  submitLabel,
  backup,
  serverText,
  savedText = null,
}: ChapterEditorProps) {
  const { t, i18n } = useTranslation("books");
  const locale = i18n.language as Locale;
  const { errors, onSubmit } = useFormValidation(createChapterSchema, chapterInputFromForm, serverErrors);
  const [titleText, setTitleText] = useState(title);
  const markdown = useMarkdownEditor({ initialText: content, label: t("chapter_editor.content"), csrfToken, initialPreview: previewHtml });
  const local = useLocalBackup({
    key: chapterBackupKey(backup.userId, backup.bookId, backup.chapterId),
    server: serverText,
    current: { title: titleText, content: markdown.content },
    saved: savedText,
  });
  const restore = () => {
    const taken = local.restore();
    if (!taken) return;
    setTitleText(taken.title);
    markdown.replaceText(taken.content);
  };
  return (
    <>
      {local.offer ? (
        <section className="panel editor-conflict" role="alert" aria-labelledby="chapter-backup-title" data-testid="chapter-backup">
          <h2 id="chapter-backup-title">{t("chapter_editor.backup_title")}</h2>
          <p>
            {t("chapter_editor.backup_text", {
              time: formatDate(new Date(local.offer.savedAt), locale, { dateStyle: "medium", timeStyle: "short" }),
            })}
          </p>
          {local.offer.title ? (
            <p>
              <strong>{local.offer.title}</strong>
            </p>
          ) : null}
          <pre className="editor-conflict-text">{local.offer.content}</pre>
          <div className="editor-conflict-choices">
            <button type="button" className="button button-primary" onClick={restore} data-testid="chapter-backup-restore">
              {t("chapter_editor.backup_restore")}
            </button>
            <button type="button" className="button" onClick={local.discard} data-testid="chapter-backup-discard">
              {t("chapter_editor.backup_discard")}
            </button>
          </div>
        </section>
      ) : null}
      {local.restored ? (
        <p className="notice" role="status" data-testid="chapter-backup-restored">
          {t(backup.chapterId === null ? "chapter_editor.backup_restored_new" : "chapter_editor.backup_restored_edit")}
        </p>
      ) : null}
      <Form
        method="post"
        action={action}
        noValidate
        preventScrollReset
        onSubmit={(event) => {
          // Previewing an unfinished chapter is fine; only publishing is checked first.
          const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
          if (submitter?.value === "preview") return;
          onSubmit(event);
          // Kept now, whatever happens to the post; the page a successful publish opens removes it.
          if (!event.defaultPrevented) local.submitting(backup.chapterId === null ? chapterBackupScope(backup.bookId) : null);
        }}
        className="chapter-editor"
      >
        <input type="hidden" name="csrftoken" value={csrfToken} />
        <FormField id="chapter-title" label={t("chapter_editor.title")} error={errors.title}>
          <input
            id="chapter-title"
            name="title"
            // Without JavaScript the refused form opens at the title (focused and scrolled to).
            autoFocus={Boolean(serverErrors?.title)}
            className="text-input"
            value={titleText}
            onChange={(event) => setTitleText(event.target.value)}
            maxLength={chapterTitleMaxLength}
            required
            {...describedBy("chapter-title", errors.title)}
          />
        </FormField>
        <MarkdownEditorField
          editor={markdown}
          id="chapter-content"
          label={t("chapter_editor.content")}
          hint={t("chapter_editor.hint")}
          error={errors.content}
          rows={18}
          previewEmpty={t("chapter_editor.preview_empty")}
        />
        <p className="muted">
          <Link to={localizePath("/help/formatting", locale)} target="_blank" rel="noopener">
            {t("chapter_editor.guide")}
          </Link>
        </p>
        <div className="form-actions">
          {markdown.ready ? null : (
            <button type="submit" name="intent" value="preview" className="button" formNoValidate>
              {t("chapter_editor.preview")}
            </button>
          )}
          <button type="submit" name="intent" value="publish" className="button button-primary" data-testid="chapter-publish">
            {submitLabel}
          </button>
        </div>
      </Form>
    </>
  );
}

import { Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import { localizePath, type Locale } from "../../common/locale.ts";
import { FormField, describedBy } from "./form-field.tsx";
import { MarkdownEditorField } from "./markdown-editor-field.tsx";
import { chapterTitleMaxLength, createChapterSchema } from "../../features/books/schema.ts";
import { useFormValidation } from "../lib/use-form-validation.ts";
import { useMarkdownEditor } from "../lib/use-markdown-editor.ts";
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
}

const chapterInputFromForm = (form: FormData) => ({ title: form.get("title") ?? undefined, content: form.get("content") ?? undefined });

/**
 * The chapter editor: a title and the shared Markdown field (the writing editor's CodeMirror,
 * toolbar, image upload and live preview once JavaScript runs). Without JavaScript the text is a
 * plain textarea and "Preview" posts the form for a preview rendered on the server by the same
 * pipeline that publishes. A failed save keeps everything typed: the field's text lives in this
 * component, and without JavaScript the action sends the posted values back.
 */
export function ChapterEditor({ action, csrfToken, title, content, previewHtml, errors: serverErrors, submitLabel }: ChapterEditorProps) {
  const { t, i18n } = useTranslation("books");
  const locale = i18n.language as Locale;
  const { errors, onSubmit } = useFormValidation(createChapterSchema, chapterInputFromForm, serverErrors);
  const markdown = useMarkdownEditor({ initialText: content, label: t("chapter_editor.content"), csrfToken, initialPreview: previewHtml });
  return (
    <Form
      method="post"
      action={action}
      noValidate
      preventScrollReset
      onSubmit={(event) => {
        // Previewing an unfinished chapter is fine; only publishing is checked first.
        const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
        if (submitter?.value !== "preview") onSubmit(event);
      }}
      className="chapter-editor"
    >
      <input type="hidden" name="csrftoken" value={csrfToken} />
      <FormField id="chapter-title" label={t("chapter_editor.title")} error={errors.title}>
        <input id="chapter-title" name="title" className="text-input" defaultValue={title} maxLength={chapterTitleMaxLength} required {...describedBy("chapter-title", errors.title)} />
      </FormField>
      <MarkdownEditorField editor={markdown} id="chapter-content" label={t("chapter_editor.content")} hint={t("chapter_editor.hint")} error={errors.content} rows={18} previewEmpty={t("chapter_editor.preview_empty")} />
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
  );
}

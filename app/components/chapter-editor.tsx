import { Form, Link } from "react-router";
import { useTranslation } from "react-i18next";
import { localizePath, type Locale } from "../../common/locale.ts";
import { FormField, describedBy } from "./form-field.tsx";
import { RenderedContent } from "./rendered-content.tsx";
import { chapterTitleMaxLength, createChapterSchema } from "../../features/books/schema.ts";
import { useFormValidation } from "../lib/use-form-validation.ts";
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
 * The chapter editor: a title, a Markdown textarea and a preview rendered on the server by the
 * same pipeline that publishes (a form post, so it works without JavaScript). Kept in this one
 * component so the shared writing editor can replace it.
 */
export function ChapterEditor({ action, csrfToken, title, content, previewHtml, errors: serverErrors, submitLabel }: ChapterEditorProps) {
  const { t, i18n } = useTranslation("books");
  const locale = i18n.language as Locale;
  const { errors, onSubmit } = useFormValidation(createChapterSchema, chapterInputFromForm, serverErrors);
  return (
    <>
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
        <FormField id="chapter-content" label={t("chapter_editor.content")} hint={t("chapter_editor.hint")} error={errors.content}>
          <textarea id="chapter-content" name="content" className="text-input text-area chapter-textarea" rows={18} defaultValue={content} required {...describedBy("chapter-content", errors.content, t("chapter_editor.hint"))} />
        </FormField>
        <p className="muted">
          <Link to={localizePath("/help/formatting", locale)} target="_blank" rel="noopener">
            {t("chapter_editor.guide")}
          </Link>
        </p>
        <div className="form-actions">
          <button type="submit" name="intent" value="preview" className="button" formNoValidate>
            {t("chapter_editor.preview")}
          </button>
          <button type="submit" name="intent" value="publish" className="button button-primary">
            {submitLabel}
          </button>
        </div>
      </Form>
      {previewHtml !== null ? (
        <section className="chapter-preview" aria-labelledby="chapter-preview-title">
          <h2 id="chapter-preview-title">{t("chapter_editor.preview_title")}</h2>
          {previewHtml ? <RenderedContent html={previewHtml} /> : <p className="muted">{t("chapter_editor.preview_empty")}</p>}
        </section>
      ) : null}
    </>
  );
}

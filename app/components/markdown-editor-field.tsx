import { useTranslation } from "../lib/i18n.tsx";
import type { MarkdownEditor } from "../lib/use-markdown-editor.ts";
import { describedBy, FormField } from "./form-field.tsx";
import { acceptedImageTypes } from "../../features/attachments/constants.ts";
import "../lib/editor-catalog.ts";

interface MarkdownEditorFieldProps {
  editor: MarkdownEditor;
  /** Id of the plain textarea (its label points at it); the field's error and hint ids derive from it. */
  id: string;
  label: string;
  hint?: string;
  error?: string;
  rows?: number;
  /** What the preview pane says while it is empty. */
  previewEmpty?: string;
}

/**
 * A Markdown field of a form: without JavaScript a plain `<textarea name="content">` that the form
 * posts; with JavaScript, CodeMirror over it (the textarea stays, hidden, carrying the text), the
 * formatting toolbar, image upload by button, paste and drop, and the live preview beside it.
 */
export function MarkdownEditorField({ editor, id, label, hint, error, rows = 20, previewEmpty }: MarkdownEditorFieldProps) {
  const { t } = useTranslation("editor");
  const dropped = (files: File[], event: { preventDefault(): void }) => {
    if (files.length === 0) return;
    event.preventDefault();
    void editor.insertImages(files);
  };
  return (
    <FormField id={id} label={label} hint={hint} error={error}>
      {editor.ready ? (
        <div className="editor-toolbar" role="toolbar" aria-label={t("editor.toolbar")}>
          {editor.toolbar.map(([name, run]) => (
            <button key={name} type="button" className="button editor-tool" onClick={run} data-testid={`tool-${name}`}>
              {t(`editor.${name}`)}
            </button>
          ))}
          <label className="button editor-tool">
            {t("editor.image")}
            <input
              type="file"
              accept={acceptedImageTypes}
              className="visually-hidden"
              data-testid="tool-image"
              onChange={(event) => void editor.insertImages([...(event.target.files ?? [])]).then(() => (event.target.value = ""))}
            />
          </label>
        </div>
      ) : null}
      <div className="editor-panes">
        <div
          className="editor-source"
          onPaste={(event) => dropped([...event.clipboardData.files], event)}
          onDrop={(event) => dropped([...event.dataTransfer.files], event)}
        >
          <div ref={editor.parentRef} className="codemirror-host" hidden={!editor.ready} />
          <textarea
            id={id}
            name="content"
            className={editor.ready ? "visually-hidden" : "text-input editor-textarea"}
            value={editor.content}
            rows={rows}
            aria-hidden={editor.ready || undefined}
            tabIndex={editor.ready ? -1 : undefined}
            onChange={(event) => editor.typed(event.target.value)}
            data-testid="content-textarea"
            {...describedBy(id, error, hint)}
          />
          {!editor.ready ? <noscript>{t("editor.no_js")}</noscript> : null}
        </div>
        <section className="editor-preview" aria-label={t("editor.preview")} data-testid="preview">
          {editor.preview ? (
            <div className="rendered-content" dangerouslySetInnerHTML={{ __html: editor.preview }} />
          ) : (
            <p className="muted">{previewEmpty ?? t("editor.preview_empty")}</p>
          )}
        </section>
      </div>
      {editor.uploadStatus ? (
        <p className="muted" role="status">
          {editor.uploadStatus}
        </p>
      ) : null}
    </FormField>
  );
}

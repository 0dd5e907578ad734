import { useRef, useState } from "react";
import { Form } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { describedBy, FormField } from "./form-field.tsx";
import { MarkdownEditorField } from "./markdown-editor-field.tsx";
import { useMarkdownEditor } from "../lib/use-markdown-editor.ts";
import { useDraftAutosave } from "../lib/use-draft-autosave.ts";
import {
  citationBrackets,
  citationFormats,
  citationPositions,
  citationTypes,
  disambiguationMaxLength,
  entryNameMaxLength,
  movePhoto,
  photoCaptionMaxLength,
} from "../../features/encyclopedia/schema.ts";
import { bracketed } from "../../features/encyclopedia/paths.ts";
import type { EntrySummary } from "../../features/encyclopedia/schema.ts";
import "../lib/encyclopedia-catalog.ts";
import "../lib/editor-catalog.ts";

/** The editor form's values as text (mirrors `EntryFormValues` of app/lib/entry-editor.server.ts). */
export interface EntryEditorValues {
  name: string;
  aliases: string;
  disambiguation: string;
  parent_id: string;
  language: "zh-CN" | "en";
  content: string;
  summary: string;
  references: Record<string, string>[];
  citation: { format: string; bracket: string; cite_type: string; position: string };
  base_revision: string;
  photos: { file_id: string; caption: string }[];
}

export interface EntryEditorProps {
  action: string;
  csrfToken: string;
  /** `version`: the entry's version in another language (its language fixed, the parent taken from the entry). */
  mode: "create" | "edit" | "version";
  values: EntryEditorValues;
  parents: EntrySummary[];
  previewHtml: string | null;
  fieldErrors?: Record<string, string>;
  /** Blank reference rows below the filled ones (more after "add rows"). */
  blankRows: number;
  draftKey: string;
  draftVersion: number;
}

const referenceColumns = ["label", "authors", "title", "container", "publisher", "year", "pages", "url", "accessed", "doi"] as const;

/**
 * The entry editor: names, disambiguation, parent, language (new entries), the shared Markdown
 * field (CodeMirror, toolbar, live preview once JavaScript runs; a plain textarea and a server
 * preview without), references as rows of fields with BibTeX paste, the four citation settings,
 * the edit summary. The text is kept as a server draft while typing.
 */
export function EntryEditor(props: EntryEditorProps) {
  const { t } = useTranslation("encyclopedia");
  const { values, fieldErrors: errors = {} } = props;
  const [name, setName] = useState(values.name);
  // Reordered at once once hydrated; without JavaScript the move buttons post the form (`photo_up:{id}`).
  const [photos, setPhotos] = useState(values.photos);
  const formRef = useRef<HTMLFormElement>(null);
  const snapshot = () => {
    const form = formRef.current;
    const fields: Record<string, unknown> = {};
    if (form) {
      const data = new FormData(form);
      for (const key of ["aliases", "disambiguation", "parent_id", "language", "summary"]) fields[key] = String(data.get(key) ?? "");
    }
    return { title: name, body: markdown.content, fields };
  };
  const autosave = useDraftAutosave({ draftKey: props.draftKey, initialVersion: props.draftVersion, csrfToken: props.csrfToken, snapshot });
  const markdown = useMarkdownEditor({
    initialText: values.content,
    label: t("editor.content"),
    csrfToken: props.csrfToken,
    initialPreview: props.previewHtml,
    onEdit: () => autosave.markDirty(),
  });
  const rows = [...values.references, ...Array.from({ length: props.blankRows }, () => ({}) as Record<string, string>)];
  const select = (name: string, options: readonly string[], value: string) => (
    <FormField id={`entry-${name}`} label={t(`editor.${name}`)}>
      <select id={`entry-${name}`} name={name} className="text-input" defaultValue={value} data-testid={`entry-${name}`}>
        {options.map((option) => (
          <option key={option} value={option}>
            {t(`editor.options.${option}`)}
          </option>
        ))}
      </select>
    </FormField>
  );
  return (
    <Form
      method="post"
      action={props.action}
      encType="multipart/form-data"
      noValidate
      ref={formRef}
      className="entry-editor"
      onChange={() => autosave.markDirty()}
      onSubmit={(event) => {
        const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
        if (submitter?.value === "save") autosave.stop();
      }}
    >
      <input type="hidden" name="csrftoken" value={props.csrfToken} />
      <input type="hidden" name="base_revision" value={values.base_revision} />
      <input type="hidden" name="rows" value={props.blankRows} />
      <FormField id="entry-name" label={t("editor.name")} error={errors.name}>
        <input
          id="entry-name"
          name="name"
          className="text-input"
          value={name}
          onChange={(event) => setName(event.target.value)}
          maxLength={entryNameMaxLength}
          required
          data-testid="entry-name-input"
          {...describedBy("entry-name", errors.name)}
        />
      </FormField>
      <FormField id="entry-aliases" label={t("editor.aliases")} hint={t("editor.aliases_hint")} error={errors.aliases}>
        <input
          id="entry-aliases"
          name="aliases"
          className="text-input"
          defaultValue={values.aliases}
          data-testid="entry-aliases-input"
          {...describedBy("entry-aliases", errors.aliases, t("editor.aliases_hint"))}
        />
      </FormField>
      <FormField
        id="entry-disambiguation"
        label={t("editor.disambiguation")}
        hint={t("editor.disambiguation_hint")}
        error={errors.disambiguation}
      >
        <input
          id="entry-disambiguation"
          name="disambiguation"
          className="text-input"
          defaultValue={values.disambiguation}
          maxLength={disambiguationMaxLength}
          data-testid="entry-disambiguation-input"
          {...describedBy("entry-disambiguation", errors.disambiguation, t("editor.disambiguation_hint"))}
        />
      </FormField>
      {props.mode === "version" ? (
        <input type="hidden" name="language" value={values.language} />
      ) : (
        <FormField id="entry-parent" label={t("editor.parent")} error={errors.parent_id}>
          <select
            id="entry-parent"
            name="parent_id"
            className="text-input"
            defaultValue={values.parent_id}
            data-testid="entry-parent-select"
            {...describedBy("entry-parent", errors.parent_id)}
          >
            <option value="">{t("editor.no_parent")}</option>
            {props.parents.map((parent) => (
              <option key={parent.id} value={parent.id}>
                {parent.name}
                {parent.disambiguation ? bracketed(parent.disambiguation, parent.language) : ""}
              </option>
            ))}
          </select>
        </FormField>
      )}
      {props.mode === "create" ? (
        <FormField id="entry-language" label={t("editor.language")}>
          <select id="entry-language" name="language" className="text-input" defaultValue={values.language}>
            <option value="zh-CN">中文</option>
            <option value="en">English</option>
          </select>
        </FormField>
      ) : null}
      <MarkdownEditorField
        editor={markdown}
        id="entry-content"
        label={t("editor.content")}
        hint={t("editor.content_hint")}
        error={errors.content}
        rows={16}
      />
      <fieldset className="entry-photos" data-testid="entry-photos">
        <legend>{t("editor.photos")}</legend>
        <p className="muted">{t("editor.photos_hint")}</p>
        {photos.map((photo, index) => (
          <div className="entry-photo-row" key={photo.file_id} data-testid="photo-row">
            <img src={`/attach/${photo.file_id}`} alt="" width={96} height={72} loading="lazy" />
            <input type="hidden" name="photo_file_id" value={photo.file_id} />
            <label>
              {t("editor.photo_caption")}{" "}
              <input
                name="photo_caption"
                className="text-input"
                defaultValue={photo.caption}
                maxLength={photoCaptionMaxLength}
                data-testid={`photo-caption-${index}`}
              />
            </label>
            <label>
              <input type="checkbox" name="photo_remove" value={photo.file_id} /> {t("editor.photo_remove")}
            </label>
            {(["up", "down"] as const).map((direction) => (
              <button
                key={direction}
                type="submit"
                name="intent"
                value={`photo_${direction}:${photo.file_id}`}
                className="button"
                formNoValidate
                disabled={direction === "up" ? index === 0 : index === photos.length - 1}
                aria-label={t(`editor.photo_${direction}_label`, { number: index + 1 })}
                data-testid={`photo-${direction}-${index}`}
                onClick={(event) => {
                  event.preventDefault();
                  setPhotos((current) => movePhoto(current, photo.file_id, direction === "up" ? -1 : 1));
                  autosave.markDirty();
                }}
              >
                {t(`editor.photo_${direction}`)}
              </button>
            ))}
          </div>
        ))}
        <FormField id="entry-photo-file" label={t("editor.photo_file")} error={errors.photo_file}>
          <input
            type="file"
            id="entry-photo-file"
            name="photo_file"
            accept="image/jpeg,image/png"
            data-testid="entry-photo-file"
            {...describedBy("entry-photo-file", errors.photo_file)}
          />
        </FormField>
        <FormField id="entry-photo-new-caption" label={t("editor.photo_new_caption")}>
          <input
            id="entry-photo-new-caption"
            name="photo_new_caption"
            className="text-input"
            maxLength={photoCaptionMaxLength}
            data-testid="entry-photo-caption"
          />
        </FormField>
        <button type="submit" name="intent" value="add_photo" className="button" formNoValidate data-testid="photo-add">
          {t("editor.photo_add")}
        </button>
      </fieldset>
      <fieldset className="entry-references" data-testid="entry-references">
        <legend>{t("editor.references")}</legend>
        {errors.references ? (
          <p className="form-error" role="alert">
            {errors.references}
          </p>
        ) : null}
        {rows.map((row, index) => (
          <div className="entry-reference-row" key={index} data-testid="reference-row">
            {referenceColumns.map((column) => (
              <label key={column} className="entry-reference-field">
                <span className="muted">{t(`editor.reference.${column}`)}</span>
                <input
                  name={`ref_${column}`}
                  className="text-input"
                  defaultValue={row[column] ?? ""}
                  type={column === "url" ? "url" : "text"}
                  data-testid={`ref-${column}-${index}`}
                />
              </label>
            ))}
          </div>
        ))}
        <button type="submit" name="intent" value="more_references" className="button" formNoValidate data-testid="more-references">
          {t("editor.more_references")}
        </button>
        <FormField id="entry-bibtex" label={t("editor.bibtex")} hint={t("editor.bibtex_hint")} error={errors.bibtex}>
          <textarea id="entry-bibtex" name="bibtex" className="text-input" rows={3} data-testid="entry-bibtex" />
        </FormField>
        <button type="submit" name="intent" value="bibtex" className="button" formNoValidate data-testid="bibtex-add">
          {t("editor.bibtex_add")}
        </button>
      </fieldset>
      <fieldset className="entry-citation-settings">
        <legend>{t("editor.citation")}</legend>
        {select("citation_format", citationFormats, values.citation.format)}
        {select("citation_bracket", citationBrackets, values.citation.bracket)}
        {select("citation_cite_type", citationTypes, values.citation.cite_type)}
        {select("citation_position", citationPositions, values.citation.position)}
      </fieldset>
      <FormField id="entry-summary" label={t("editor.summary")} hint={t("editor.summary_hint")} error={errors.summary}>
        <input
          id="entry-summary"
          name="summary"
          className="text-input"
          defaultValue={values.summary}
          maxLength={200}
          data-testid="entry-summary"
        />
      </FormField>
      {autosave.status.state === "saved" ? (
        <p className="muted" role="status">
          {t("editor.draft_saved")}
        </p>
      ) : null}
      <div className="form-actions">
        <button type="submit" name="intent" value="preview" className="button" formNoValidate data-testid="entry-preview">
          {t("editor.preview")}
        </button>
        <button type="submit" name="intent" value="save" className="button button-primary" data-testid="entry-save">
          {props.mode === "edit" ? t("editor.save") : t("editor.create")}
        </button>
      </div>
    </Form>
  );
}

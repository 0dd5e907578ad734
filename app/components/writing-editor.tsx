import { useEffect, useRef, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import type { EditorMode, EditorValues } from "../../features/writings/editor-values.ts";
import type { CategoryView } from "../../features/circles/categories.ts";
import { createWritingSchema, summaryMaxLength, updateWritingSchema, writingKindValues } from "../../features/writings/schema.ts";
import { editInputOf, editorValuesFromForm, publishInputOf } from "../../features/writings/editor-values.ts";
import { revealField, schemaCheck, useIntentValidation } from "../lib/use-intent-validation.ts";
import { editorPath } from "../../features/writings/paths.ts";
import { useDraftAutosave, type DraftVersion } from "../lib/use-draft-autosave.ts";
import { useMarkdownEditor } from "../lib/use-markdown-editor.ts";
import { uploadImage } from "../lib/upload-image.ts";
import { describedBy, FormField } from "./form-field.tsx";
import { MarkdownEditorField } from "./markdown-editor-field.tsx";
import { AutosaveStatusText, DraftConflict } from "./draft-status.tsx";
import { CategoryChoices, RelatedEntriesField } from "./editor-fields.tsx";
import { acceptedImageTypes } from "../../features/attachments/constants.ts";
import type { PickedEntry } from "./entry-picker.tsx";
import "../lib/editor-catalog.ts";

/** Ant Design's Select and the search come with the editor's hydration, in their own chunk. */

export interface EditorActionData {
  values: EditorValues;
  formError?: string;
  fieldErrors?: Record<string, string>;
  /** An edit conflict: the version saved in between. */
  conflict?: { title: string; content: string; version: number };
  /** The saved version loaded into the form ("use the other version" without JavaScript). */
  taken?: { version: number };
  /** "Save draft" without JavaScript: saved at this time. */
  draftSaved?: { at: string; version: number };
}

export interface EditorPageData {
  circleId: number;
  circleName: string;
  page: "article" | "post";
  mode: EditorMode;
  original: { title: string; language: string } | null;
  values: EditorValues;
  draft: { key: string; version: number; updatedAt: string | null };
  categories: CategoryView[];
  /** The author's series in this circle a new serialized article may continue, with their next part's number. */
  series: { id: number; title: string; nextPart: number }[];
  writableCircles: { id: number; name: string }[];
  /** The entries the form already relates to, by name (the picker shows them as chips). */
  relatedEntries: PickedEntry[];
  csrfToken: string;
}

/**
 * The writing editor. Without JavaScript it is a plain form with a textarea that publishes by
 * form post (multipart, with the cover as a file). With JavaScript, the shared Markdown field
 * (CodeMirror, toolbar, image upload, live preview) replaces the textarea, the cover uploads at
 * once, and the draft is saved on the server every few seconds and when the page goes away.
 */
export function WritingEditor({ page, result }: { page: EditorPageData; result: EditorActionData | undefined }) {
  const { t, i18n } = useTranslation("editor");
  const locale = i18n.language as Locale;
  const initial = result?.values ?? page.values;
  const [title, setTitle] = useState(initial.title);
  const [coverId, setCoverId] = useState(initial.cover_file_id);
  const [isRepost, setIsRepost] = useState(initial.is_repost);
  const [kind, setKind] = useState(initial.kind);
  const [type, setType] = useState(initial.type);
  const [seriesChoice, setSeriesChoice] = useState(initial.series_id);
  const [hydrated, setHydrated] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const navigation = useNavigation();
  // The API's own schema checks the form before it is sent (the same messages the server answers
  // without JavaScript); the draft buttons and "use the other version" send without checking.
  const check = schemaCheck(page.mode.kind === "edit" ? updateWritingSchema : createWritingSchema, (form) => {
    const values = editorValuesFromForm(form);
    return page.mode.kind === "edit"
      ? { ...editInputOf(values), version: page.mode.version }
      : publishInputOf(values, { type: page.page, translationOf: String(form.get("translation_of") ?? "") });
  });
  const validation = useIntentValidation({ "": check, publish: check, save_draft: () => ({}), use_saved: () => ({}) }, result?.fieldErrors);
  const errors = validation.errors;
  // Without JavaScript the server's answer opens at its first invalid field (the browser focuses and scrolls to it).
  const firstInvalid = ["title", "kind_name", "summary", "source_url"].find((name) => result?.fieldErrors?.[name]);
  const autoFocusOn = (name: string) => (firstInvalid === name ? { autoFocus: true } : {});

  const snapshot = () => {
    const form = formRef.current;
    const fields: Record<string, unknown> = {};
    if (form) {
      const data = new FormData(form);
      for (const name of [
        "summary",
        "series_id",
        "type",
        "kind",
        "kind_name",
        "language",
        "related_entries",
        "cover_file_id",
        "source_url",
        "pay_to_view_price",
        "red_packet_amount",
      ])
        fields[name] = String(data.get(name) ?? "");
      for (const name of ["is_repost", "disable_copy", "disable_context_menu", "tip_enabled"]) fields[name] = data.get(name) === "on";
      fields.categories = data.getAll("categories").map(Number);
      fields.circle_id = page.circleId;
    }
    return { title: titleRef.current, body: contentRef.current, fields };
  };
  const titleRef = useRef(title);
  titleRef.current = title;
  const autosave = useDraftAutosave({ draftKey: page.draft.key, initialVersion: page.draft.version, csrfToken: page.csrfToken, snapshot });
  const markdown = useMarkdownEditor({
    initialText: initial.content,
    label: t("editor.content"),
    csrfToken: page.csrfToken,
    onEdit: () => autosave.markDirty(),
    paywall: true,
  });
  const contentRef = useRef(markdown.content);
  contentRef.current = markdown.content;
  // Until hydration the cover is a plain file field posted with the form; then it uploads at once.
  useEffect(() => setHydrated(true), []);
  // The server's own refusals (a category of another circle…) are brought into view like the page's checks.
  const serverErrors = result?.fieldErrors;
  useEffect(() => {
    const first = serverErrors ? Object.keys(serverErrors)[0] : undefined;
    if (first && formRef.current) revealField(formRef.current, first);
  }, [serverErrors]);

  const takeTheirs = (current: DraftVersion) => {
    autosave.takeTheirs(current);
    setTitle(current.title);
    markdown.replaceText(current.body);
  };

  // An edit conflict until the writer chooses: "keep mine" publishes the form over the saved
  // version, "use the other" (with JavaScript, here; without, through the action) loads the saved
  // title and text into the editor. Either way the form then carries the saved version's number.
  const [resolvedConflict, setResolvedConflict] = useState<EditorActionData["conflict"] | null>(null);
  const editConflict = result?.conflict && resolvedConflict !== result.conflict ? result.conflict : null;
  const taken = Boolean(result?.taken) || (result?.conflict !== undefined && resolvedConflict === result.conflict);
  const loadSaved = (event: React.MouseEvent, saved: NonNullable<EditorActionData["conflict"]>) => {
    event.preventDefault();
    setTitle(saved.title);
    markdown.replaceText(saved.content);
    setResolvedConflict(saved);
    autosave.markDirty();
  };

  const uploadCover = (file: File) => {
    markdown.setUploadStatus(t("editor.uploading"));
    uploadImage(file, page.csrfToken)
      .then((uploaded) => {
        setCoverId(uploaded.file_id);
        markdown.setUploadStatus(null);
        autosave.markDirty();
      })
      .catch((error: Error) => markdown.setUploadStatus(t("editor.upload_failed", { message: error.message })));
  };
  const removeCover = () => {
    setCoverId("");
    autosave.markDirty();
  };

  const status = autosave.status;
  const submitting = navigation.state === "submitting";
  const fixedType = page.page === "post" ? "post" : page.mode.kind === "new" ? null : initial.type;
  const path = (to: string) => localizePath(to, locale);
  const heading =
    page.mode.kind === "edit"
      ? t("editor.title_edit", { title: page.values.title })
      : page.mode.kind === "translate"
        ? t("editor.title_translate", { language: t(`writings:languages.${initial.language}`) })
        : page.mode.kind === "series"
          ? t("editor.title_part")
          : t(page.page === "post" ? "editor.title_new_post" : "editor.title_new_article");
  return (
    <div className="writing-editor-page">
      <h1 className="page-title">{heading}</h1>
      {/* A new writing starts with where it goes: the choice is open (folded away once chosen, when editing). */}
      <details className="editor-circle" open={page.mode.kind === "new"}>
        <summary>
          {t("editor.choose_circle")}: <strong data-testid="editor-circle">{page.circleName}</strong>
        </summary>
        <p className="muted">{t("editor.choose_circle_hint")}</p>
        <ul>
          {page.writableCircles.map((circle) => (
            <li key={circle.id}>
              <Link to={path(editorPath(circle.id, page.page))}>{circle.name}</Link>
            </li>
          ))}
        </ul>
      </details>
      <p>
        <Link to={path("/account/drafts")}>{t("editor.drafts")}</Link>
      </p>
      {page.draft.updatedAt && !result ? (
        <p className="notice" role="status" data-testid="draft-restored">
          {t("editor.restored", { time: formatDate(page.draft.updatedAt, locale, { dateStyle: "short", timeStyle: "short" }) })}
        </p>
      ) : null}
      {result?.draftSaved ? (
        <p className="notice" role="status" data-testid="draft-saved">
          {t("editor.draft_saved")}
        </p>
      ) : null}
      {result?.formError ? (
        <p className="form-error" role="alert" data-testid="form-error">
          {result.formError}
        </p>
      ) : null}
      {editConflict ? (
        <section className="panel editor-conflict" role="alert" data-testid="edit-conflict">
          <p>{t("editor.edit_conflict")}</p>
          <h2>{t("editor.theirs")}</h2>
          <p>
            <strong data-testid="edit-conflict-title">{editConflict.title}</strong>
          </p>
          <pre className="editor-conflict-text">{editConflict.content}</pre>
          <div className="editor-conflict-choices">
            <button
              type="submit"
              form="writing-editor-form"
              name="intent"
              value="publish"
              className="button button-primary"
              disabled={submitting}
              data-testid="edit-keep-mine"
            >
              {t("editor.edit_keep_mine")}
            </button>
            <button
              type="submit"
              form="writing-editor-form"
              name="intent"
              value="use_saved"
              className="button"
              onClick={(event) => loadSaved(event, editConflict)}
              data-testid="edit-use-theirs"
            >
              {t("editor.edit_use_theirs")}
            </button>
          </div>
        </section>
      ) : null}
      {taken ? (
        <p className="notice" role="status" data-testid="edit-taken">
          {t("editor.edit_taken")}
        </p>
      ) : null}
      {status.state === "conflict" ? <DraftConflict status={status} onKeepMine={autosave.keepMine} onTakeTheirs={takeTheirs} /> : null}
      <Form
        method="post"
        encType="multipart/form-data"
        id="writing-editor-form"
        ref={formRef}
        className="panel writing-editor"
        noValidate
        onChange={() => autosave.markDirty()}
        onSubmit={(event) => {
          validation.onSubmit(event);
          if (!event.defaultPrevented) autosave.stop();
        }}
      >
        <input type="hidden" name="csrftoken" value={page.csrfToken} />
        <input type="hidden" name="draft_key" value={page.draft.key} />
        {page.mode.kind === "edit" ? (
          <>
            <input type="hidden" name="edit_id" value={page.mode.id} />
            <input type="hidden" name="version" value={result?.taken?.version ?? result?.conflict?.version ?? page.mode.version} />
          </>
        ) : null}
        {page.mode.kind === "translate" ? <input type="hidden" name="translation_of" value={page.mode.id} /> : null}
        {page.mode.kind === "series" ? <input type="hidden" name="series_id" value={page.mode.id} /> : null}
        <FormField id="writing-title" label={t("editor.title")} error={errors.title}>
          <input
            id="writing-title"
            {...autoFocusOn("title")}
            name="title"
            className="text-input"
            value={title}
            maxLength={100}
            required
            placeholder={t("editor.title_placeholder")}
            onChange={(event) => {
              setTitle(event.target.value);
              autosave.markDirty();
            }}
            {...describedBy("writing-title", errors.title)}
          />
        </FormField>
        <div className="editor-row">
          {fixedType ? (
            <input type="hidden" name="type" value={fixedType} />
          ) : (
            <FormField id="writing-type" label={t("editor.type")} error={errors.type}>
              <select
                id="writing-type"
                name="type"
                className="native-select"
                value={type}
                onChange={(event) => setType(event.target.value as typeof type)}
              >
                <option value="article">{t("writings:types.article")}</option>
                <option value="serial">{t("writings:types.serial")}</option>
              </select>
            </FormField>
          )}
          {page.page === "article" ? (
            <FormField id="writing-kind" label={t("editor.kind")} error={errors.kind}>
              <select
                id="writing-kind"
                name="kind"
                className="native-select"
                value={kind}
                onChange={(event) => setKind(event.target.value)}
              >
                {writingKindValues.map((value) => (
                  <option key={value} value={value}>
                    {t(`writings:kinds.${value}`)}
                  </option>
                ))}
              </select>
            </FormField>
          ) : (
            <input type="hidden" name="kind" value="ordinary" />
          )}
          {kind === "custom" ? (
            <FormField id="writing-kind-name" label={t("editor.kind_name")} error={errors.kind_name}>
              <input
                id="writing-kind-name"
                {...autoFocusOn("kind_name")}
                name="kind_name"
                className="text-input"
                defaultValue={initial.kind_name}
                maxLength={20}
                {...describedBy("writing-kind-name", errors.kind_name)}
              />
            </FormField>
          ) : null}
          {page.mode.kind === "new" ? (
            <FormField id="writing-language" label={t("editor.language")} error={errors.language}>
              <select id="writing-language" name="language" className="native-select" defaultValue={initial.language}>
                <option value="zh-CN">{t("writings:languages.zh-CN")}</option>
                <option value="en">{t("writings:languages.en")}</option>
              </select>
            </FormField>
          ) : (
            <input type="hidden" name="language" value={initial.language} />
          )}
        </div>
        {!fixedType && page.series.length > 0 ? (
          <SeriesField
            series={page.series}
            value={seriesChoice}
            hydrated={hydrated}
            serial={type === "serial"}
            error={errors.series_id ?? errors.translation_of}
            onChange={setSeriesChoice}
          />
        ) : null}
        <FormField
          id="writing-summary"
          label={t("editor.summary")}
          hint={t("editor.summary_hint", { max: summaryMaxLength })}
          error={errors.summary}
        >
          <textarea
            id="writing-summary"
            {...autoFocusOn("summary")}
            name="summary"
            className="text-input text-area editor-summary"
            rows={2}
            defaultValue={initial.summary}
            {...describedBy("writing-summary", errors.summary, t("editor.summary_hint", { max: summaryMaxLength }))}
          />
        </FormField>
        <MarkdownEditorField editor={markdown} id="writing-content" label={t("editor.content")} error={errors.content} />
        <CategoryChoices
          id="writing-categories"
          legend={t("editor.categories")}
          categories={page.categories}
          checked={initial.categories}
          error={errors.categories}
        />
        {page.page === "article" ? (
          <>
            <RelatedEntriesField
              id="writing-related"
              label={t("editor.related_entries")}
              hint={t("editor.related_hint")}
              idsHint={t("editor.related_hint_ids")}
              hydrated={hydrated}
              initialIds={initial.related_entries}
              initial={page.relatedEntries}
              circleId={page.circleId}
              error={errors.related_entries}
              onChange={() => autosave.markDirty()}
            />
            <CoverField coverId={coverId} hydrated={hydrated} error={errors.cover_file_id} onUpload={uploadCover} onRemove={removeCover} />
          </>
        ) : null}
        <fieldset className="form-field choice-group">
          <legend>{t("editor.source_and_copying")}</legend>
          <label className="checkbox-label">
            <input type="checkbox" name="is_repost" checked={isRepost} onChange={(event) => setIsRepost(event.target.checked)} />{" "}
            {t("editor.repost")}
          </label>
          <FormField id="writing-source" label={t("editor.source_url")} error={errors.source_url}>
            <input
              id="writing-source"
              {...autoFocusOn("source_url")}
              name="source_url"
              type="url"
              className="text-input"
              defaultValue={initial.source_url}
              {...describedBy("writing-source", errors.source_url)}
            />
          </FormField>
          <label className="checkbox-label">
            <input type="checkbox" name="disable_copy" defaultChecked={initial.disable_copy} /> {t("editor.disable_copy")}
          </label>
          <label className="checkbox-label">
            <input type="checkbox" name="disable_context_menu" defaultChecked={initial.disable_context_menu} />{" "}
            {t("editor.disable_context_menu")}
          </label>
          <p className="form-hint">{t("editor.deterrent_hint")}</p>
        </fieldset>
        <fieldset className="form-field choice-group">
          <legend>{t("editor.money")}</legend>
          <label className="checkbox-label">
            <input type="checkbox" name="tip_enabled" defaultChecked={initial.tip_enabled} /> {t("editor.tip_enabled")}
          </label>
          <FormField id="writing-pay" label={t("editor.pay_to_view_price")} error={errors.pay_to_view_price}>
            <input
              id="writing-pay"
              name="pay_to_view_price"
              type="number"
              min={0}
              className="text-input"
              defaultValue={initial.pay_to_view_price}
            />
          </FormField>
          <FormField id="writing-red-packet" label={t("editor.red_packet_amount")} error={errors.red_packet_amount}>
            <input
              id="writing-red-packet"
              name="red_packet_amount"
              type="number"
              min={0}
              className="text-input"
              defaultValue={initial.red_packet_amount}
            />
          </FormField>
        </fieldset>
        <div className="editor-footer">
          <button type="submit" name="intent" value="publish" className="button button-primary" disabled={submitting} data-testid="publish">
            {page.mode.kind === "edit" ? t("editor.save") : t("editor.publish")}
          </button>
          <button
            type="submit"
            name="intent"
            value="save_draft"
            className="button"
            disabled={submitting || status.state === "saving"}
            data-testid="save-draft"
            onClick={(event) => {
              // With JavaScript the draft is saved in place (the autosave's request); without, the form posts it.
              if (!hydrated) return;
              event.preventDefault();
              autosave.saveNow();
            }}
          >
            {t("editor.save_draft")}
          </button>
          <AutosaveStatusText status={status} savedAt={result?.draftSaved?.at} />
        </div>
      </Form>
    </div>
  );
}

/**
 * The cover: a file field posted with the form (multipart) until the page is hydrated, with a
 * "remove" checkbox when there is one; after hydration a button that uploads the chosen image at
 * once (`POST /api/uploads/`) and a button that removes it. Either way the form carries the
 * chosen cover's id in `cover_file_id`.
 */
function CoverField({
  coverId,
  hydrated,
  error,
  onUpload,
  onRemove,
}: {
  coverId: string;
  hydrated: boolean;
  error?: string;
  onUpload(file: File): void;
  onRemove(): void;
}) {
  const { t } = useTranslation("editor");
  return (
    <FormField id="writing-cover" label={t("editor.cover")} error={error}>
      <input type="hidden" name="cover_file_id" value={coverId} />
      {coverId ? <img className="editor-cover" src={`/attach/${coverId}`} alt="" data-testid="cover-preview" /> : null}
      {hydrated ? (
        <div className="editor-cover-actions">
          <label className="button">
            {t("editor.cover_upload")}
            <input
              id="writing-cover"
              type="file"
              accept={acceptedImageTypes}
              className="visually-hidden"
              data-testid="cover-input"
              {...describedBy("writing-cover", error)}
              onChange={(event) => {
                const file = event.target.files?.[0];
                event.target.value = "";
                if (file) onUpload(file);
              }}
            />
          </label>
          {coverId ? (
            <button type="button" className="button" onClick={onRemove} data-testid="cover-remove">
              {t("editor.cover_remove")}
            </button>
          ) : null}
        </div>
      ) : (
        <>
          <input
            id="writing-cover"
            type="file"
            name="cover"
            accept={acceptedImageTypes}
            data-testid="cover-input"
            {...describedBy("writing-cover", error)}
          />
          {coverId ? (
            <label className="checkbox-label">
              <input type="checkbox" name="remove_cover" data-testid="cover-remove" /> {t("editor.cover_remove")}
            </label>
          ) : null}
        </>
      )}
    </FormField>
  );
}

/**
 * Which series a serialized article belongs to: a new one, or one of the author's series in this
 * circle, each named with the number its next part gets. Without JavaScript the choice is always
 * there (it counts only for a serialized article); with it, it shows when the type is serialized
 * and says which part the article becomes.
 */
function SeriesField({
  series,
  value,
  hydrated,
  serial,
  error,
  onChange,
}: {
  series: EditorPageData["series"];
  value: string;
  hydrated: boolean;
  serial: boolean;
  error?: string;
  onChange(value: string): void;
}) {
  const { t } = useTranslation("editor");
  if (hydrated && !serial) return null;
  const chosen = series.find((item) => String(item.id) === value);
  const hint = hydrated
    ? chosen
      ? t("editor.series_next", { number: chosen.nextPart, title: chosen.title })
      : t("editor.series_new_hint")
    : t("editor.series_hint");
  return (
    <FormField id="writing-series" label={t("editor.series")} error={error}>
      <select
        id="writing-series"
        name="series_id"
        className="native-select"
        value={chosen ? value : ""}
        onChange={(event) => onChange(event.target.value)}
        {...describedBy("writing-series", error, hint)}
      >
        <option value="">{t("editor.series_new")}</option>
        {series.map((item) => (
          <option key={item.id} value={item.id}>
            {t("editor.series_option", { title: item.title, number: item.nextPart })}
          </option>
        ))}
      </select>
      {error ? null : (
        <div className="form-hint" id="writing-series-hint" role={hydrated ? "status" : undefined} data-testid="series-next-part">
          {hint}
        </div>
      )}
    </FormField>
  );
}

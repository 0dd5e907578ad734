import type { AppContext } from "../context.ts";
import { AppError } from "../../common/app-error.ts";
import { authorize } from "../../common/policy.ts";
import { circleIdOf } from "./circle-pages.server.ts";
import { orNotFound, pathIdOf, redirectToOwnCircle } from "./book-pages.server.ts";
import { loadCircleAccess } from "../../features/circles/access.server.ts";
import { canViewCircle } from "../../features/circles/policy.ts";
import { can } from "../../features/encyclopedia/policy.ts";
import { entryVersions, listCircleEntries, loadReadableEntry } from "../../features/encyclopedia/service.ts";
import { redirect } from "react-router";
import { localizePath, pageUrl } from "../../common/locale.ts";
import { getDraft } from "../../features/writings/drafts.ts";
import type { CitationSettings, EntryLanguage } from "../../features/encyclopedia/schema.ts";
import { parseBibtex } from "../../features/encyclopedia/bibtex.ts";
import { storeImage } from "../../features/attachments/service.ts";
import { maxImageBytes } from "../../features/attachments/constants.ts";

/*
 * The entry editor's data and form reading (`/circles/{cid}/encyclopedia/write` and
 * `…/{entry_id}/edit`). The form is plain HTML: references are rows of fields (`ref_label`,
 * `ref_title`…, repeated), a fixed number of blank rows plus an "add rows" submit without JavaScript.
 */

export const referenceFields = ["label", "authors", "title", "container", "publisher", "year", "pages", "url", "accessed", "doi"] as const;
export type ReferenceRow = Record<(typeof referenceFields)[number], string>;

/** Everything the editor form holds, as text (what a failed post sends back). */
export interface EntryFormValues {
  name: string;
  aliases: string;
  disambiguation: string;
  parent_id: string;
  language: EntryLanguage;
  content: string;
  summary: string;
  references: ReferenceRow[];
  citation: CitationSettings;
  base_revision: string;
  /** Photos kept (`photo_file_id` and `photo_caption` rows; `photo_remove` drops one): the first is the infobox photo. */
  photos: { file_id: string; caption: string }[];
}

export const blankRows = 2;

export const emptyReference = (): ReferenceRow => Object.fromEntries(referenceFields.map((field) => [field, ""])) as ReferenceRow;

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

const filledRows = (rows: ReferenceRow[]) => rows.filter((row) => referenceFields.some((field) => row[field].trim() !== ""));

/** The editor's fields as posted (blank reference rows left out). */
export function entryFormValues(form: FormData): EntryFormValues {
  const columns = Object.fromEntries(
    referenceFields.map((field) => [field, form.getAll(`ref_${field}`).map((value) => (typeof value === "string" ? value : ""))]),
  ) as Record<(typeof referenceFields)[number], string[]>;
  const rows = Math.max(...referenceFields.map((field) => columns[field].length), 0);
  const references: ReferenceRow[] = [];
  for (let index = 0; index < Math.min(rows, 200); index += 1)
    references.push(Object.fromEntries(referenceFields.map((field) => [field, columns[field][index] ?? ""])) as ReferenceRow);
  const choice = <T extends string>(name: string, values: readonly T[], fallback: T): T =>
    (values as readonly string[]).includes(text(form, name)) ? (text(form, name) as T) : fallback;
  return {
    name: text(form, "name"),
    aliases: text(form, "aliases"),
    disambiguation: text(form, "disambiguation"),
    parent_id: text(form, "parent_id"),
    language: choice("language", ["zh-CN", "en"] as const, "zh-CN"),
    content: text(form, "content"),
    summary: text(form, "summary"),
    references: filledRows(references),
    citation: {
      format: choice("citation_format", ["numeric", "label", "none"] as const, "numeric"),
      bracket: choice("citation_bracket", ["square", "round"] as const, "square"),
      cite_type: choice("citation_cite_type", ["single", "multiple"] as const, "multiple"),
      position: choice("citation_position", ["superscript", "subscript"] as const, "superscript"),
    },
    base_revision: text(form, "base_revision"),
    photos: postedPhotos(form),
  };
}

function postedPhotos(form: FormData): { file_id: string; caption: string }[] {
  const ids = form.getAll("photo_file_id");
  const captions = form.getAll("photo_caption");
  const removed = new Set(form.getAll("photo_remove").map(String));
  return ids.flatMap((id, index) => {
    if (typeof id !== "string" || id === "" || removed.has(id)) return [];
    const caption = captions[index];
    return [{ file_id: id, caption: typeof caption === "string" ? caption : "" }];
  });
}

/** The JSON body the API takes, from the form's values (blank reference rows left out). */
export function entryBody(values: EntryFormValues, mode: "create" | "edit" | "version"): Record<string, unknown> {
  const references = filledRows(values.references).map((row) => ({
    label: row.label,
    authors: row.authors
      .split(/[;；\n]/)
      .map((author) => author.trim())
      .filter(Boolean),
    title: row.title,
    ...Object.fromEntries(
      (["container", "publisher", "year", "pages", "url", "accessed", "doi"] as const).flatMap((field) =>
        row[field].trim() ? [[field, row[field]]] : [],
      ),
    ),
  }));
  const parent = values.parent_id.trim();
  const body: Record<string, unknown> = {
    name: values.name,
    aliases: values.aliases
      .split(/[,，;；\n]/)
      .map((alias) => alias.trim())
      .filter(Boolean),
    disambiguation: values.disambiguation.trim() || null,
    parent_id: /^\d{1,10}$/.test(parent) ? Number(parent) : parent === "" ? null : parent,
    content: values.content,
    summary: values.summary,
    references,
    citation: values.citation,
    photos: values.photos,
  };
  if (mode === "version") {
    delete body.parent_id;
    body.language = values.language;
  } else if (mode === "create") body.language = values.language;
  else body.base_revision = /^\d{1,10}$/.test(values.base_revision) ? Number(values.base_revision) : values.base_revision;
  return body;
}

/** Adds the reference a pasted BibTeX entry describes (its first blank row, or a new one); null when it is not BibTeX. */
export function withBibtex(values: EntryFormValues, bibtex: string): EntryFormValues | null {
  const parsed = parseBibtex(bibtex);
  if (!parsed) return null;
  const row: ReferenceRow = {
    ...emptyReference(),
    ...Object.fromEntries(Object.entries(parsed).flatMap(([key, value]) => (typeof value === "string" ? [[key, value]] : []))),
    authors: parsed.authors.join("; "),
  };
  const rows = filledRows(values.references);
  return { ...values, references: [...rows, row] };
}

/** The stored references as form rows. */
export function referenceRows(references: readonly Record<string, unknown>[]): ReferenceRow[] {
  return references.map((reference) => ({
    ...emptyReference(),
    ...Object.fromEntries(Object.entries(reference).flatMap(([key, value]) => (typeof value === "string" ? [[key, value]] : []))),
    authors: Array.isArray(reference.authors) ? (reference.authors as string[]).join("; ") : "",
  }));
}

export const draftKeyOf = (circleId: number, entryId: number | null, versionLanguage?: EntryLanguage | null) =>
  entryId === null ? `new-entry-${circleId}` : versionLanguage ? `new-version-${entryId}-${versionLanguage}` : `edit-entry-${entryId}`;

/** `?language=` of the edit page: the entry's version in that language (written when missing). */
export function versionLanguageOf(request: Request): EntryLanguage | null {
  const language = pageUrl(request.url).searchParams.get("language");
  return language === "zh-CN" || language === "en" ? language : null;
}

/**
 * The editor page's data: the circle (members who may write in it; visitors log in first), the
 * entry when editing (whoever may edit it), the parent choices (the circle's entries, without the
 * entry itself), and the values: a saved draft over the stored entry over blanks.
 */
export async function entryEditorData(app: AppContext, request: Request, params: { circleId?: string; entryId?: string }) {
  const circleId = circleIdOf(request, params.circleId);
  if (!app.viewer) throw new AppError("not_authenticated");
  const viewer = app.viewer;
  let values: EntryFormValues;
  let entry: { id: number; name: string; revisionId: number; language: EntryLanguage } | null = null;
  /** Writing the entry's missing version in this language (`…/{entry_id}/edit?language=en`). */
  let version: { of: { id: number; name: string; language: EntryLanguage }; language: EntryLanguage } | null = null;
  const versionLanguage = versionLanguageOf(request);
  if (params.entryId !== undefined && versionLanguage !== null) {
    const entryId = pathIdOf(request, params.entryId);
    const { row, access } = await orNotFound(request, () => loadReadableEntry(app.db, viewer, entryId));
    redirectToOwnCircle(request, circleId, row.circleId);
    const existing = (await entryVersions(app.db, row)).find((candidate) => candidate.language === versionLanguage);
    // The version exists: its own edit page.
    if (existing) throw redirect(localizePath(`/circles/${row.circleId}/encyclopedia/${existing.id}/edit`, app.locale));
    authorize(viewer, can(viewer, "create", access));
    version = { of: { id: row.id, name: row.name, language: row.language }, language: versionLanguage };
    values = {
      name: "",
      aliases: "",
      disambiguation: "",
      parent_id: "",
      language: versionLanguage,
      content: "",
      summary: "",
      // The sources usually stay the same: the other version's references and settings to start from.
      references: referenceRows(row.references as unknown as Record<string, unknown>[]),
      citation: row.citation,
      base_revision: "",
      // Photos show the thing, not the language: the other version's to start from.
      photos: row.photos,
    };
  } else if (params.entryId !== undefined) {
    const entryId = pathIdOf(request, params.entryId);
    const { row, access } = await orNotFound(request, () => loadReadableEntry(app.db, viewer, entryId));
    redirectToOwnCircle(request, circleId, row.circleId);
    authorize(viewer, can(viewer, "edit", access, row));
    entry = { id: row.id, name: row.name, revisionId: row.revisionId ?? 0, language: row.language };
    values = {
      name: row.name,
      aliases: row.aliases.join(", "),
      disambiguation: row.disambiguation ?? "",
      parent_id: row.parentId === null ? "" : String(row.parentId),
      language: row.language,
      content: row.description,
      summary: "",
      references: referenceRows(row.references as unknown as Record<string, unknown>[]),
      citation: row.citation,
      base_revision: String(row.revisionId ?? ""),
      photos: row.photos,
    };
  } else {
    const access = await loadCircleAccess(app.db, viewer, circleId);
    if (!access || !canViewCircle(access)) throw new AppError("not_found");
    authorize(viewer, can(viewer, "create", access));
    values = {
      name: "",
      aliases: "",
      disambiguation: "",
      parent_id: "",
      language: app.locale,
      content: "",
      summary: "",
      references: [],
      citation: { format: "numeric", bracket: "square", cite_type: "multiple", position: "superscript" },
      base_revision: "",
      photos: [],
    };
  }
  const draftKey = version ? draftKeyOf(circleId, version.of.id, version.language) : draftKeyOf(circleId, entry?.id ?? null);
  const draft = await getDraft(app.db, viewer.id, draftKey);
  let fromDraft = false;
  if (draft && draft.body.trim() !== "") {
    const fields = draft.fields as Partial<EntryFormValues>;
    values = { ...values, ...fields, content: draft.body, name: draft.title || values.name, base_revision: values.base_revision };
    fromDraft = true;
  }
  const parents = (await listCircleEntries(app.db, circleId, 500)).filter((candidate) => candidate.id !== entry?.id);
  return { circleId, entry, version, values, parents, draftKey, draftVersion: draft?.version ?? 0, fromDraft, viewerId: viewer.id };
}

/**
 * The photo chosen in the editor's file field (`photo_file`, with `photo_new_caption`), checked by
 * its bytes (JPG or PNG, at most 2 MB), re-encoded and stored, added after the kept ones; the
 * values unchanged when no file was chosen.
 */
export async function withPostedPhoto(app: AppContext, form: FormData, values: EntryFormValues): Promise<EntryFormValues> {
  const file = form.get("photo_file");
  if (!(file instanceof File) || file.size === 0) return values;
  if (file.size > maxImageBytes) throw new AppError("image_too_large");
  const stored = await storeImage(
    { db: app.db, files: app.files },
    { ownerId: app.viewer!.id, bytes: Buffer.from(await file.arrayBuffer()), purpose: "upload", maxDimension: 1600 },
  );
  const caption = form.get("photo_new_caption");
  return { ...values, photos: [...values.photos, { file_id: stored.fileId, caption: typeof caption === "string" ? caption.trim() : "" }] };
}

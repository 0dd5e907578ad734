import type { WritingLanguage, WritingType } from "./schema.ts";
import { maxImageBytes } from "../attachments/constants.ts";

/**
 * The most an editor form post may carry: 1 MiB of texts (200 KiB of Markdown, percent-encoded
 * when a form is URL-encoded) and room for a cover chosen without JavaScript. The room is twice the
 * allowed 2 MB, so a somewhat larger photo still gets the form back with its localized error and
 * every typed field; a larger body is refused whole (413).
 */
export const editorFormMaxBytes = 1024 * 1024 + 2 * maxImageBytes;

/** The editor's fields, as a form and a draft hold them (strings and booleans only). */
export interface EditorValues {
  title: string;
  content: string;
  summary: string;
  type: WritingType;
  kind: string;
  kind_name: string;
  language: WritingLanguage;
  categories: number[];
  related_entries: string;
  cover_file_id: string;
  is_repost: boolean;
  source_url: string;
  disable_copy: boolean;
  disable_context_menu: boolean;
  tip_enabled: boolean;
  pay_to_view_price: string;
  red_packet_amount: string;
  /** The series a new serialized article continues (its first part's id), "" for a new series. */
  series_id: string;
}

export type EditorMode =
  { kind: "new" } | { kind: "edit"; id: number; version: number } | { kind: "translate"; id: number } | { kind: "series"; id: number };

const writingTypes: readonly string[] = ["article", "serial", "post"];

/** The posted editor form as the editor's values (to refill it on failure: nothing typed is lost). Browser and server alike. */
export function editorValuesFromForm(form: FormData): EditorValues {
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const checked = (name: string) => ["on", "true", "1"].includes(text(name));
  return {
    title: text("title"),
    content: text("content"),
    summary: text("summary"),
    type: (writingTypes.includes(text("type")) ? text("type") : "article") as WritingType,
    kind: text("kind") || "ordinary",
    kind_name: text("kind_name"),
    language: text("language") === "en" ? "en" : "zh-CN",
    categories: form
      .getAll("categories")
      .map((value) => (typeof value === "string" && /^\d{1,9}$/.test(value) ? Number(value) : 0))
      .filter((id) => id > 0),
    related_entries: text("related_entries"),
    cover_file_id: text("cover_file_id"),
    is_repost: checked("is_repost"),
    source_url: text("source_url"),
    disable_copy: checked("disable_copy"),
    disable_context_menu: checked("disable_context_menu"),
    tip_enabled: checked("tip_enabled"),
    pay_to_view_price: text("pay_to_view_price"),
    red_packet_amount: text("red_packet_amount"),
    series_id: text("series_id"),
  };
}

const whole = (value: string) => (/^\s*\d{1,9}\s*$/.test(value) ? Number(value) : value.trim() === "" ? 0 : Number.NaN);
const idOrNull = (value: string) => (/^\d{1,9}$/.test(value.trim()) ? Number(value) : null);

/**
 * The editor's values as the body of `PATCH /api/writings/{id}/` (what an edit may change): the
 * related entries' ids from their comma-separated text, amounts from their digits. The API's
 * schemas then parse it exactly as they parse a JSON body.
 */
export function editInputOf(values: EditorValues) {
  return {
    title: values.title,
    content: values.content,
    summary: values.summary,
    kind: values.kind,
    kind_name: values.kind_name,
    categories: values.categories,
    related_entries: values.related_entries
      .split(/[\s,，]+/)
      .filter(Boolean)
      .map((value) => (/^\d{1,9}$/.test(value) ? Number(value) : Number.NaN)),
    cover_file_id: values.cover_file_id || null,
    is_repost: values.is_repost,
    source_url: values.is_repost ? values.source_url : "",
    disable_copy: values.disable_copy,
    disable_context_menu: values.disable_context_menu,
    tip_enabled: values.tip_enabled,
    pay_to_view_price: whole(values.pay_to_view_price),
    red_packet_amount: whole(values.red_packet_amount),
  };
}

/**
 * The editor's values as the body of `POST /api/circles/{cid}/writings/`: the page decides the
 * type (the post page publishes posts), a series is continued only by a serialized article, and a
 * language version names its original (`translation_of`, the form's hidden field).
 */
export function publishInputOf(values: EditorValues, page: { type: "article" | "post"; translationOf: string }) {
  const type = page.type === "post" ? "post" : values.type === "serial" ? "serial" : "article";
  return {
    ...editInputOf(values),
    type,
    language: values.language,
    translation_of: idOrNull(page.translationOf),
    series_id: type === "serial" ? idOrNull(values.series_id) : null,
  };
}

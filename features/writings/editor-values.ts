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
}

export type EditorMode =
  { kind: "new" } | { kind: "edit"; id: number; version: number } | { kind: "translate"; id: number } | { kind: "series"; id: number };

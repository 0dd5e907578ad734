import type { WritingLanguage, WritingType } from "./schema.ts";

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

export type EditorMode = { kind: "new" } | { kind: "edit"; id: number; version: number } | { kind: "translate"; id: number } | { kind: "series"; id: number };


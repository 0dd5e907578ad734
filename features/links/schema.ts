import { z } from "zod";
import { linkLanguages, linkStatuses } from "./constants.ts";
import { multiLineText, singleLineText } from "../feedback/text.ts";
import { reasonField } from "../admin/audit.ts";

export const linkLimits = { name: 50, url: 300, description: 200, note: 500 } as const;

/** Only web addresses a reader can open: http(s), with a host; anything else (javascript:, data:) is refused. */
function isWebAddress(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.length > 0 && !url.username && !url.password;
  } catch {
    return false;
  }
}

/** `POST /api/links/` and the suggestion form of `/link`. */
export const linkSuggestionSchema = z.strictObject({
  name: singleLineText(linkLimits.name, "validation:link_name_too_long", "validation:link_name_required"),
  url: singleLineText(linkLimits.url, "validation:link_url_too_long", "validation:link_url_invalid").refine(
    isWebAddress,
    "validation:link_url_invalid",
  ),
  description: multiLineText(linkLimits.description, "validation:link_description_too_long").default(""),
  language: z.enum(linkLanguages, { error: "validation:link_language_required" }).default("both"),
});
export type LinkSuggestion = z.infer<typeof linkSuggestionSchema>;

/** `POST /api/admin/links/{id}/review/` and the review form of `/admin/links`. */
export const linkReviewSchema = z.strictObject({
  decision: z.enum(["approve", "reject"], { error: "validation:link_decision_required" }),
  note: multiLineText(linkLimits.note, "validation:link_note_too_long").default(""),
  /** Why, for the audit log: required (400 `reason_required`). */
  reason: reasonField,
});
export type LinkReview = z.infer<typeof linkReviewSchema>;

/** `GET /api/admin/links/?status=`. */
export const linkQuerySchema = z.strictObject({
  status: z.enum([...linkStatuses, "all"]).default("pending"),
});

import type { Locale } from "./locale.ts";
import { translator } from "./i18n.ts";

/** Every error the product shows: a stable code (a key of the `errors` catalog) and its HTTP status. */
export const errorStatus = {
  bad_request: 400,
  invalid_range: 400,
  request_aborted: 400,
  invalid_characters: 400,
  validation_failed: 400,
  captcha_required: 400,
  captcha_failed: 400,
  phone_invalid: 400,
  code_incorrect: 400,
  sms_code_incorrect: 400,
  code_expired: 400,
  username_required: 400,
  reset_token_expired: 400,
  circle_parent_invalid: 400,
  category_parent_invalid: 400,
  image_invalid: 400,
  file_required: 400,
  wrong_old_password: 400,
  cannot_follow_self: 400,
  too_many_folders: 409,
  default_folder_fixed: 400,
  cannot_unfollow_self: 400,
  cannot_block_self: 400,
  invalid_credentials: 401,
  not_authenticated: 401,
  csrf_failed: 403,
  forbidden: 403,
  account_suspended: 403,
  reason_required: 400,
  founder_cannot_leave: 403,
  comment_edit_expired: 403,
  chat_blocked: 403,
  chat_you_blocked: 403,
  not_found: 404,
  unknown_category: 404,
  not_a_member: 404,
  no_follow_target: 404,
  already_checked_in: 409,
  insufficient_balance: 409,
  idempotency_key_required: 400,
  idempotency_mismatch: 422,
  cannot_tip_self: 400,
  tips_disabled: 409,
  payment_refused: 400,
  order_not_open: 409,
  topup_failed: 500,
  tip_failed: 500,
  refund_unavailable: 409,
  refund_request_limit: 429,
  daily_limit_reached: 429,
  correction_not_pending: 409,
  second_admin_required: 403,
  refund_request_decided: 409,
  topup_daily_limit: 409,
  topups_closed: 503,
  red_packet_empty: 409,
  already_claimed: 409,
  red_packet_failed: 500,
  no_slots: 409,
  already_accepted: 409,
  trade_progress_closed: 409,
  not_completed: 409,
  mission_key_taken: 409,
  missions_failed: 500,
  trade_failed: 500,
  ad_not_pending: 409,
  ad_status_fixed: 409,
  ad_changed: 409,
  ad_creative_fixed: 409,
  ads_failed: 500,
  unlock_failed: 500,
  exchange_failed: 500,
  item_already_owned: 409,
  no_makeup_card: 409,
  makeup_day_not_missed: 409,
  makeup_day_out_of_range: 400,
  shop_purchase_failed: 500,
  makeup_failed: 500,
  method_not_allowed: 405,
  request_timeout: 408,
  username_exists: 409,
  email_exists: 409,
  username_email_exist: 409,
  circle_name_taken: 409,
  circle_root_fixed: 409,
  circle_has_subcircles: 409,
  circle_has_content: 409,
  category_name_taken: 409,
  category_in_use: 409,
  too_many_pins: 409,
  repeated_flagging: 409,
  cannot_report_own: 400,
  moderation_action_unavailable: 409,
  case_closed: 409,
  book_completed: 409,
  edit_conflict: 409,
  already_answered: 409,
  draft_conflict: 409,
  draft_limit_reached: 409,
  language_version_exists: 409,
  payload_too_large: 413,
  image_too_large: 413,
  unsupported_media_type: 415,
  headers_too_large: 431,
  image_type_not_allowed: 415,
  content_too_large: 413,
  content_too_complex: 422,
  rendering_busy: 429,
  too_many_attempts: 429,
  rate_limited: 429,
  chat_rate_limited: 429,
  code_attempts_exceeded: 429,
  code_resend_wait: 429,
  code_send_limited: 429,
  logout_failed: 500,
  code_send_failed: 502,
  email_send_failed: 502,
  sms_send_failed: 502,
  follow_failed: 500,
  comment_failed: 500,
  search_failed: 500,
  ranking_failed: 500,
  report_failed: 500,
  feedback_failed: 500,
  link_failed: 500,
  unfollow_failed: 500,
  checkin_failed: 500,
  upload_failed: 500,
  announcement_failed: 500,
  internal: 500,
  server_busy: 503,
  below_minimum: 400,
  insufficient_cashoutable: 409,
  payout_account_required: 409,
  cashout_not_requested: 409,
  cashout_not_approved: 409,
  cashout_failed: 500,
  already_applied: 409,
  membership_other_tier: 409,
  application_decided: 409,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly params: Record<string, string | number>;
  /** Field name → `validation` catalog key, for form errors. */
  readonly fields: Record<string, string> | undefined;
  /** Extra data the client needs to recover (an edit conflict's current version), sent beside `code` and `message`. */
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: ErrorCode,
    options: { params?: Record<string, string | number>; fields?: Record<string, string>; details?: Record<string, unknown> } = {},
  ) {
    super(code);
    this.name = "AppError";
    this.code = code;
    this.status = errorStatus[code];
    this.params = options.params ?? {};
    this.fields = options.fields;
    this.details = options.details;
  }
}

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  fields?: Record<string, string>;
  [detail: string]: unknown;
}

/** The JSON an API answers with for an error, in the viewer's language. */
export function presentError(error: AppError, locale: Locale): ErrorBody {
  const t = translator(locale);
  const body: ErrorBody = { ...error.details, code: error.code, message: t(`errors:${error.code}`, error.params) };
  if (error.fields) {
    body.fields = Object.fromEntries(Object.entries(error.fields).map(([field, key]) => [field, t(key, error.params)]));
  }
  return body;
}

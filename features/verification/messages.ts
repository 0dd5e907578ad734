import "./catalog.ts";
import { translator } from "../../common/i18n.ts";
import type { Locale } from "../../common/locale.ts";
import { codeLimits, type DeliveryChannel, type VerificationPurpose } from "./constants.ts";

export interface MessageContent {
  subject: string;
  text: string;
}

/** What a code's mail or SMS says, in the language of the page that asked for it. */
export function codeMessage(locale: Locale, purpose: VerificationPurpose, channel: DeliveryChannel, code: string): MessageContent {
  const t = translator(locale);
  const body = t(`codes:message.${purpose}`, { code, minutes: codeLimits.validSeconds / 60 });
  return { subject: t("codes:message.code_subject"), text: channel === "email" ? `${body}\n\n${t("codes:message.signature")}\n` : body };
}

/** Sent to an address that asked for a password reset but has no account: the same effort, no code. */
export function noAccountMessage(locale: Locale): MessageContent {
  const t = translator(locale);
  return { subject: t("codes:message.no_account_subject"), text: `${t("codes:message.no_account")}\n\n${t("codes:message.signature")}\n` };
}

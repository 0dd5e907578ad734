import { useEffect, useRef } from "react";
import { Form } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { Alert, Button, Checkbox, Input, type InputRef } from "antd";
import { FormField, describedBy } from "./form-field.tsx";
import { SliderCaptcha } from "./slider-captcha.tsx";
import { DefaultIntent, SendCodeButton } from "./send-code-button.tsx";
import { useCountdown } from "../lib/use-countdown.ts";
import { schemaCheck, useIntentValidation } from "../lib/use-intent-validation.ts";
import { smsLoginSchema, smsSendCodeSchema } from "../../features/verification/schema.ts";
import { usernameSchema } from "../../features/accounts/schema.ts";
import "../../common/i18n-forms.ts";

/** The SMS form's answer from the page action (see app/lib/code-forms.server.ts). */
export interface SmsFormAnswer {
  intent: string;
  resendAfter?: number;
  notice?: string;
  needUsername?: boolean;
  formError?: string;
  fieldErrors?: Record<string, string>;
  values?: Record<string, string>;
}

interface SmsLoginFormProps {
  action: string;
  csrfToken: string;
  /** Countries with calling codes, China first. */
  regions: { code: string; label: string }[];
  captcha: boolean;
  answer: SmsFormAnswer | undefined;
  submitting: boolean;
}

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : undefined;
};

export function smsInputFromForm(form: FormData) {
  const username = text(form, "username");
  return {
    phone: text(form, "phone"),
    region: text(form, "region") || undefined,
    code: text(form, "code"),
    remember: form.get("remember") === "on",
    username: username ? username : undefined,
    captcha: text(form, "captcha") || undefined,
  };
}

const sendCheck = (captcha: boolean) => (form: FormData) => {
  const { phone, region, captcha: token } = smsInputFromForm(form);
  const problems = schemaCheck(smsSendCodeSchema, () => ({ phone, region }))(form);
  return captcha && !token ? { ...problems, captcha: "errors:captcha_required" } : problems;
};

const loginCheck = (needUsername: boolean) => (form: FormData) => {
  const { captcha: _captcha, ...input } = smsInputFromForm(form);
  const problems = schemaCheck(smsLoginSchema, () => input)(form);
  if (needUsername && !problems.username) {
    const username = usernameSchema.safeParse(input.username ?? "");
    if (!username.success) problems.username = username.error.issues[0]!.message;
  }
  return problems;
};

/**
 * Sign-in by SMS: phone (country code and number), the puzzle, "Send code" with its countdown,
 * the code, and on a phone's first use a username for the new account. One form with an intent
 * per button, so it works as a plain form post as well.
 */
export function SmsLoginForm({ action, csrfToken, regions, captcha, answer, submitting }: SmsLoginFormProps) {
  const { t } = useTranslation(["codes", "accounts"]);
  const sentAnswer = answer?.resendAfter !== undefined ? answer : undefined;
  const { remaining, running } = useCountdown(sentAnswer?.resendAfter, sentAnswer);
  const codeSent = answer?.intent === "sms_send" && !answer.formError && !answer.fieldErrors;
  const needUsername = Boolean(answer?.needUsername);
  const { errors, onSubmit } = useIntentValidation(
    { sms_send: sendCheck(captcha), sms_login: loginCheck(needUsername) },
    answer?.fieldErrors,
  );
  const values = answer?.values ?? {};
  const usernameRef = useRef<InputRef>(null);
  const codeRef = useRef<InputRef>(null);

  // After sending, the code field is next; after "choose a username", the username field.
  useEffect(() => {
    if (needUsername) usernameRef.current?.focus();
    else if (codeSent) codeRef.current?.focus();
  }, [answer, needUsername, codeSent]);

  // The puzzle is asked for again once another code may be sent.
  const showCaptcha = captcha && !(running && remaining > 0) && !needUsername;
  return (
    <Form method="post" action={action} noValidate onSubmit={onSubmit} aria-label={t("codes:login.mode_sms")}>
      <DefaultIntent intent={codeSent || needUsername || values.code ? "sms_login" : "sms_send"} />
      <input type="hidden" name="csrftoken" value={csrfToken} />
      {answer?.formError ? <Alert className="form-alert" type="error" showIcon title={answer.formError} role="alert" /> : null}
      <FormField id="sms-phone" label={t("codes:login.phone")} error={errors.phone}>
        <div className="phone-row">
          <select name="region" className="native-select" aria-label={t("codes:login.region")} defaultValue={values.region ?? "CN"}>
            {regions.map((region) => (
              <option key={region.code} value={region.code}>
                {region.label}
              </option>
            ))}
          </select>
          <Input
            id="sms-phone"
            name="phone"
            type="tel"
            defaultValue={values.phone}
            autoComplete="tel-national"
            inputMode="tel"
            maxLength={40}
            {...describedBy("sms-phone", errors.phone)}
          />
        </div>
      </FormField>
      {showCaptcha ? <SliderCaptcha id="sms-captcha" error={errors.captcha} resetSignal={answer} /> : null}
      <div className="code-row">
        <FormField id="sms-code" label={t("codes:code.label")} error={errors.code}>
          <Input
            ref={codeRef}
            id="sms-code"
            name="code"
            defaultValue={values.code}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            {...describedBy("sms-code", errors.code)}
          />
        </FormField>
        <SendCodeButton
          id="sms-send"
          intent="sms_send"
          label={t("codes:code.send")}
          resendAfter={sentAnswer?.resendAfter}
          answer={sentAnswer}
        />
      </div>
      <p className="code-notice" id="sms-notice" aria-live="polite">
        {answer?.notice ?? ""}
      </p>
      {needUsername ? (
        <FormField
          id="sms-username"
          label={t("codes:login.username_for_phone")}
          error={errors.username}
          hint={t("accounts:register.username_hint")}
        >
          <Input
            ref={usernameRef}
            id="sms-username"
            name="username"
            defaultValue={values.username}
            autoComplete="username"
            maxLength={16}
            {...describedBy("sms-username", errors.username, "hint")}
          />
        </FormField>
      ) : null}
      <div className="form-field">
        <Checkbox name="remember" id="sms-remember" defaultChecked={values.remember === "on"}>
          {t("accounts:login.remember")}
        </Checkbox>
      </div>
      <Button type="primary" htmlType="submit" name="intent" value="sms_login" block loading={submitting}>
        {t("accounts:login.submit")}
      </Button>
      <p className="muted">{t("codes:login.sms_hint")}</p>
    </Form>
  );
}

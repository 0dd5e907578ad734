import { useEffect, useRef } from "react";
import { data, Form, Link, useNavigation } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { Alert, Button, Input, type InputRef } from "antd";
import type { Route } from "./+types/forget-password";
import { assertFormCsrf, csrfForForm, getAppContext, keptValues, privatePageHeaders, readForm } from "../lib/context.server.ts";
import { codeFormFailure, type CodeFormData } from "../lib/code-forms.server.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { dispatchIntent, formAction, type FormFailure } from "../../server/lib/operation.ts";
import { translator } from "../../common/i18n.ts";
import { AppError } from "../../common/app-error.ts";
import { pageMeta } from "../lib/meta.ts";
import { schemaCheck, useIntentValidation } from "../lib/use-intent-validation.ts";
import { useCountdown } from "../lib/use-countdown.ts";
import { FormField, describedBy } from "../components/form-field.tsx";
import { AntdScope } from "../components/antd-scope.tsx";
import { SliderCaptcha } from "../components/slider-captcha.tsx";
import { DefaultIntent, SendCodeButton } from "../components/send-code-button.tsx";
import "../../features/verification/catalog.ts";
import { passwordResetSendCodeSchema, passwordResetSetSchema, passwordResetVerifySchema } from "../../features/verification/schema.ts";
import {
  sendPasswordResetCodeOperation,
  setPasswordWithTokenOperation,
  verifyPasswordResetCodeOperation,
} from "../../features/verification/operations.ts";
import codesStyles from "../styles/codes.css?url";
import "../../common/i18n-forms.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "codes:forget.title");

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: codesStyles }];

export const headers = privatePageHeaders;

/** Spec section 4: email → code sent → code verified → new password → success → back to login. */
const steps = ["email", "code", "password", "done"] as const;
type Step = (typeof steps)[number];

interface ResetAnswer extends CodeFormData {
  step: Step;
  email?: string;
  /** The reset token from a verified code, carried by the password form. */
  token?: string;
}

/** Open to everyone: a signed-in user who forgot the password may reset it too (and is signed out everywhere). */
export async function loader({ context }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const csrf = csrfForForm(app);
  return data({ csrfToken: csrf.token, captcha: app.captcha }, { headers: csrf.setCookie ? { "Set-Cookie": csrf.setCookie } : undefined });
}

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : undefined;
};

/**
 * One action for every step (the button names its intent), so the page works as plain form posts
 * too; the email and then the reset token travel in hidden fields from step to step.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  const form = await readForm(request);
  const intent = field(form, "intent") ?? "";
  const email = field(form, "email")?.trim();
  const token = field(form, "token");
  const t = translator(app.locale);
  const stepOf: Record<string, Step> = { send: "email", resend: "code", verify: "code", set: "password" };
  const answer: ResetAnswer = { intent, step: stepOf[intent] ?? "email", email, token, values: keptValues(form, ["email", "code"]) };
  // The API's operations; a refusal is thrown to `codeFormFailure` (it reads the wait from the
  // error), a field the schema refuses is said on the form.
  const refusals = {
    errorScreen: () => true,
    failed: (failure: FormFailure) => data<ResetAnswer>({ ...answer, fieldErrors: failure.fieldErrors }, { status: failure.status }),
  };
  const send = formAction(sendPasswordResetCodeOperation, {
    body: () => ({ email, captcha: field(form, "captcha") || undefined }),
    done: (sent, _post, { input }) => ({
      ...answer,
      step: "code" as const,
      resendAfter: sent.resend_after,
      notice: t("codes:forget.sent", { email: input.body.email }),
    }),
    ...refusals,
  });
  // One handler per step's button; a post without a known intent starts again from the email.
  const handlers = {
    send,
    resend: send,
    verify: formAction(verifyPasswordResetCodeOperation, {
      body: () => ({ email, code: field(form, "code") }),
      done: (permission) => ({ ...answer, step: "password" as const, token: permission.token, notice: t("codes:forget.verified") }),
      ...refusals,
    }),
    set: formAction(setPasswordWithTokenOperation, {
      body: () => ({ token, password: field(form, "password"), confirm_password: field(form, "confirm_password") }),
      done: () => ({ intent, step: "done" as const }),
      ...refusals,
    }),
  };
  try {
    assertFormCsrf(app, form);
    if (!Object.hasOwn(handlers, intent)) return { ...answer, step: "email" as const };
    return await dispatchIntent({ app, request, form, params: {} }, handlers);
  } catch (error) {
    // Without a live token the password step is over: start again from the email.
    if (error instanceof AppError && error.code === "reset_token_expired")
      return codeFormFailure(app, error, { ...answer, step: "email" as const, token: undefined });
    return codeFormFailure(app, error, answer);
  }
}

export default function ForgetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation(["codes", "accounts"]);
  const locale = i18n.language as Locale;
  const navigation = useNavigation();
  const answer = actionData as ResetAnswer | undefined;
  const step: Step = answer?.step ?? "email";
  const current = steps.indexOf(step);
  const heading = useRef<HTMLHeadingElement>(null);
  const firstField = useRef<InputRef>(null);
  const captchaCheck = (form: FormData): Record<string, string> =>
    loaderData.captcha && !field(form, "captcha") ? { captcha: "errors:captcha_required" } : {};
  const { errors, onSubmit } = useIntentValidation(
    {
      send: (form) => ({
        ...schemaCheck(passwordResetSendCodeSchema.pick({ email: true }), () => ({ email: field(form, "email") }))(form),
        ...captchaCheck(form),
      }),
      resend: captchaCheck,
      verify: schemaCheck(passwordResetVerifySchema, (form) => ({ email: field(form, "email"), code: field(form, "code") })),
      set: schemaCheck(passwordResetSetSchema, (form) => ({
        token: field(form, "token"),
        password: field(form, "password"),
        confirm_password: field(form, "confirm_password"),
      })),
    },
    answer?.fieldErrors,
  );

  // A new step takes the focus to its first field, so keyboard and screen-reader users follow along.
  useEffect(() => {
    if (!answer) return;
    if (step === "done") heading.current?.focus();
    else firstField.current?.focus();
  }, [answer, step]);

  const submitting = navigation.state === "submitting";
  const action = localizePath("/forget_password", locale);
  const sentAnswer = answer?.resendAfter !== undefined ? answer : undefined;
  return (
    <AntdScope>
      <section className="panel auth-panel" aria-labelledby="forget-title">
        <h1 id="forget-title" className="page-title" ref={heading} tabIndex={-1}>
          {step === "done" ? t("forget.done_title") : t("forget.heading")}
        </h1>
        <ol className="steps" aria-label={t("forget.steps")}>
          {steps.map((name, index) => (
            <li
              key={name}
              aria-current={index === current ? "step" : undefined}
              data-state={index < current ? "done" : index === current ? "current" : "todo"}
            >
              {t(`forget.step_${name}`)}
            </li>
          ))}
        </ol>
        {answer?.formError ? <Alert className="form-alert" type="error" showIcon title={answer.formError} role="alert" /> : null}
        <p className="code-notice" aria-live="polite" id="forget-notice">
          {step !== "done" && !answer?.formError ? (answer?.notice ?? "") : ""}
        </p>
        {step === "done" ? (
          <div className="reset-done">
            <p>{t("forget.done")}</p>
            <Link className="button button-primary" to={localizePath("/login", locale)}>
              {t("forget.to_login")}
            </Link>
          </div>
        ) : (
          <Form method="post" action={action} noValidate aria-label={t("forget.title")} onSubmit={onSubmit}>
            <input type="hidden" name="csrftoken" value={loaderData.csrfToken} />
            {step === "email" ? (
              <>
                <DefaultIntent intent="send" />
                <FormField id="forget-email" label={t("forget.email")} error={errors.email} hint={t("forget.email_hint")}>
                  <Input
                    ref={firstField}
                    id="forget-email"
                    name="email"
                    type="email"
                    defaultValue={answer?.email}
                    autoComplete="email"
                    maxLength={254}
                    {...describedBy("forget-email", errors.email, "hint")}
                  />
                </FormField>
                {loaderData.captcha ? <SliderCaptcha id="forget-captcha" error={errors.captcha} resetSignal={answer} /> : null}
                <Button type="primary" htmlType="submit" name="intent" value="send" block loading={submitting}>
                  {t("forget.send")}
                </Button>
              </>
            ) : null}
            {step === "code" ? (
              <>
                <DefaultIntent intent="verify" />
                <input type="hidden" name="email" value={answer?.email ?? ""} />
                <div className="code-row">
                  <FormField id="forget-code" label={t("code.label")} error={errors.code}>
                    <Input
                      ref={firstField}
                      id="forget-code"
                      name="code"
                      inputMode="numeric"
                      autoComplete="one-time-code"
                      maxLength={6}
                      {...describedBy("forget-code", errors.code)}
                    />
                  </FormField>
                  <SendCodeButton
                    id="forget-resend"
                    intent="resend"
                    label={t("code.send")}
                    resendAfter={sentAnswer?.resendAfter}
                    answer={sentAnswer}
                  />
                </div>
                <ResendPuzzle captcha={loaderData.captcha} answer={sentAnswer} error={errors.captcha} />
                <Button type="primary" htmlType="submit" name="intent" value="verify" block loading={submitting}>
                  {t("forget.verify")}
                </Button>
                <p className="auth-links">
                  <Link to={action}>{t("forget.change_email")}</Link>
                </p>
              </>
            ) : null}
            {step === "password" ? (
              <>
                <DefaultIntent intent="set" />
                <input type="hidden" name="token" value={answer?.token ?? ""} />
                <FormField
                  id="forget-password"
                  label={t("forget.password")}
                  error={errors.password}
                  hint={t("accounts:register.password_hint")}
                >
                  <Input.Password
                    ref={firstField}
                    id="forget-password"
                    name="password"
                    autoComplete="new-password"
                    maxLength={20}
                    {...describedBy("forget-password", errors.password, "hint")}
                  />
                </FormField>
                <FormField id="forget-confirm" label={t("forget.confirm_password")} error={errors.confirm_password}>
                  <Input.Password
                    id="forget-confirm"
                    name="confirm_password"
                    autoComplete="new-password"
                    maxLength={20}
                    {...describedBy("forget-confirm", errors.confirm_password)}
                  />
                </FormField>
                <Button type="primary" htmlType="submit" name="intent" value="set" block loading={submitting}>
                  {t("forget.submit")}
                </Button>
              </>
            ) : null}
          </Form>
        )}
        {step !== "done" ? (
          <p className="muted">
            {t("forget.remembered")} <Link to={localizePath("/login", locale)}>{t("forget.to_login")}</Link>
          </p>
        ) : null}
      </section>
    </AntdScope>
  );
}

/** Asking for another code takes the puzzle again, once the minute is over. */
function ResendPuzzle({ captcha, answer, error }: { captcha: boolean; answer: CodeFormData | undefined; error?: string }) {
  const { remaining, running } = useCountdown(answer?.resendAfter, answer);
  if (!captcha || (running && remaining > 0)) return null;
  return <SliderCaptcha id="forget-captcha" error={error} resetSignal={answer} />;
}

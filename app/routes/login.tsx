import { useRef, useState } from "react";
import { data, Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { Alert, Button, Checkbox, Input } from "antd";
import type { Route } from "./+types/login";
import { assertFormCsrf, readForm, getAppContext, guestFormData, here, keptValues, privatePageHeaders } from "../lib/context.server.ts";
import { codeFormFailure, type CodeFormData } from "../lib/code-forms.server.ts";
import { localizePath, pageUrl, safeNextPath, type Locale } from "../../common/locale.ts";
import { translator } from "../../common/i18n.ts";
import { pageMeta } from "../lib/meta.ts";
import { schemaCheck, useIntentValidation } from "../lib/use-intent-validation.ts";
import { FormField, describedBy } from "../components/form-field.tsx";
import { AntdScope } from "../components/antd-scope.tsx";
import { SliderCaptcha } from "../components/slider-captcha.tsx";
import { DefaultIntent, SendCodeButton } from "../components/send-code-button.tsx";
import { SmsLoginForm, smsInputFromForm } from "../components/sms-login-form.tsx";
import { loginSchema } from "../../features/accounts/schema.ts";
import { loginInputFromForm } from "../../features/accounts/form-input.ts";
import { logInOperation } from "../../features/accounts/operations.ts";
import "../../features/verification/catalog.ts";
import { codeSchema, loginCodeSendSchema } from "../../features/verification/schema.ts";
import { phoneRegionOptions } from "../../features/verification/phone.server.ts";
import { sendLoginCodeOperation, sendSmsCodeOperation, smsLogInOperation } from "../../features/verification/operations.ts";
import codesStyles from "../styles/codes.css?url";
import "../../common/i18n-forms.ts";
import { dispatchIntent, formAction, type FormFailure } from "../../server/lib/operation.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "accounts:login.title");

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: codesStyles }];

export const headers = privatePageHeaders;

type Mode = "password" | "sms";
const modeOf = (params: URLSearchParams): Mode => (params.get("mode") === "sms" ? "sms" : "password");

export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const mode = modeOf(pageUrl(request.url).searchParams);
  // Country calling codes come from the server (names in the page's language), only where shown.
  return guestFormData(app, { captcha: app.captcha, regions: mode === "sms" ? phoneRegionOptions(app.locale) : [] });
}

export async function action({ context, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  const form = await readForm(request);
  const intent = typeof form.get("intent") === "string" ? String(form.get("intent")) : "login";
  const answer: CodeFormData = { intent, values: keptValues(form, ["username", "phone", "region", "code", "login_code", "remember"]) };
  const url = pageUrl(request.url);
  const t = translator(app.locale);
  // The API's operations; a refusal is thrown to `codeFormFailure` (it reads the wait and the
  // username request from the error), a field the schema refuses is said on the form.
  const refusals = {
    errorScreen: () => true,
    failed: (failure: FormFailure) => data<CodeFormData>({ ...answer, fieldErrors: failure.fieldErrors }, { status: failure.status }),
  };
  const signedIn = () => redirect(here(app, safeNextPath(url.searchParams.get("next")) ?? "/"));
  // One handler per intent (the password form posts none: it is the default).
  const handlers = {
    send_login_code: formAction(sendLoginCodeOperation, {
      body: (form) => ({ username: form.get("username") ?? undefined }),
      done: (sent) => ({ ...answer, resendAfter: sent.resend_after, notice: t("codes:login.no_puzzle_sent") }),
      ...refusals,
    }),
    sms_send: formAction(sendSmsCodeOperation, {
      body: (form) => {
        const { phone, region, captcha } = smsInputFromForm(form);
        return { phone, region, captcha };
      },
      done: (sent, _post, { input }) => ({
        ...answer,
        resendAfter: sent.resend_after,
        notice: t("codes:code.sent_sms", { phone: input.body.phone }),
      }),
      ...refusals,
    }),
    // A new session and a CSRF token bound to it (the old ones stop working) go out with the redirect.
    sms_login: formAction(smsLogInOperation, {
      body: (form) => {
        const { captcha: _captcha, ...input } = smsInputFromForm(form);
        return input;
      },
      done: signedIn,
      ...refusals,
    }),
    login: formAction(logInOperation, { body: loginInputFromForm, done: signedIn, ...refusals }),
  };
  try {
    assertFormCsrf(app, form);
    form.set("intent", intent);
    return await dispatchIntent({ app, request, form, params: {} }, handlers);
  } catch (error) {
    return codeFormFailure(app, error, answer);
  }
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation(["accounts", "codes"]);
  const locale = i18n.language as Locale;
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const mode = modeOf(params);
  const next = safeNextPath(params.get("next"));
  const pagePath = (query: Record<string, string>) => {
    const search = new URLSearchParams({ ...query, ...(next ? { next } : {}) }).toString();
    return `${localizePath("/login", locale)}${search ? `?${search}` : ""}`;
  };
  const action = pagePath(mode === "sms" ? { mode: "sms" } : {});
  const submitting = navigation.state === "submitting";
  return (
    <AntdScope>
      <section className="panel auth-panel" aria-labelledby="login-title">
        <h1 id="login-title" className="page-title">
          {t("login.heading")}
        </h1>
        <nav className="tabs-nav" aria-label={t("codes:login.modes")}>
          <Link to={pagePath({})} aria-current={mode === "password" ? "page" : undefined} replace>
            {t("codes:login.mode_password")}
          </Link>
          <Link to={pagePath({ mode: "sms" })} aria-current={mode === "sms" ? "page" : undefined} replace>
            {t("codes:login.mode_sms")}
          </Link>
        </nav>
        {mode === "sms" ? (
          <SmsLoginForm
            action={action}
            csrfToken={loaderData.csrfToken}
            regions={loaderData.regions}
            captcha={loaderData.captcha}
            answer={actionData}
            submitting={submitting}
          />
        ) : (
          <PasswordLoginForm
            action={action}
            csrfToken={loaderData.csrfToken}
            captcha={loaderData.captcha}
            answer={actionData}
            submitting={submitting}
            withoutPuzzleHref={pagePath({ puzzle: "code" })}
            withPuzzleHref={pagePath({})}
          />
        )}
        <p className="muted">
          {t("login.no_account")} <Link to={localizePath("/register", locale)}>{t("login.register_link")}</Link>
        </p>
      </section>
    </AntdScope>
  );
}

interface PasswordLoginFormProps {
  action: string;
  csrfToken: string;
  captcha: boolean;
  answer: CodeFormData | undefined;
  submitting: boolean;
  /** The same page asking for a code instead of the puzzle (the links work without JavaScript). */
  withoutPuzzleHref: string;
  withPuzzleHref: string;
}

/**
 * Username or email and password, after the slider puzzle — or, for people who cannot solve it,
 * after a code sent to the account's email or phone (keyboard reachable, announced politely).
 */
function PasswordLoginForm({ action, csrfToken, captcha, answer, submitting, withoutPuzzleHref, withPuzzleHref }: PasswordLoginFormProps) {
  const { t, i18n } = useTranslation(["accounts", "codes"]);
  const locale = i18n.language as Locale;
  const [params] = useSearchParams();
  const [withoutPuzzle, setWithoutPuzzle] = useState(
    params.get("puzzle") === "code" || answer?.intent === "send_login_code" || Boolean(answer?.values?.login_code),
  );
  const [announcement, setAnnouncement] = useState("");
  const sendButton = useRef<HTMLDivElement>(null);
  const useCode = captcha && withoutPuzzle;
  const { errors, onSubmit } = useIntentValidation(
    {
      login: (form) => {
        const problems = schemaCheck(loginSchema, loginInputFromForm)(form);
        if (useCode) {
          const code = codeSchema.safeParse(form.get("login_code") ?? "");
          if (!code.success) problems.login_code = code.error.issues[0]!.message;
        } else if (captcha && !form.get("captcha")) problems.captcha = "errors:captcha_required";
        return problems;
      },
      send_login_code: schemaCheck(loginCodeSendSchema, (form) => ({ username: form.get("username") ?? undefined })),
    },
    answer?.fieldErrors,
  );
  const sentAnswer = answer?.intent === "send_login_code" && answer.resendAfter !== undefined ? answer : undefined;

  const chooseCode = () => {
    setWithoutPuzzle(true);
    setAnnouncement(t("codes:login.no_puzzle_intro"));
    // The next control to use is the send button; its group's label (the explanation) is read with it.
    requestAnimationFrame(() => sendButton.current?.querySelector("button")?.focus());
  };
  return (
    <Form method="post" action={action} noValidate onSubmit={onSubmit} aria-label={t("login.title")}>
      <DefaultIntent intent="login" />
      <input type="hidden" name="csrftoken" value={csrfToken} />
      {answer?.formError ? <Alert className="form-alert" type="error" showIcon title={answer.formError} role="alert" /> : null}
      <FormField id="login-username" label={t("login.username")} error={errors.username}>
        <Input
          id="login-username"
          name="username"
          defaultValue={answer?.values?.username}
          autoComplete="username"
          maxLength={254}
          {...describedBy("login-username", errors.username)}
        />
      </FormField>
      <FormField id="login-password" label={t("login.password")} error={errors.password}>
        <Input.Password
          id="login-password"
          name="password"
          autoComplete="current-password"
          maxLength={200}
          {...describedBy("login-password", errors.password)}
        />
      </FormField>
      {captcha && !useCode ? (
        <>
          <SliderCaptcha id="login-captcha" error={errors.captcha} resetSignal={answer} />
          <p className="captcha-alternative">
            <Link
              to={withoutPuzzleHref}
              replace
              onClick={(event) => {
                event.preventDefault();
                chooseCode();
              }}
            >
              {t("codes:login.no_puzzle_link")}
            </Link>
          </p>
        </>
      ) : null}
      {useCode ? (
        <div className="form-field code-alternative" role="group" aria-labelledby="login-code-intro">
          <p id="login-code-intro">{t("codes:login.no_puzzle_intro")}</p>
          <div ref={sendButton}>
            <SendCodeButton
              id="login-code-send"
              intent="send_login_code"
              label={t("codes:login.no_puzzle_send")}
              resendAfter={sentAnswer?.resendAfter}
              answer={sentAnswer}
              block
            />
          </div>
          <FormField id="login-code" label={t("codes:code.label")} error={errors.login_code}>
            <Input
              id="login-code"
              name="login_code"
              defaultValue={answer?.values?.login_code}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={6}
              {...describedBy("login-code", errors.login_code)}
            />
          </FormField>
          <Link
            to={withPuzzleHref}
            replace
            onClick={(event) => {
              event.preventDefault();
              setWithoutPuzzle(false);
              setAnnouncement("");
            }}
          >
            {t("codes:login.no_puzzle_back")}
          </Link>
        </div>
      ) : null}
      <p className="code-notice" aria-live="polite" id="login-notice">
        {answer?.notice ?? ""}
      </p>
      <p className="visually-hidden" aria-live="polite">
        {announcement}
      </p>
      <div className="form-field">
        <Checkbox name="remember" id="login-remember">
          {t("login.remember")}
        </Checkbox>
      </div>
      <Button type="primary" htmlType="submit" name="intent" value="login" block loading={submitting}>
        {t("login.submit")}
      </Button>
      <p className="auth-links">
        <Link to={localizePath("/forget_password", locale)}>{t("codes:login.forgot_password")}</Link>
      </p>
    </Form>
  );
}

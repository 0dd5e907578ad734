import { Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { useTranslation } from "react-i18next";
import { Alert, Button, Checkbox, Input } from "antd";
import type { Route } from "./+types/login";
import { assertFormCsrf, readForm, formFailure, getAppContext, guestFormData, here, invalidForm, keptValues, privatePageHeaders, signInHeaders } from "../lib/context.server.ts";
import { localizePath, pageUrl, safeNextPath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { useFormValidation } from "../lib/use-form-validation.ts";
import { FormField, describedBy } from "../components/form-field.tsx";
import { AntdScope } from "../components/antd-scope.tsx";
import { SliderCaptcha } from "../components/slider-captcha.tsx";
import { fieldErrors, loginSchema } from "../../features/accounts/schema.ts";
import { loginInputFromForm } from "../../features/accounts/form-input.ts";
import { logIn } from "../../features/accounts/service.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "accounts:login.title");

export const headers = privatePageHeaders;

export async function loader({ context }: Route.LoaderArgs) {
  const app = getAppContext(context);
  return guestFormData(app, { captcha: app.captcha });
}

export async function action({ context, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  const form = await readForm(request);
  const values = keptValues(form, ["username"]);
  try {
    assertFormCsrf(app, form);
    const parsed = loginSchema.safeParse(loginInputFromForm(form));
    if (!parsed.success) return invalidForm(app, fieldErrors(parsed.error), values);
    const signedIn = await logIn(app.db, parsed.data, app.client, { captcha: app.captcha, replacing: app.sessionToken });
    const next = safeNextPath(pageUrl(request.url).searchParams.get("next"));
    return redirect(here(app, next ?? "/"), { headers: signInHeaders(app, signedIn.token, signedIn.persistent) });
  } catch (error) {
    return formFailure(app, error, values);
  }
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("accounts");
  const locale = i18n.language as Locale;
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const { errors, onSubmit } = useFormValidation(loginSchema, loginInputFromForm, actionData?.fieldErrors, (form): Record<string, string> =>
    loaderData.captcha && !form.get("captcha") ? { captcha: "errors:captcha_required" } : {},
  );
  const next = safeNextPath(params.get("next"));
  const action = next ? `${localizePath("/login", locale)}?next=${encodeURIComponent(next)}` : localizePath("/login", locale);
  return (
    <AntdScope>
      <section className="panel auth-panel" aria-labelledby="login-title">
        <h1 id="login-title" className="page-title">
          {t("login.heading")}
        </h1>
        {actionData?.formError ? <Alert className="form-alert" type="error" showIcon title={actionData.formError} role="alert" /> : null}
        <Form method="post" action={action} noValidate onSubmit={onSubmit} aria-label={t("login.title")}>
          <input type="hidden" name="csrftoken" value={loaderData.csrfToken} />
          <FormField id="login-username" label={t("login.username")} error={errors.username}>
            <Input id="login-username" name="username" defaultValue={actionData?.values?.username} autoComplete="username" maxLength={254} {...describedBy("login-username", errors.username)} />
          </FormField>
          <FormField id="login-password" label={t("login.password")} error={errors.password}>
            <Input.Password id="login-password" name="password" autoComplete="current-password" maxLength={200} {...describedBy("login-password", errors.password)} />
          </FormField>
          {loaderData.captcha ? <SliderCaptcha id="login-captcha" error={errors.captcha} resetSignal={actionData} /> : null}
          <div className="form-field">
            <Checkbox name="remember" id="login-remember">
              {t("login.remember")}
            </Checkbox>
          </div>
          <Button type="primary" htmlType="submit" block loading={navigation.state === "submitting"}>
            {t("login.submit")}
          </Button>
        </Form>
        <p className="muted">
          {t("login.no_account")} <Link to={localizePath("/register", locale)}>{t("login.register_link")}</Link>
        </p>
      </section>
    </AntdScope>
  );
}

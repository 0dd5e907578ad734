import { data, Form, Link, redirect, useNavigation } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { Alert, Button, Input, Radio } from "antd";
import type { Route } from "./+types/register";
import {
  assertFormCsrf,
  readForm,
  formFailure,
  getAppContext,
  guestFormData,
  here,
  keptValues,
  privatePageHeaders,
  type FormFailure,
} from "../lib/context.server.ts";
import { localizePath, shanghaiDay, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { useFormValidation } from "../lib/use-form-validation.ts";
import { FormField, describedBy } from "../components/form-field.tsx";
import { AntdScope } from "../components/antd-scope.tsx";
import { SliderCaptcha } from "../components/slider-captcha.tsx";
import { registerSchema } from "../../features/accounts/schema.ts";
import { registerInputFromForm } from "../../features/accounts/form-input.ts";
import { countryOptions } from "../../features/accounts/countries.ts";
import { genders } from "../../features/accounts/constants.ts";
import { registerOperation } from "../../features/accounts/operations.ts";
import { formAction } from "../../server/lib/operation.ts";
import "../../common/i18n-forms.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "accounts:register.title");

export const headers = privatePageHeaders;

export async function loader({ context }: Route.LoaderArgs) {
  const app = getAppContext(context);
  // Names and order come from the server's ICU, so the browser hydrates the very same options.
  const countries = countryOptions(app.locale);
  const today = shanghaiDay();
  return guestFormData(app, { countries, today, captcha: app.captcha });
}

export async function action({ context, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  const form = await readForm(request);
  const values = keptValues(form, ["username", "email", "gender", "birthday", "country"]);
  // The API's sign-up: its session cookies go out with the redirect.
  const register = formAction(registerOperation, {
    body: registerInputFromForm,
    done: () => redirect(here(app, "/")),
    failed: ({ formError, fieldErrors, status }) => data<FormFailure>({ formError, fieldErrors, values }, { status }),
    errorScreen: () => false,
  });
  try {
    assertFormCsrf(app, form);
    return await register({ app, request, form, params: {} });
  } catch (error) {
    return formFailure(app, error, values);
  }
}

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("accounts");
  const locale = i18n.language as Locale;
  const navigation = useNavigation();
  const { errors, onSubmit } = useFormValidation(
    registerSchema,
    registerInputFromForm,
    actionData?.fieldErrors,
    (form): Record<string, string> => (loaderData.captcha && !form.get("captcha") ? { captcha: "errors:captcha_required" } : {}),
  );
  const { countries, today } = loaderData;
  const kept = actionData?.values ?? {};
  return (
    <AntdScope>
      <section className="panel auth-panel" aria-labelledby="register-title">
        <h1 id="register-title" className="page-title">
          {t("register.heading")}
        </h1>
        {actionData?.formError ? <Alert className="form-alert" type="error" showIcon title={actionData.formError} role="alert" /> : null}
        <Form method="post" action={localizePath("/register", locale)} noValidate onSubmit={onSubmit} aria-label={t("register.title")}>
          <input type="hidden" name="csrftoken" value={loaderData.csrfToken} />
          <FormField id="register-username" label={t("register.username")} error={errors.username} hint={t("register.username_hint")}>
            <Input
              id="register-username"
              name="username"
              defaultValue={kept.username}
              autoComplete="username"
              maxLength={16}
              {...describedBy("register-username", errors.username, "hint")}
            />
          </FormField>
          <FormField id="register-email" label={t("register.email")} error={errors.email}>
            <Input
              id="register-email"
              name="email"
              defaultValue={kept.email}
              type="email"
              autoComplete="email"
              maxLength={254}
              {...describedBy("register-email", errors.email)}
            />
          </FormField>
          <FormField id="register-password" label={t("register.password")} error={errors.password} hint={t("register.password_hint")}>
            <Input.Password
              id="register-password"
              name="password"
              autoComplete="new-password"
              maxLength={20}
              {...describedBy("register-password", errors.password, "hint")}
            />
          </FormField>
          <FormField id="register-confirm" label={t("register.confirm_password")} error={errors.confirm_password}>
            <Input.Password
              id="register-confirm"
              name="confirm_password"
              autoComplete="new-password"
              maxLength={20}
              {...describedBy("register-confirm", errors.confirm_password)}
            />
          </FormField>
          <fieldset
            className="form-field"
            aria-describedby={errors.gender ? "register-gender-error" : undefined}
            style={{ border: 0, padding: 0, margin: "0 0 16px" }}
          >
            <legend id="register-gender-legend" style={{ fontWeight: 500, marginBottom: 4 }}>
              {t("register.gender")}
            </legend>
            <Radio.Group
              name="gender"
              defaultValue={kept.gender}
              aria-labelledby="register-gender-legend"
              aria-invalid={errors.gender ? true : undefined}
            >
              {genders.map((gender) => (
                <Radio key={gender} value={gender}>
                  {t(`register.gender_${gender}`)}
                </Radio>
              ))}
            </Radio.Group>
            {errors.gender ? (
              <div className="form-error" id="register-gender-error" role="alert" data-field-error="register-gender">
                {errors.gender}
              </div>
            ) : null}
          </fieldset>
          <FormField id="register-birthday" label={t("register.birthday")} error={errors.birthday}>
            <Input
              id="register-birthday"
              name="birthday"
              defaultValue={kept.birthday}
              type="date"
              min="1900-01-01"
              max={today}
              {...describedBy("register-birthday", errors.birthday)}
            />
          </FormField>
          <FormField id="register-country" label={t("register.country")} error={errors.country}>
            <select
              id="register-country"
              name="country"
              className="native-select"
              defaultValue={kept.country ?? ""}
              {...describedBy("register-country", errors.country)}
            >
              <option value="">{t("register.country_placeholder")}</option>
              {countries.map((country) => (
                <option key={country.code} value={country.code}>
                  {country.name}
                </option>
              ))}
            </select>
          </FormField>
          {loaderData.captcha ? <SliderCaptcha id="register-captcha" error={errors.captcha} resetSignal={actionData} /> : null}
          <Button type="primary" htmlType="submit" block loading={navigation.state === "submitting"}>
            {t("register.submit")}
          </Button>
        </Form>
        <p className="muted">
          {t("register.have_account")} <Link to={localizePath("/login", locale)}>{t("register.login_link")}</Link>
        </p>
      </section>
    </AntdScope>
  );
}

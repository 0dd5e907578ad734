import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { fieldErrors } from "../../features/accounts/schema.ts";
import "../../common/i18n-forms.ts";

/** Field → message key for the fields of a form a submit button asks about. */
export type FormCheck = (form: FormData) => Record<string, string>;

/** A check from a shared zod schema (the server parses the same one). */
export function schemaCheck<T extends z.ZodType>(schema: T, toInput: (form: FormData) => unknown): FormCheck {
  return (form) => {
    const result = schema.safeParse(toInput(form));
    return result.success ? {} : fieldErrors(result.error);
  };
}

/**
 * Like useFormValidation, for forms with several submit buttons (`name="intent"`): each intent
 * checks only its own fields ("send code" needs the phone, "log in" the code too). Enter in a field
 * submits the form's first submit button, so forms put their main button's intent first.
 */
export function useIntentValidation(checks: Record<string, FormCheck>, serverErrors: Record<string, string> | undefined) {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<Record<string, string>>(serverErrors ?? {});
  useEffect(() => setErrors(serverErrors ?? {}), [serverErrors]);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    const intent = submitter instanceof HTMLButtonElement && submitter.name === "intent" ? submitter.value : "";
    const check = checks[intent] ?? checks[""];
    const problems = check ? check(new FormData(event.currentTarget)) : {};
    if (Object.keys(problems).length === 0) {
      setErrors({});
      return;
    }
    event.preventDefault();
    const translated = Object.fromEntries(Object.entries(problems).map(([field, key]) => [field, t(key)]));
    setErrors(translated);
    const first = Object.keys(translated)[0];
    if (first) event.currentTarget.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };
  return { errors, onSubmit };
}

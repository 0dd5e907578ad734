import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { fieldErrors } from "../../features/accounts/schema.ts";

/**
 * Checks a form in the browser with the same zod schema the server uses, before it is sent.
 * Server answers (already translated) replace the browser's errors when they arrive.
 */
export function useFormValidation<T extends z.ZodType>(
  schema: T,
  toInput: (form: FormData) => unknown,
  serverErrors: Record<string, string> | undefined,
  /** Checks only the browser can make (field → message key), e.g. an unsolved puzzle. */
  extraCheck?: (form: FormData) => Record<string, string>,
) {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<Record<string, string>>(serverErrors ?? {});
  useEffect(() => setErrors(serverErrors ?? {}), [serverErrors]);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const form = new FormData(event.currentTarget);
    const result = schema.safeParse(toInput(form));
    const problems = { ...(result.success ? {} : fieldErrors(result.error)), ...extraCheck?.(form) };
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

import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { fieldErrors } from "../../features/accounts/schema.ts";

/**
 * Checks a form in the browser with the same zod schema the server uses, before it is sent.
 * Server answers (already translated) replace the browser's errors when they arrive.
 */
export function useFormValidation<T extends z.ZodType>(schema: T, toInput: (form: FormData) => unknown, serverErrors: Record<string, string> | undefined) {
  const { t } = useTranslation();
  const [errors, setErrors] = useState<Record<string, string>>(serverErrors ?? {});
  useEffect(() => setErrors(serverErrors ?? {}), [serverErrors]);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const result = schema.safeParse(toInput(new FormData(event.currentTarget)));
    if (result.success) {
      setErrors({});
      return;
    }
    event.preventDefault();
    const translated = Object.fromEntries(Object.entries(fieldErrors(result.error)).map(([field, key]) => [field, t(key)]));
    setErrors(translated);
    const first = Object.keys(translated)[0];
    if (first) event.currentTarget.querySelector<HTMLElement>(`[name="${first}"]`)?.focus();
  };
  return { errors, onSubmit };
}

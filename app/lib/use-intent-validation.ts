import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "./i18n.tsx";
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
    if (first) revealField(event.currentTarget, first);
  };
  return { errors, onSubmit };
}

/** Whether the user can see and focus an element (not a hidden input, nor the textarea CodeMirror stands in for). */
function focusable(element: HTMLElement): boolean {
  return element.getClientRects().length > 0 && element.tabIndex >= 0 && element.getAttribute("aria-hidden") !== "true";
}

/**
 * Brings a form's field named `name` into view below the sticky header (its `.form-field` box,
 * label included, honours `scroll-margin-top`) and focuses it; a field whose input is replaced by
 * a widget (CodeMirror over the Markdown textarea) focuses the widget.
 */
export function revealField(form: HTMLFormElement, name: string): void {
  const named = [...form.querySelectorAll<HTMLElement>(`[name="${CSS.escape(name)}"]`)];
  const box = named.map((element) => element.closest<HTMLElement>(".form-field")).find(Boolean) ?? named[0];
  if (!box) return;
  const target =
    named.find(focusable) ??
    [...box.querySelectorAll<HTMLElement>('[contenteditable="true"], input, select, textarea, button')].find(focusable);
  // A box taller than the window (the Markdown field) shows its top: its label and first lines.
  box.scrollIntoView({ block: box.getBoundingClientRect().height < window.innerHeight - 120 ? "nearest" : "start" });
  target?.focus({ preventScroll: true });
}

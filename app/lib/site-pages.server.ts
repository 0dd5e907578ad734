import { data } from "react-router";
import type { FormFailure } from "../../server/lib/operation.ts";
import { pageUrl } from "../../common/locale.ts";

/** A refused form of the site's own pages: the message per field (or for the form) and what was typed, with the error's status. */
export function refusedForm(failure: FormFailure, values: Record<string, string>) {
  return data({ formError: failure.formError, fieldErrors: failure.fieldErrors ?? {}, values }, { status: failure.status });
}

/** A status filter from `?status=`, one of `allowed` or `fallback`. */
export function statusFilter<T extends string>(request: Request, allowed: readonly T[], fallback: T): T {
  const raw = pageUrl(request.url).searchParams.get("status");
  return raw !== null && (allowed as readonly string[]).includes(raw) ? (raw as T) : fallback;
}

/** Form fields as plain strings, to keep what was typed when a form comes back refused. */
export function formValues(form: FormData, names: string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, String(form.get(name) ?? "")]));
}

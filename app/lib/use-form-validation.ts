import type { z } from "zod";
import { schemaCheck, useIntentValidation } from "./use-intent-validation.ts";

/**
 * Checks a form in the browser with the same zod schema the server uses, before it is sent.
 * Server answers (already translated) replace the browser's errors when they arrive.
 * One check for every submit button (see `useIntentValidation` for one per button).
 */
export function useFormValidation<T extends z.ZodType>(
  schema: T,
  toInput: (form: FormData) => unknown,
  serverErrors: Record<string, string> | undefined,
  /** Checks only the browser can make (field → message key), e.g. an unsolved puzzle. */
  extraCheck?: (form: FormData) => Record<string, string>,
) {
  const bySchema = schemaCheck(schema, toInput);
  return useIntentValidation({ "": (form) => ({ ...bySchema(form), ...extraCheck?.(form) }) }, serverErrors);
}

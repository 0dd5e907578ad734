import { data } from "react-router";
import type { AppContext } from "../context.ts";
import { AppError, presentError } from "../../common/app-error.ts";
import type { FormFailure } from "./context.server.ts";

/** What the forms that send and check codes answer: which button was pressed, and what followed. */
export interface CodeFormData extends FormFailure {
  intent: string;
  /** A code went out (or must wait): seconds until another may be asked for. */
  resendAfter?: number;
  /** Said in the form's live region: where the code went. */
  notice?: string;
  /** SMS sign-in of a new phone: ask for a username. */
  needUsername?: boolean;
}

/** An AppError as the form shows it (in the page's language, with its status); anything else is the error screen. */
export function codeFormFailure<T extends object>(app: AppContext, error: unknown, answer: CodeFormData & T) {
  if (!(error instanceof AppError)) throw error;
  const body = presentError(error, app.locale);
  // A new phone is not a mistake: the form says why it now asks for a username.
  if (error.code === "username_required")
    return data<CodeFormData & T>({ ...answer, needUsername: true, notice: body.message }, { status: error.status });
  const extra: Partial<CodeFormData> = error.code === "code_resend_wait" ? { resendAfter: Number(error.params.seconds) } : {};
  return data<CodeFormData & T>(
    { ...answer, ...extra, formError: body.fields ? undefined : body.message, fieldErrors: body.fields },
    { status: error.status },
  );
}

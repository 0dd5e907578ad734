import { data, redirect, type RouterContextProvider } from "react-router";
import { appContext, type AppContext } from "../context.ts";
import { localizePath, pageUrl } from "../../common/locale.ts";
import { authorize } from "../../common/policy.ts";
import { can } from "../../features/accounts/policy.ts";
import type { Viewer } from "../../features/accounts/viewer.ts";
export { safeNextPath } from "../../common/locale.ts";
import {
  createCsrfToken,
  csrfCookie,
  csrfCookieName,
  csrfFieldName,
  csrfMatches,
  isValidCsrfToken,
  signedInCookies,
  signedOutCookies,
} from "../../features/accounts/cookies.server.ts";
import { AppError, presentError } from "../../common/app-error.ts";
import { containsUnstorableText } from "../../common/unstorable-text.ts";
import { translator } from "../../common/i18n.ts";
import { requireSignedIn, type FormPost } from "../../server/lib/operation.ts";

export function getAppContext(context: Readonly<RouterContextProvider>): AppContext {
  return context.get(appContext);
}

/**
 * Names what this page shows, so that a write invalidating one of these tags evicts its cached
 * copy at once (services: `tx.invalidate("circle:7")`). Conventions: `home`, `circles`,
 * `circle:<id>`, `user:<id>`, `sitemap`.
 */
export function tagPage(app: AppContext, ...tags: string[]): void {
  for (const tag of tags) app.cacheTags.add(tag);
}

/** A path in the page's own language. */
export function here(app: AppContext, path: string): string {
  return localizePath(path, app.locale);
}

/**
 * The personal area's guard (accounts policy): a visitor is sent to the login page and comes back
 * here afterwards (the 401 becomes that redirect in server/plugins/page-errors.ts).
 */
export function requireViewer(app: AppContext): Viewer {
  authorize(app.viewer, can(app.viewer, "enter_personal_area"));
  return app.viewer!;
}

/** For `invariant`-style guards in loaders: the 403 error screen unless `condition` holds. */
export function forbiddenUnless(app: AppContext, condition: boolean): asserts condition {
  authorize(app.viewer, condition);
}

/**
 * The visitor's CSRF token for forms (bound to their session), and the Set-Cookie that issues it
 * when they have none yet or theirs belongs to another session.
 */
export function csrfForForm(app: AppContext): { token: string; setCookie: string | undefined } {
  // One token per request: the root's and the page's loaders both ask, and two fresh tokens would
  // leave the forms of one of them holding a token the cookie no longer carries.
  const known = formTokens.get(app);
  if (known) return known;
  const existing = app.cookies[csrfCookieName];
  let answer: { token: string; setCookie: string | undefined };
  if (isValidCsrfToken(app.sessionSecret, existing, app.sessionToken)) answer = { token: existing, setCookie: undefined };
  else {
    const token = createCsrfToken(app.sessionSecret, app.sessionToken);
    answer = { token, setCookie: csrfCookie(token, app.secure) };
  }
  formTokens.set(app, answer);
  return answer;
}

const formTokens = new WeakMap<AppContext, { token: string; setCookie: string | undefined }>();

export function assertFormCsrf(app: AppContext, form: FormData): void {
  const submitted = form.get(csrfFieldName);
  if (!csrfMatches(app.sessionSecret, app.cookies[csrfCookieName], typeof submitted === "string" ? submitted : null, app.sessionToken)) {
    throw new AppError("csrf_failed");
  }
}

/** Set-Cookie headers of a fresh sign-in from a page form: the session and a CSRF token bound to it. */
export function signInHeaders(app: AppContext, token: string, persistent: boolean): [string, string][] {
  return signedInCookies(app.sessionSecret, token, { persistent, secure: app.secure }).map((cookie) => ["Set-Cookie", cookie]);
}

/** Set-Cookie headers of signing out: the session cleared and a CSRF token for a signed-out visitor. */
export function signOutHeaders(app: AppContext): [string, string][] {
  return signedOutCookies(app.sessionSecret, app.secure).map((cookie) => ["Set-Cookie", cookie]);
}

/** A 404 the error screen shows with the requested path. */
export function notFound(request: Request): never {
  throw data(pageUrl(request.url).pathname, { status: 404, statusText: "Not Found" });
}

/** What a form action answers on failure: messages for the form and its fields, with the 4xx status. */
export interface FormFailure {
  formError?: string;
  /** Field → message already in the viewer's language. */
  fieldErrors?: Record<string, string>;
  /** What was typed (never passwords), so a page rendered without JavaScript loses nothing. */
  values?: Record<string, string>;
}

/** Turns an AppError into a form failure in the page's language; anything else is rethrown (error screen). */
export function formFailure(app: AppContext, error: unknown, values?: Record<string, string>) {
  if (!(error instanceof AppError)) throw error;
  const body = presentError(error, app.locale);
  return data<FormFailure>(
    { formError: body.fields ? undefined : body.message, fieldErrors: body.fields, values },
    { status: error.status },
  );
}

/** Field errors from a failed shared-schema parse, translated. */
export function invalidForm(app: AppContext, fields: Record<string, string>, values?: Record<string, string>) {
  const t = translator(app.locale);
  return data<FormFailure>(
    { fieldErrors: Object.fromEntries(Object.entries(fields).map(([field, key]) => [field, t(key)])), values },
    { status: 400 },
  );
}

/** The posted text fields except secrets, to refill a form. */
export function keptValues(form: FormData, names: string[]): Record<string, string> {
  const values: Record<string, string> = {};
  for (const name of names) {
    const value = form.get(name);
    if (typeof value === "string") values[name] = value.slice(0, 300);
  }
  return values;
}

/** Pages with per-visitor content (a CSRF token in a form) are never cached or shared. */
export function privatePageHeaders() {
  return { "Cache-Control": "private, no-store" };
}

/** Login and register: signed-in users go home; visitors get a CSRF token for the form. */
export function guestFormData<T extends object>(app: AppContext, extra: T) {
  if (app.viewer) throw redirect(here(app, "/"));
  const csrf = csrfForForm(app);
  return data({ csrfToken: csrf.token, ...extra }, { headers: csrf.setCookie ? { "Set-Cookie": csrf.setCookie } : undefined });
}

/**
 * The posted form; a body that is not a form (JSON, broken encoding) or that carries text PostgreSQL
 * cannot store (NUL, lone surrogates: no person types them) is a localized 400, never a 500.
 */
export async function readForm(request: Request): Promise<FormData> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw new AppError("bad_request");
  }
  if (containsUnstorableText([...form])) throw new AppError("invalid_characters");
  return form;
}

/**
 * A multipart form with a file (plain POST of an upload form). Page bodies reach actions as a
 * stream, so the size is bounded here: more than `maxFileBytes` plus a little room for the other
 * fields is refused with `tooLarge` (413) before it is all read.
 */
export async function readUploadForm(
  request: Request,
  maxFileBytes: number,
  tooLarge: "image_too_large" | "payload_too_large" = "image_too_large",
): Promise<FormData> {
  const limit = maxFileBytes + 16 * 1024;
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw new AppError(tooLarge);
  if (!request.body) throw new AppError("bad_request");
  const chunks: Uint8Array[] = [];
  let received = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > limit) {
      await reader.cancel();
      throw new AppError(tooLarge);
    }
    chunks.push(value);
  }
  let form: FormData;
  try {
    form = await new Response(Buffer.concat(chunks), { headers: { "content-type": request.headers.get("content-type") ?? "" } }).formData();
  } catch {
    throw new AppError("bad_request");
  }
  if (containsUnstorableText([...form])) throw new AppError("invalid_characters");
  return form;
}

/**
 * A signed-in reader's form post to a page action, read and its CSRF token checked (a visitor is
 * sent to sign in): what `dispatchIntent` takes.
 */
export async function signedInFormPost(args: {
  context: Readonly<RouterContextProvider>;
  params: Readonly<Record<string, string | undefined>>;
  request: Request;
}): Promise<FormPost & { app: AppContext }> {
  const app = getAppContext(args.context);
  requireSignedIn(app.viewer);
  const form = await readForm(args.request);
  assertFormCsrf(app, form);
  return { app, request: args.request, form, params: args.params };
}

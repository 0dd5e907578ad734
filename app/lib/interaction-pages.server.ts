import { data, redirect } from "react-router";
import type { AppContext } from "../context.ts";
import { AppError, presentError } from "../../common/app-error.ts";
import { localizePath, pageUrl, safeNextPath, stripLocale } from "../../common/locale.ts";
import { tagPage } from "./context.server.ts";
import { withFormToken } from "./circle-pages.server.ts";
import { countsTag } from "../../server/lib/cache-tags.ts";
import { interactionSummary } from "../../features/reactions/viewer-state.ts";
import { moderationNotice } from "../../features/reports/service.ts";
import type { SubjectType } from "../../features/subjects/types.ts";
import {
  formAction,
  lazyVisitor,
  type FormHandler,
  type Operation,
  type OperationInput,
  type OperationServices,
  type ViewerRequirement,
} from "../../server/lib/operation.ts";

/**
 * Where a plain form post of an interaction (no JavaScript) goes back to: the page it came from,
 * named in its `next` field, and only a path of this site (never `//host` or a scheme).
 */
export function returnPath(app: AppContext, form: FormData, fallback: string): string {
  const next = form.get("next");
  const safe = safeNextPath(typeof next === "string" ? next : null);
  return localizePath(safe ? stripLocale(safe) : fallback, app.locale);
}

/** A fetcher's call arrives on the route's `.data` URL; a plain form post on the page path. */
export function isFetcherCall(request: Request): boolean {
  return pageUrl(request.url).pathname !== new URL(request.url).pathname;
}

/**
 * Runs an interaction posted from a page. With JavaScript (a fetcher) it answers the new state or
 * `{ error }` in the page's language (the action bar rolls back); without it, it goes back to the
 * page (`next`, at `anchor`), and a visitor is sent to sign in and brought back to that page.
 */
export async function interactionAnswer<State>(
  app: AppContext,
  request: Request,
  form: FormData,
  anchor: string,
  work: () => Promise<State>,
): Promise<Response | ReturnType<typeof data>> {
  const back = returnPath(app, form, "/");
  try {
    if (!app.viewer) throw new AppError("not_authenticated");
    const state = await work();
    if (isFetcherCall(request)) return data({ state });
    return redirect(`${back}#${anchor}`, 303);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.status === 401) {
      return redirect(`${localizePath("/login", app.locale)}?next=${encodeURIComponent(stripLocale(back))}`, 303);
    }
    if (isFetcherCall(request)) return data({ error: presentError(error, app.locale).message }, { status: error.status });
    throw error;
  }
}

/**
 * An interaction's operation (the one its API route runs) as a page's form handler, through the
 * form adapter: path parameters that do not name a subject are `not_found`, a body its schema
 * refuses is a bad request (the buttons send only fixed values), the form's `idempotency_key`
 * reaches the use case, and the answer is the API's. Every refusal is thrown for
 * `interactionAnswer` to answer.
 */
export function interaction<I extends OperationInput, R extends ViewerRequirement, Result, Answer>(
  operation: Operation<I, R, Result, Answer>,
  body: (form: FormData) => unknown = () => ({}),
): FormHandler<Answer> {
  return formAction(operation, {
    body,
    badParams: "not_found",
    done: (answer) => answer,
    errorScreen: () => true,
    failed: (): never => {
      throw new AppError("bad_request");
    },
  });
}

/** What an operation run by a page loader or action gets (its `visitor()` only for the signed in). */
export function pageServices(app: AppContext): OperationServices {
  return {
    db: app.db,
    now: () => app.now(),
    locale: app.locale,
    visitor: signedInVisitor(app),
    client: { address: app.client.ip, userAgent: app.client.userAgent, secure: app.secure },
    cookie: (name) => app.cookies[name],
    // A loader's answer is the page: it sets no cookies and chooses no status through the use case.
    answer: {
      setCookie: () => {
        throw new Error("A page loader's use case cannot set cookies");
      },
      status: () => {},
    },
    settings: app.settings,
  };
}

/**
 * `visitor()` for interactions posted from pages, which only the signed in make
 * (`interactionAnswer`): the user's key, never a cookie to issue.
 */
export function signedInVisitor(app: AppContext): () => string {
  return lazyVisitor(
    app.viewer,
    () => undefined,
    app.secure,
    () => {
      throw new AppError("not_authenticated");
    },
  );
}

/**
 * Loader data of a reading page with an action bar: its interaction summary for this viewer, and
 * for the signed in a CSRF token (their copy is then private, never cached); visitors' copies stay
 * cacheable under the page's tags, which include the subject's counts tag.
 */
export async function withActionBar<T extends object>(
  app: AppContext,
  value: T,
  subject: { type: SubjectType; id: number; authorId: number | null },
) {
  tagPage(app, countsTag(subject.type, subject.id));
  const interactions = await interactionSummary(app.db, app.viewer, subject);
  if (!app.viewer)
    return data({ ...value, interactions, moderation: null as "pending" | "hidden" | null, csrfToken: null as string | null });
  // Hidden subjects open only to their author and moderators (signed in): they see why.
  const moderation = await moderationNotice(app.db, subject.type, subject.id);
  return withFormToken(app, { ...value, interactions, moderation });
}

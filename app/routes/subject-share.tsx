import { data, redirect } from "react-router";
import type { Route } from "./+types/subject-share";
import { assertFormCsrf, getAppContext, readForm } from "../lib/context.server.ts";
import { isFetcherCall, returnPath } from "../lib/interaction-pages.server.ts";
import { formAction } from "../../server/lib/operation.ts";
import { shareOperation } from "../../features/shares/operations.ts";

/**
 * `/subjects/{type}/{id}/share`: counts a share of any subject from a page form, by the operation of
 * `POST /api/subjects/{type}/{id}/share/` (once per visitor, subject and day; visitors too, keyed by
 * their visitor cookie, issued with this answer when missing). With JavaScript (a fetcher) it
 * answers `{ state }`; without it, it goes back to the page (`next`). A subject the visitor may not
 * read is the 404 screen.
 */
export async function action({ context, params, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  const form = await readForm(request);
  assertFormCsrf(app, form);
  const share = formAction(shareOperation, {
    params: () => ({ type: params.type, id: params.id }),
    body: () => ({}),
    done: (answer) => (isFetcherCall(request) ? data({ state: answer }) : redirect(`${returnPath(app, form, "/")}#actions`, 303)),
  });
  return share({ app, request, form, params });
}

/** Nothing to show: a GET goes home. */
export async function loader({ context }: Route.LoaderArgs) {
  throw redirect(returnPath(getAppContext(context), new FormData(), "/"));
}

import { redirect } from "react-router";
import type { Route } from "./+types/subject-reaction";
import { assertFormCsrf, getAppContext, readForm } from "../lib/context.server.ts";
import { interaction, interactionAnswer, returnPath } from "../lib/interaction-pages.server.ts";
import { removeReactionOperation, setReactionOperation } from "../../features/reactions/operations.ts";

/**
 * The action bar's like and dislike on any subject (`/subjects/{type}/{id}/reaction`), and each
 * comment's (`/subjects/comment/{id}/reaction`, back at `#comment-{id}`): a plain
 * form post that comes back to the page without JavaScript, a fetcher's call with it. The same
 * operations as `PUT/DELETE /api/subjects/{type}/{id}/reaction/`. `reaction` is `like`, `dislike`
 * or `none` (take it back).
 */
export async function action({ context, params, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  const form = await readForm(request);
  // A comment's toggle comes back to that comment; any other subject's to the page's action bar.
  const anchor = params.type === "comment" && /^\d{1,9}$/.test(params.id) ? `comment-${params.id}` : "actions";
  return interactionAnswer(app, request, form, anchor, async () => {
    assertFormCsrf(app, form);
    const wanted = form.get("reaction");
    if (wanted === "none") return interaction(removeReactionOperation)({ app, request, form, params });
    return interaction(setReactionOperation, () => ({ reaction: wanted }))({ app, request, form, params });
  });
}

/** Nothing to show: a GET goes home. */
export async function loader({ context }: Route.LoaderArgs) {
  throw redirect(returnPath(getAppContext(context), new FormData(), "/"));
}

import { redirect } from "react-router";
import type { Route } from "./+types/subject-reaction";
import { assertFormCsrf, getAppContext, readForm } from "../lib/context.server.ts";
import { interactionAnswer, returnPath } from "../lib/interaction-pages.server.ts";
import { AppError } from "../../common/app-error.ts";
import { reactionInputSchema } from "../../features/reactions/schema.ts";
import { removeReaction, setReaction } from "../../features/reactions/service.ts";
import { presentReaction } from "../../features/reactions/api.ts";

/**
 * The action bar's like and dislike on any subject (`/subjects/{type}/{id}/reaction`), and each
 * comment's (`/subjects/comment/{id}/reaction`, back at `#comment-{id}`): a plain
 * form post that comes back to the page without JavaScript, a fetcher's call with it. The same
 * service as `PUT/DELETE /api/subjects/{type}/{id}/reaction/`. `reaction` is `like`, `dislike`
 * or `none` (take it back).
 */
export async function action({ context, params, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  const form = await readForm(request);
  const id = Number(params.id);
  // A comment's toggle comes back to that comment; any other subject's to the page's action bar.
  const anchor = params.type === "comment" && /^\d{1,9}$/.test(params.id) ? `comment-${params.id}` : "actions";
  return interactionAnswer(app, request, form, anchor, async () => {
    assertFormCsrf(app, form);
    if (!/^\d{1,9}$/.test(params.id)) throw new AppError("not_found");
    const wanted = form.get("reaction");
    if (wanted === "none") return presentReaction(await removeReaction({ db: app.db }, app.viewer!, params.type, id));
    const parsed = reactionInputSchema.safeParse({ reaction: wanted });
    if (!parsed.success) throw new AppError("bad_request");
    return presentReaction(await setReaction({ db: app.db }, app.viewer!, params.type, id, parsed.data.reaction));
  });
}

/** Nothing to show: a GET goes home. */
export async function loader({ context }: Route.LoaderArgs) {
  const app = getAppContext(context);
  throw redirect(returnPath(app, new FormData(), "/"));
}

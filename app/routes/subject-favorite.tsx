import { redirect } from "react-router";
import type { Route } from "./+types/subject-favorite";
import { assertFormCsrf, getAppContext, readForm } from "../lib/context.server.ts";
import { interactionAnswer, returnPath } from "../lib/interaction-pages.server.ts";
import { AppError } from "../../common/app-error.ts";
import { favorite, unfavorite } from "../../features/favorites/service.ts";
import { presentFavoriteState } from "../../features/favorites/api.ts";

/**
 * The action bar's favourite on any subject (`/subjects/{type}/{id}/favorite`): `favorite=on`
 * keeps it in the default folder, `off` takes it out; the same service as
 * `PUT/DELETE /api/subjects/{type}/{id}/favorite/`. Without JavaScript it comes back to the page.
 */
export async function action({ context, params, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  const form = await readForm(request);
  return interactionAnswer(app, request, form, "actions", async () => {
    assertFormCsrf(app, form);
    if (!/^\d{1,9}$/.test(params.id)) throw new AppError("not_found");
    const id = Number(params.id);
    const wanted = form.get("favorite");
    if (wanted === "on") return presentFavoriteState(await favorite({ db: app.db }, app.viewer!, params.type, id, {}));
    if (wanted === "off") return presentFavoriteState(await unfavorite({ db: app.db }, app.viewer!, params.type, id));
    throw new AppError("bad_request");
  });
}

/** Nothing to show: a GET goes home. */
export async function loader({ context }: Route.LoaderArgs) {
  throw redirect(returnPath(getAppContext(context), new FormData(), "/"));
}

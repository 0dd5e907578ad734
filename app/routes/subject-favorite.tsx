import { redirect } from "react-router";
import type { Route } from "./+types/subject-favorite";
import { assertFormCsrf, getAppContext, readForm } from "../lib/context.server.ts";
import { interaction, interactionAnswer, returnPath } from "../lib/interaction-pages.server.ts";
import { AppError } from "../../common/app-error.ts";
import { favoriteOperation, unfavoriteOperation } from "../../features/favorites/operations.ts";

/**
 * The action bar's favourite on any subject (`/subjects/{type}/{id}/favorite`): `favorite=on`
 * keeps it in the default folder, `off` takes it out; the same operations as
 * `PUT/DELETE /api/subjects/{type}/{id}/favorite/`. Without JavaScript it comes back to the page.
 */
export async function action({ context, params, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  const form = await readForm(request);
  return interactionAnswer(app, request, form, "actions", async () => {
    assertFormCsrf(app, form);
    const wanted = form.get("favorite");
    if (wanted === "on") return interaction(favoriteOperation)({ app, request, form, params });
    if (wanted === "off") return interaction(unfavoriteOperation)({ app, request, form, params });
    throw new AppError("bad_request");
  });
}

/** Nothing to show: a GET goes home. */
export async function loader({ context }: Route.LoaderArgs) {
  throw redirect(returnPath(getAppContext(context), new FormData(), "/"));
}

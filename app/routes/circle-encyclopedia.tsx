import { redirect } from "react-router";
import type { Route } from "./+types/circle-encyclopedia";
import { getAppContext } from "../lib/context.server.ts";
import { circleIdOf } from "../lib/circle-pages.server.ts";
import { localizePath } from "../../common/locale.ts";

/** /circles/{id}/encyclopedia is the circle page's encyclopedia tab. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const id = circleIdOf(request, params.circleId);
  throw redirect(localizePath(`/circles/${id}?tab=encyclopedia`, app.locale), 301);
}

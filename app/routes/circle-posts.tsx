import { redirect } from "react-router";
import type { Route } from "./+types/circle-posts";
import { getAppContext } from "../lib/context.server.ts";
import { circleIdOf } from "../lib/circle-pages.server.ts";
import { localizePath } from "../../common/locale.ts";

/** /circles/{id}/posts is the circle page's posts tab. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const id = circleIdOf(request, params.circleId);
  throw redirect(localizePath(`/circles/${id}?tab=posts`, app.locale), 301);
}

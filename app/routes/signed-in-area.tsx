import type { Route } from "./+types/signed-in-area";
import { getAppContext, notFound, requireViewer } from "../lib/context.server.ts";

/**
 * Guard for /account/*, /messages/* and the circle write pages: signed-out visitors go to the
 * login page (and come back after it). The pages themselves arrive with their features; until
 * then a signed-in visitor gets the not-found screen.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  requireViewer(getAppContext(context), request);
  notFound(request);
}

export default function SignedInArea() {
  return null;
}

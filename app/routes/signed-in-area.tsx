import type { Route } from "./+types/signed-in-area";
import { getAppContext, notFound, requireViewer } from "../lib/context.server.ts";

/**
 * Guard for the rest of /account/*, /messages/* and the circle write pages: signed-out visitors go
 * to the login page (and come back after it). Pages not built yet (they arrive with their
 * features) answer the not-found screen to a signed-in visitor.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  requireViewer(getAppContext(context));
  notFound(request);
}

export default function SignedInArea() {
  return null;
}

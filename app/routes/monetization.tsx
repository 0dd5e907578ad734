import { redirect } from "react-router";
import type { Route } from "./+types/monetization";
import { getAppContext, here, notFound } from "../lib/context.server.ts";
import { can } from "../../features/accounts/policy.ts";

/** Monetization participants (any user type but "Registered users") go straight to their monetization home. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  if (can(app.viewer, "enter_monetization_home")) throw redirect(here(app, "/monetization/home"));
  notFound(request);
}

export default function Monetization() {
  return null;
}

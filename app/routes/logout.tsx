import { redirect } from "react-router";
import type { Route } from "./+types/logout";
import { assertFormCsrf, readForm, getAppContext, here, signOutHeaders } from "../lib/context.server.ts";
import { logOut } from "../../features/accounts/service.ts";
import { AppError } from "../../common/app-error.ts";

/** POST only: revokes the server-side session and clears the cookie. */
export async function action({ context, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  const form = await readForm(request);
  try {
    assertFormCsrf(app, form);
  } catch (error) {
    if (error instanceof AppError) throw new Response(null, { status: 403, statusText: "Forbidden" });
    throw error;
  }
  await logOut(app.db, app.sessionToken);
  return redirect(here(app, "/"), { headers: signOutHeaders(app) });
}

/** A GET of /logout has nothing to show: send the visitor home. */
export async function loader({ context }: Route.LoaderArgs) {
  throw redirect(here(getAppContext(context), "/"));
}

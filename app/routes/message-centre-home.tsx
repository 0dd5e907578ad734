import { redirect } from "react-router";
import type { Route } from "./+types/message-centre-home";
import { getAppContext, here, requireViewer } from "../lib/context.server.ts";

/** /message and /messages open the message centre at its first category (signed in only). */
export async function loader({ context }: Route.LoaderArgs) {
  const app = getAppContext(context);
  requireViewer(app);
  throw redirect(here(app, "/messages/reply_comment"));
}

export default function MessageCentreHome() {
  return null;
}

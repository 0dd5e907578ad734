import { redirect } from "react-router";
import type { Route } from "./+types/messages-open";
import { getAppContext, requireViewer } from "../lib/context.server.ts";
import { localizePath } from "../../common/locale.ts";
import { idFromText } from "../../common/id.ts";
import { AppError } from "../../common/app-error.ts";
import { inTransaction } from "../../server/lib/transactions.ts";
import { openNotification } from "../../features/messages/notifications.ts";

/** `/messages/open/{id}`: a notification's link; marks it read and goes to what it is about. */
export async function loader({ context, params }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const viewer = requireViewer(app);
  const id = idFromText(params.id);
  if (id === null) throw new AppError("not_found");
  const path = await inTransaction({ db: app.db }, (tx) => openNotification(tx, viewer, id));
  throw redirect(localizePath(path, app.locale), 303);
}

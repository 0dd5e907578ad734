import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/admin-reports";
import { getAppContext } from "../lib/context.server.ts";
import { queueAction, queueLoader } from "../lib/moderation-pages.server.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { FormAlert } from "../components/circle-settings-layout.tsx";
import { ModerationQueue } from "../components/moderation-queue.tsx";
import "../lib/moderation-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "moderation:queue.site_title");
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** `/admin/reports`: every case, for site moderators (`npm run admin -- set-site-role <username> moderator`); others 403. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  return queueLoader(app, request, null, {});
}

export async function action({ context, request }: Route.ActionArgs) {
  return queueAction(getAppContext(context), request);
}

export default function AdminReports({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("moderation");
  const locale = i18n.language as Locale;
  const notice = actionData && "notice" in actionData ? actionData.notice : null;
  return (
    <section className="panel" aria-labelledby="queue-title">
      <h1 id="queue-title" className="page-title">
        {t("queue.site_title")}
      </h1>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      <FormAlert message={actionData && "formError" in actionData ? actionData.formError : undefined} />
      <ModerationQueue
        cases={loaderData.cases}
        status={loaderData.status}
        path={localizePath("/admin/reports", locale)}
        csrfToken={loaderData.csrfToken}
      />
    </section>
  );
}

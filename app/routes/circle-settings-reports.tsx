import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/circle-settings-reports";
import { getAppContext } from "../lib/context.server.ts";
import { managedCircle } from "../lib/circle-pages.server.ts";
import { queueAction, queueLoader } from "../lib/moderation-pages.server.ts";
import { localizePath, type Locale } from "../../common/locale.ts";
import { pageMeta } from "../lib/meta.ts";
import { CircleSettingsLayout, FormAlert } from "../components/circle-settings-layout.tsx";
import { ModerationQueue } from "../components/moderation-queue.tsx";
import { localizedTexts } from "../../features/circles/presenter.ts";
import "../lib/circles-catalog.ts";
import "../lib/moderation-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "moderation:queue.circle_title");
export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/**
 * `/circles/{id}/settings/reports`: the reports queue of a circle and its sub-circles, for its
 * moderators (master and above in it or in a circle above it) and site moderators; anyone else
 * who may see the circle gets 403, visitors the login page.
 */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const { row } = await managedCircle(app, request, params.circleId, "view");
  return queueLoader(app, request, row.id, { circle: { id: row.id, name: localizedTexts(row, app.locale).name } });
}

export async function action({ context, params, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  await managedCircle(app, request, params.circleId, "view");
  return queueAction(app, request);
}

export default function CircleSettingsReports({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("moderation");
  const locale = i18n.language as Locale;
  const { circle, cases, status, csrfToken } = loaderData;
  return (
    <CircleSettingsLayout
      circle={circle}
      title={t("queue.circle_title")}
      notice={actionData && "notice" in actionData ? actionData.notice : null}
    >
      <FormAlert message={actionData && "formError" in actionData ? actionData.formError : undefined} />
      <ModerationQueue
        cases={cases}
        status={status}
        path={localizePath(`/circles/${circle.id}/settings/reports`, locale)}
        csrfToken={csrfToken}
      />
    </CircleSettingsLayout>
  );
}

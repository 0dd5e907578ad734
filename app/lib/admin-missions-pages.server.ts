import { data } from "react-router";
import type { AppContext } from "../context.ts";
import { translator } from "../../common/i18n.ts";
import { dispatchIntent, formAction, type FormFailure } from "../../server/lib/operation.ts";
import { requireStaff } from "../../features/admin/staff.ts";
import { listAdminMissions } from "../../features/missions/admin.ts";
import { changeMissionOperation, createMissionOperation, presentAdminMission } from "../../features/missions/admin-operations.ts";
import { missionMetrics } from "../../features/missions/metrics.ts";
import { assertFormCsrf, readForm } from "./context.server.ts";
import { withFormToken } from "./circle-pages.server.ts";

/* `/admin/missions` (admins): every mission with its terms, a form to make one, and per mission a form to change its terms and one to pause or resume it. */

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
};

const draftFields = ["key", "scope", "metric", "target", "reward_amount", "title_zh", "title_en", "position", "reason"] as const;

export async function adminMissionsLoader(app: AppContext) {
  await requireStaff(app.db, app.viewer, "manage_missions");
  const rows = await listAdminMissions(app.db);
  return withFormToken(app, { missions: rows.map(presentAdminMission), metrics: [...missionMetrics] });
}

export async function adminMissionsAction(app: AppContext, request: Request) {
  const form = await readForm(request);
  assertFormCsrf(app, form);
  const t = translator(app.locale);
  const errorScreen = (error: { status: number }) => error.status === 401 || error.status === 403 || error.status === 404;
  /** The refusal names the mission it concerns (or the new one), and gives back what was typed. */
  const failed = (failure: FormFailure) =>
    data(
      {
        formError: failure.formError ?? Object.values(failure.fieldErrors ?? {})[0],
        missionId: field(form, "id") ?? null,
        values: Object.fromEntries(draftFields.map((name) => [name, String(form.get(name) ?? "")])),
      },
      { status: failure.status },
    );
  return dispatchIntent(
    { app, request, form, params: {} },
    {
      create: formAction(createMissionOperation, {
        body: (form) => ({
          key: field(form, "key") ?? "",
          scope: field(form, "scope") ?? "",
          metric: field(form, "metric") ?? "",
          target: field(form, "target") ?? "",
          reward_amount: field(form, "reward_amount") ?? "",
          title_zh: field(form, "title_zh") ?? "",
          title_en: field(form, "title_en") ?? "",
          position: field(form, "position"),
          reason: field(form, "reason"),
        }),
        done: () => ({ notice: t("admin:missions.created") }),
        failed,
        errorScreen,
      }),
      update: formAction(changeMissionOperation, {
        params: ({ form }) => ({ id: form.get("id") }),
        body: (form) => ({
          metric: field(form, "metric"),
          target: field(form, "target"),
          reward_amount: field(form, "reward_amount"),
          title_zh: field(form, "title_zh") ?? "",
          title_en: field(form, "title_en") ?? "",
          position: field(form, "position"),
          reason: field(form, "reason"),
        }),
        done: () => ({ notice: t("admin:missions.updated") }),
        failed,
        errorScreen,
      }),
      pause: formAction(changeMissionOperation, {
        params: ({ form }) => ({ id: form.get("id") }),
        body: (form) => ({ active: false, reason: field(form, "reason") }),
        done: () => ({ notice: t("admin:missions.paused") }),
        failed,
        errorScreen,
      }),
      resume: formAction(changeMissionOperation, {
        params: ({ form }) => ({ id: form.get("id") }),
        body: (form) => ({ active: true, reason: field(form, "reason") }),
        done: () => ({ notice: t("admin:missions.resumed") }),
        failed,
        errorScreen,
      }),
    },
  );
}

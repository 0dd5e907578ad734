import { data } from "react-router";
import type { AppContext } from "../context.ts";
import { translator } from "../../common/i18n.ts";
import { pageUrl } from "../../common/locale.ts";
import { dispatchIntent, formAction, type FormFailure } from "../../server/lib/operation.ts";
import { requireStaff } from "../../features/admin/staff.ts";
import { contentSearchSchema, searchContent } from "../../features/admin/content.ts";
import { listAllAnnouncements } from "../../features/messages/announcements.ts";
import {
  moderateContentOperation,
  presentContentRow,
  presentStaffAnnouncement,
  protectContentOperation,
  withdrawAnnouncementOperation,
  writeAnnouncementOperation,
} from "../../features/admin/content-operations.ts";
import { assertFormCsrf, readForm } from "./context.server.ts";
import { withFormToken } from "./circle-pages.server.ts";

/* `/admin/content` and `/admin/announcements`: loaders and actions (plain posts that work without JavaScript), each through the site-role policy. */

const formFailed = (failure: FormFailure) =>
  data({ formError: failure.formError ?? Object.values(failure.fieldErrors ?? {})[0] }, { status: failure.status });

const field = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" && value !== "" ? value : undefined;
};

export async function contentLoader(app: AppContext, request: Request) {
  await requireStaff(app.db, app.viewer, "moderate_content");
  const raw = Object.fromEntries([...pageUrl(request.url).searchParams].filter(([, value]) => value !== ""));
  const parsed = contentSearchSchema.safeParse(raw);
  const query = parsed.success ? parsed.data : {};
  const page = await searchContent(app.db, app.viewer!, query);
  return withFormToken(app, {
    filters: { kind: query.kind ?? "", circle: query.circle ? String(query.circle) : "", author: query.author ?? "", q: query.q ?? "" },
    results: page.rows.map(presentContentRow),
    nextCursor: page.nextCursor,
  });
}

export async function contentAction(app: AppContext, request: Request) {
  const form = await readForm(request);
  assertFormCsrf(app, form);
  const t = translator(app.locale);
  const target = ({ form }: { form: FormData }) => ({ type: form.get("type"), id: form.get("id") });
  const errorScreen = (error: { status: number }) => error.status === 401;
  const moderate = (action: "hide" | "restore") =>
    formAction(moderateContentOperation, {
      params: target,
      body: (form) => ({ action, reason: field(form, "reason") }),
      done: () => ({ notice: t(action === "hide" ? "admin:content.hidden_done" : "admin:content.restored_done") }),
      failed: formFailed,
      errorScreen,
    });
  const protect = (value: boolean) =>
    formAction(protectContentOperation, {
      params: ({ form }) => ({ id: form.get("id") }),
      body: (form) => ({ protected: value, reason: field(form, "reason") }),
      done: () => ({ notice: t(value ? "admin:content.protected_done" : "admin:content.unprotected_done") }),
      failed: formFailed,
      errorScreen,
    });
  return dispatchIntent(
    { app, request, form, params: {} },
    { hide: moderate("hide"), restore: moderate("restore"), protect: protect(true), unprotect: protect(false) },
  );
}

export async function announcementsLoader(app: AppContext) {
  await requireStaff(app.db, app.viewer, "manage_announcements");
  return withFormToken(app, { announcements: (await listAllAnnouncements(app.db)).map(presentStaffAnnouncement) });
}

/** A `datetime-local` value is Beijing time (the product's clock); anything else goes to the schema as typed. */
function publishAt(value: string | undefined): string | undefined {
  if (!value) return undefined;
  return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value) ? `${value}:00+08:00` : value;
}

const draftFields = ["title_zh", "title_en", "body_zh", "body_en", "publish_at", "reason"] as const;

export async function announcementsAction(app: AppContext, request: Request) {
  const form = await readForm(request);
  assertFormCsrf(app, form);
  const t = translator(app.locale);
  const errorScreen = (error: { status: number }) => error.status === 401;
  return dispatchIntent(
    { app, request, form, params: {} },
    {
      publish: formAction(writeAnnouncementOperation, {
        body: (form) => ({
          title_zh: field(form, "title_zh") ?? "",
          title_en: field(form, "title_en") ?? "",
          body_zh: field(form, "body_zh") ?? "",
          body_en: field(form, "body_en") ?? "",
          publish_at: publishAt(field(form, "publish_at")),
          reason: field(form, "reason"),
        }),
        done: (answer) => ({ notice: t(answer.scheduled ? "admin:announcements.scheduled" : "admin:announcements.published") }),
        // What was typed comes back with the refusal, so nothing written is lost.
        failed: (failure) =>
          data(
            {
              formError: failure.formError ?? Object.values(failure.fieldErrors ?? {})[0],
              values: Object.fromEntries(draftFields.map((name) => [name, String(form.get(name) ?? "")])),
            },
            { status: failure.status },
          ),
        errorScreen,
      }),
      withdraw: formAction(withdrawAnnouncementOperation, {
        params: ({ form }) => ({ id: form.get("id") }),
        body: (form) => ({ reason: field(form, "reason") }),
        done: () => ({ notice: t("admin:announcements.withdrawn") }),
        failed: formFailed,
        errorScreen,
      }),
    },
  );
}

import { data, Form, Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/circle-settings-members";
import { assertFormCsrf, formFailure, getAppContext, readForm } from "../lib/context.server.ts";
import { managedCircle, withFormToken } from "../lib/circle-pages.server.ts";
import { formatDate, localizePath, pageUrl, type Locale } from "../../common/locale.ts";
import { translator } from "../../common/i18n.ts";
import { pageMeta } from "../lib/meta.ts";
import { CircleSettingsLayout, FormAlert } from "../components/circle-settings-layout.tsx";
import { memberListQuerySchema } from "../../features/circles/schema.ts";
import { countAdministrators, listMembers } from "../../features/circles/membership.ts";
import {
  removeAllAdministratorsOperation,
  removeMemberOperation,
  setMemberRolesOperation,
} from "../../features/circles/manage-operations.ts";
import { dispatchIntent, formAction, type FormFailure as OperationFormFailure, type FormPost } from "../../server/lib/operation.ts";
import type { AppError } from "../../common/app-error.ts";
import { roleRank } from "../../features/circles/policy.ts";
import { localizedTexts } from "../../features/circles/presenter.ts";
import "../lib/circles-catalog.ts";
import "../../common/i18n-forms.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "circles:members.title");

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

/** Members with search and paging; roles one by one or several at once; removing members. */
export async function loader({ context, params, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const { access, row } = await managedCircle(app, request, params.circleId, "manage_members");
  const url = pageUrl(request.url);
  const parsed = memberListQuerySchema.safeParse({
    q: url.searchParams.get("q")?.replaceAll("\u0000", "") || undefined,
    page: url.searchParams.get("page") ?? undefined,
  });
  const query = parsed.success ? parsed.data : { page: 1 };
  const list = await listMembers(app.db, app.viewer, access, query);
  return withFormToken(app, {
    circle: { id: row.id, name: localizedTexts(row, app.locale).name },
    query: query.q ?? "",
    ...list,
    // Demoting administrators takes a higher rank than theirs.
    canRemoveAllAdmins: access.role !== null && roleRank[access.role] > roleRank.admin && (await countAdministrators(app.db, row.id)) > 0,
  });
}

type Notice = { notice: string };

export async function action({ context, params, request }: Route.ActionArgs) {
  const app = getAppContext(context);
  const { row } = await managedCircle(app, request, params.circleId, "manage_members");
  const form = await readForm(request);
  const t = translator(app.locale);
  const ids = form.getAll("user_id").map((value) => (typeof value === "string" && /^\d{1,10}$/.test(value) ? Number(value) : 0));
  const circle = () => ({ id: row.id });
  // Refusals are said above the list (a field's message too: the list has no fields of its own).
  const refusals = {
    failed: (failure: OperationFormFailure) =>
      data({ formError: failure.formError ?? Object.values(failure.fieldErrors ?? {})[0] }, { status: failure.status }),
    errorScreen: (error: AppError) => error.status === 401,
  };
  const setRoles = (userIds: number[], role: FormDataEntryValue | null, notice: (count: number) => string) =>
    formAction(setMemberRolesOperation, {
      params: circle,
      body: () => ({ user_ids: userIds, role }),
      done: (answer) => ({ notice: notice(answer.user_ids.length) }) satisfies Notice,
      ...refusals,
    });
  const roles = (role: "admin" | "member") => setRoles(ids, role, (count) => t("circles:members.roles_saved", { count }));
  const handlers = {
    set_role: setRoles(ids.slice(0, 1), form.get("role"), () => t("circles:members.role_saved")),
    make_admins: roles("admin"),
    make_members: roles("member"),
    remove_all_admins: formAction(removeAllAdministratorsOperation, {
      params: circle,
      done: (answer) => ({ notice: t("circles:members.admins_removed", { count: answer.removed }) }) satisfies Notice,
      ...refusals,
    }),
    remove: async (post: FormPost) => {
      if (!ids[0]) return data({ formError: t("validation:circle_members_required") }, { status: 400 });
      return formAction(removeMemberOperation, {
        params: () => ({ id: row.id, user_id: ids[0] }),
        done: () => ({ notice: t("circles:members.removed") }) satisfies Notice,
        ...refusals,
      })(post);
    },
  };
  try {
    assertFormCsrf(app, form);
    return await dispatchIntent({ app, request, form, params }, handlers);
  } catch (error) {
    return formFailure(app, error);
  }
}

export default function CircleSettingsMembers({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("circles");
  const locale = i18n.language as Locale;
  const { circle, query, members, total, page, pageSize, canRemoveAllAdmins, csrfToken } = loaderData;
  const path = localizePath(`/circles/${circle.id}/settings/members`, locale);
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const pageLink = (target: number) => `${path}?${new URLSearchParams({ ...(query ? { q: query } : {}), page: String(target) })}`;
  const returnTo = `${path}?${new URLSearchParams({ ...(query ? { q: query } : {}), page: String(page) })}`;
  const anySelectable = members.some((member) => member.can.setRoles.length > 0);
  return (
    <CircleSettingsLayout
      circle={circle}
      title={t("members.title")}
      notice={actionData && "notice" in actionData ? actionData.notice : null}
    >
      <FormAlert message={actionData && "formError" in actionData ? actionData.formError : undefined} />
      <Form method="get" action={path} role="search" className="search-form" aria-label={t("members.search_label")}>
        <input
          className="text-input"
          type="search"
          name="q"
          defaultValue={query}
          aria-label={t("members.search_label")}
          placeholder={t("members.search_placeholder")}
          maxLength={50}
        />
        <button type="submit" className="button">
          {t("members.search")}
        </button>
      </Form>
      <p className="muted">{t("members.total", { count: total })}</p>
      {members.length === 0 ? (
        <p className="muted">{t("members.none")}</p>
      ) : (
        <div className="table-scroll">
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">{t("members.select")}</th>
                <th scope="col">{t("members.member")}</th>
                <th scope="col">{t("members.role")}</th>
                <th scope="col">{t("members.joined_at")}</th>
                <th scope="col">{t("members.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {members.map((member) => (
                <tr key={member.userId} data-username={member.username}>
                  <td>
                    {member.can.setRoles.length > 0 ? (
                      <input
                        type="checkbox"
                        name="user_id"
                        value={member.userId}
                        form="bulk-roles"
                        aria-label={t("members.select_member", { name: member.nickname })}
                      />
                    ) : null}
                  </td>
                  <td>
                    {member.nickname} <span className="muted">@{member.username}</span>
                  </td>
                  <td>{t(`roles.${member.role}`)}</td>
                  <td>{formatDate(member.joinedAt, locale)}</td>
                  <td>
                    <div className="row-actions">
                      {member.can.setRoles.length > 0 ? (
                        <Form method="post" action={returnTo} className="inline-form">
                          <input type="hidden" name="csrftoken" value={csrfToken} />
                          <input type="hidden" name="user_id" value={member.userId} />
                          <select
                            name="role"
                            className="native-select"
                            defaultValue={member.can.setRoles.includes(member.role) ? member.role : member.can.setRoles[0]}
                            aria-label={t("members.role_for", { name: member.nickname })}
                          >
                            {member.can.setRoles.map((role) => (
                              <option key={role} value={role}>
                                {t(`roles.${role}`)}
                              </option>
                            ))}
                          </select>
                          <button type="submit" name="intent" value="set_role" className="button">
                            {t("members.set_role")}
                          </button>
                        </Form>
                      ) : null}
                      {member.can.remove ? (
                        <Form method="post" action={returnTo} className="inline-form">
                          <input type="hidden" name="csrftoken" value={csrfToken} />
                          <input type="hidden" name="user_id" value={member.userId} />
                          <button
                            type="submit"
                            name="intent"
                            value="remove"
                            className="button button-danger"
                            aria-label={`${t("members.remove")} ${member.nickname}`}
                          >
                            {t("members.remove")}
                          </button>
                        </Form>
                      ) : null}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {anySelectable || canRemoveAllAdmins ? (
        <Form method="post" action={returnTo} id="bulk-roles" className="bulk-actions" aria-label={t("members.bulk")}>
          <input type="hidden" name="csrftoken" value={csrfToken} />
          {anySelectable ? (
            <>
              <span>{t("members.bulk")}:</span>
              <button type="submit" name="intent" value="make_admins" className="button">
                {t("members.make_admins")}
              </button>
              <button type="submit" name="intent" value="make_members" className="button">
                {t("members.make_members")}
              </button>
            </>
          ) : null}
          {canRemoveAllAdmins ? (
            <button type="submit" name="intent" value="remove_all_admins" className="button button-danger">
              {t("members.remove_all_admins")}
            </button>
          ) : null}
        </Form>
      ) : null}
      {pages > 1 ? (
        <nav className="pager" aria-label={t("members.paging")}>
          {page > 1 ? <Link to={pageLink(page - 1)}>{t("members.previous")}</Link> : null}
          <span>{t("members.page_of", { page, pages })}</span>
          {page < pages ? <Link to={pageLink(page + 1)}>{t("members.next")}</Link> : null}
        </nav>
      ) : null}
    </CircleSettingsLayout>
  );
}

import { Form, Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import type { Route } from "./+types/admin-user";
import { getAppContext } from "../lib/context.server.ts";
import { userAction, userLoader } from "../lib/admin-pages.server.ts";
import { AppError } from "../../common/app-error.ts";
import { formatDate, localizePath, type Locale } from "../../common/locale.ts";
import { userTypes, siteRoles } from "../../features/accounts/constants.ts";
import { pageMeta } from "../lib/meta.ts";
import "../lib/admin-catalog.ts";

export const meta: Route.MetaFunction = ({ location }) => pageMeta(location, "admin:menu.users");

function userId(value: string): number {
  if (!/^\d{1,9}$/.test(value)) throw new AppError("not_found");
  return Number(value);
}

/** `/admin/users/{id}`: one account; type and role (admins), suspension (moderators too), each with a reason. */
export async function loader({ context, params }: Route.LoaderArgs) {
  return userLoader(getAppContext(context), userId(params.userId));
}

export async function action({ context, request, params }: Route.ActionArgs) {
  return userAction(getAppContext(context), request, String(userId(params.userId)));
}

export default function AdminUser({ loaderData, actionData }: Route.ComponentProps) {
  const { t, i18n } = useTranslation("admin");
  const locale = i18n.language as Locale;
  const { user, csrfToken } = loaderData;
  const time = (value: string) => formatDate(value, locale, { dateStyle: "medium", timeStyle: "short" });
  const notice = actionData && "notice" in actionData ? actionData.notice : null;
  const error = actionData && "formError" in actionData ? actionData.formError : null;
  const reason = (
    <label>
      {t("users.reason")} <input name="reason" required maxLength={1000} />
    </label>
  );
  return (
    <section className="panel">
      <h1 className="page-title">
        {user.nickname} (@{user.username})
      </h1>
      {notice ? (
        <p className="notice" role="status">
          {notice}
        </p>
      ) : null}
      {error ? (
        <p className="form-error" role="alert">
          {error}
        </p>
      ) : null}
      <dl>
        <dt>{t("users.email")}</dt>
        <dd>{user.email ?? ""}</dd>
        <dt>{t("users.phone")}</dt>
        <dd>{user.phone ?? ""}</dd>
        <dt>{t("users.type")}</dt>
        <dd>{user.user_type}</dd>
        <dt>{t("users.role")}</dt>
        <dd>{t(`roles.${user.site_role}`)}</dd>
        <dt>{t("users.suspension")}</dt>
        <dd data-testid="suspension">
          {user.suspended_until ? `${time(user.suspended_until)} · ${user.suspension_reason}` : t("users.not_suspended")}
        </dd>
        <dt>{t("users.joined")}</dt>
        <dd>{time(user.created_at)}</dd>
      </dl>
      <p>
        <Link to={`${localizePath("/admin/audit", locale)}?target=user:${user.id}`}>{t("users.history")}</Link>
      </p>
      <h2>{t("users.suspension")}</h2>
      <Form method="post">
        <input type="hidden" name="csrftoken" value={csrfToken} />
        <input type="hidden" name="intent" value="suspension" />
        <label>
          {t("users.suspend_for")}{" "}
          <select name="duration" defaultValue="">
            <option value="">{t("users.duration.keep")}</option>
            {(["1d", "7d", "30d", "permanent", "lift"] as const).map((choice) => (
              <option key={choice} value={choice}>
                {t(`users.duration.${choice}`)}
              </option>
            ))}
          </select>
        </label>{" "}
        {reason} <button type="submit">{t("users.save")}</button>
      </Form>
      <h2>{t("users.reset")}</h2>
      <Form method="post">
        <input type="hidden" name="csrftoken" value={csrfToken} />
        <input type="hidden" name="intent" value="reset" />
        {(["nickname", "avatar"] as const).map((name) => (
          <label key={name}>
            <input type="checkbox" name="fields" value={name} /> {t(`users.reset_${name}`)}{" "}
          </label>
        ))}
        {reason} <button type="submit">{t("users.reset_button")}</button>
      </Form>
      <h2>{t("users.linked")}</h2>
      {user.linked_accounts.length === 0 ? (
        <p>{t("users.no_linked")}</p>
      ) : (
        <table className="admin-table" data-testid="linked-accounts">
          <thead>
            <tr>
              <th>{t("users.username")}</th>
              <th>{t("users.nickname")}</th>
              <th>{t("users.shared_addresses")}</th>
            </tr>
          </thead>
          <tbody>
            {user.linked_accounts.map((account) => (
              <tr key={account.id}>
                <td>
                  <Link to={localizePath(`/admin/users/${account.id}`, locale)}>{account.username}</Link>
                </td>
                <td>{account.nickname}</td>
                <td>{account.addresses.join(", ")}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {loaderData.canSetTypeAndRole ? (
        <>
          <h2>{t("users.set_type_role")}</h2>
          <Form method="post">
            <input type="hidden" name="csrftoken" value={csrfToken} />
            <input type="hidden" name="intent" value="type_role" />
            <label>
              {t("users.type")}{" "}
              <select name="user_type" defaultValue={user.user_type}>
                {userTypes.map((type) => (
                  <option key={type} value={type}>
                    {type}
                  </option>
                ))}
              </select>
            </label>{" "}
            <label>
              {t("users.role")}{" "}
              <select name="site_role" defaultValue={user.site_role}>
                {siteRoles.map((role) => (
                  <option key={role} value={role}>
                    {t(`roles.${role}`)}
                  </option>
                ))}
              </select>
            </label>{" "}
            {reason} <button type="submit">{t("users.save")}</button>
          </Form>
        </>
      ) : null}
      <h2>{t("users.counts")}</h2>
      <dl>
        {Object.entries(user.counts).map(([key, value]) => (
          <div key={key}>
            <dt>{t(`users.count.${key}`)}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <h2>{t("users.sign_ins")}</h2>
      <table className="admin-table">
        <thead>
          <tr>
            <th>{t("users.time")}</th>
            <th>{t("users.address")}</th>
            <th>{t("users.device")}</th>
          </tr>
        </thead>
        <tbody>
          {user.sign_ins.map((signIn) => (
            <tr key={signIn.created_at + signIn.ip}>
              <td>{time(signIn.created_at)}</td>
              <td>{signIn.ip}</td>
              <td>{signIn.user_agent}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>{t("users.wallet")}</h2>
      <p>
        gold {user.wallet.gold} · sinecoin {user.wallet.sinecoin}
      </p>
      {user.statement.length > 0 ? (
        <table className="admin-table">
          <caption>{t("users.statement")}</caption>
          <thead>
            <tr>
              <th>{t("users.time")}</th>
              <th>{t("users.kind")}</th>
              <th>{t("users.amount")}</th>
            </tr>
          </thead>
          <tbody>
            {user.statement.map((line) => (
              <tr key={line.id}>
                <td>{time(line.created_at)}</td>
                <td>{line.kind}</td>
                <td>
                  {line.amount} {line.currency}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

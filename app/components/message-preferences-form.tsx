import { Form } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { mutableCategories, type MutableCategory } from "../../features/messages/schema.ts";

/** Per category, notify or mute (`/account/profile`, intent `notifications`; a plain form post). */
export function MessagePreferencesForm(props: {
  action: string;
  csrfToken: string;
  muted: readonly string[];
  saved: boolean;
  busy: boolean;
}) {
  const { t } = useTranslation(["centre"]);
  return (
    <section className="panel" aria-labelledby="message-preferences-title">
      <h2 id="message-preferences-title" className="page-title">
        {t("message_preferences.heading")}
      </h2>
      <p className="muted">{t("message_preferences.intro")}</p>
      {props.saved ? (
        <p className="form-success" role="status">
          {t("message_preferences.saved")}
        </p>
      ) : null}
      <Form method="post" action={props.action} data-testid="message-preferences">
        <input type="hidden" name="csrftoken" value={props.csrfToken} />
        <input type="hidden" name="intent" value="notifications" />
        <table className="preferences-table">
          <thead>
            <tr>
              <th scope="col" />
              <th scope="col">{t("message_preferences.notify")}</th>
              <th scope="col">{t("message_preferences.mute")}</th>
            </tr>
          </thead>
          <tbody>
            {mutableCategories.map((category: MutableCategory) => {
              const muted = props.muted.includes(category);
              const label = t(`message_preferences.category_${category}`);
              return (
                <tr key={category}>
                  <th scope="row">{label}</th>
                  <td>
                    <input
                      type="radio"
                      name={`category_${category}`}
                      value="notify"
                      defaultChecked={!muted}
                      aria-label={`${label}: ${t("message_preferences.notify")}`}
                    />
                  </td>
                  <td>
                    <input
                      type="radio"
                      name={`category_${category}`}
                      value="mute"
                      defaultChecked={muted}
                      aria-label={`${label}: ${t("message_preferences.mute")}`}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        <button type="submit" className="button button-primary" disabled={props.busy}>
          {t("message_preferences.save")}
        </button>
      </Form>
    </section>
  );
}

/** The muted categories a preferences form names. */
export function mutedFromForm(form: FormData): MutableCategory[] {
  return mutableCategories.filter((category) => form.get(`category_${category}`) === "mute");
}

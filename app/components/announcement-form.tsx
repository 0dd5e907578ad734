import { Form, useNavigation } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";

type Answer = { announced?: true; formError?: string; fieldErrors?: Record<string, string> } | undefined;

const fields = [
  { name: "title_zh", kind: "title" },
  { name: "title_en", kind: "title" },
  { name: "body_zh", kind: "body" },
  { name: "body_en", kind: "body" },
] as const;

/** Site moderators write an announcement in both languages (a plain form post). */
export function AnnouncementForm({ csrfToken, action, answer }: { csrfToken: string; action: string; answer: unknown }) {
  const { t } = useTranslation(["centre"]);
  const navigation = useNavigation();
  const result = answer as Answer;
  return (
    <details className="announcement-compose" open={Boolean(result?.fieldErrors || result?.formError)}>
      <summary className="button">{t("centre:announcements.write")}</summary>
      <Form method="post" action={action} className="stack-form" data-testid="announcement-form">
        <input type="hidden" name="csrftoken" value={csrfToken} />
        {fields.map((field) => {
          const error = result?.fieldErrors?.[field.name];
          const id = `announcement-${field.name}`;
          return (
            <div key={field.name} className="form-field">
              <label htmlFor={id}>{t(`centre:announcements.${field.name}`)}</label>
              {field.kind === "title" ? (
                <input id={id} name={field.name} required maxLength={100} aria-invalid={error ? true : undefined} />
              ) : (
                <textarea id={id} name={field.name} required maxLength={5000} rows={4} aria-invalid={error ? true : undefined} />
              )}
              {error ? <p className="form-error">{error}</p> : null}
            </div>
          );
        })}
        <button type="submit" name="intent" value="announce" className="button button-primary" disabled={navigation.state === "submitting"}>
          {t("centre:announcements.publish")}
        </button>
        <div role="status" aria-live="polite">
          {result?.announced ? <p>{t("centre:announcements.published")}</p> : null}
          {result?.formError ? <p className="form-error">{result.formError}</p> : null}
        </div>
      </Form>
    </details>
  );
}

import { useRef } from "react";
import { Form, Link } from "react-router";
import { useTranslation } from "../lib/i18n.tsx";
import { localizePath, type Locale } from "../../common/locale.ts";
import "../lib/circles-catalog.ts";

interface MembershipToggleProps {
  circleId: number;
  circleName: string;
  role: string | null;
  can: { join: boolean; leave: boolean };
  /** Null for visitors: they are asked to log in instead. */
  csrfToken: string | null;
  /** The server asked to confirm leaving (a form posted without JavaScript). */
  confirmLeave: boolean;
}

/**
 * Join / Joined. Leaving asks first: in a dialog with JavaScript, and without it the server
 * answers the first post with the same question on the page.
 */
export function MembershipToggle({ circleId, circleName, role, can, csrfToken, confirmLeave }: MembershipToggleProps) {
  const { t, i18n } = useTranslation("circles");
  const locale = i18n.language as Locale;
  const dialog = useRef<HTMLDialogElement>(null);
  const path = localizePath(`/circles/${circleId}`, locale);

  if (!csrfToken) {
    return (
      <Link className="button button-primary" to={`${localizePath("/login", locale)}?next=${encodeURIComponent(`/circles/${circleId}`)}`}>
        {t("page.login_to_join")}
      </Link>
    );
  }
  if (!role) {
    if (!can.join) return null;
    return (
      <Form method="post" action={path} className="inline-form">
        <input type="hidden" name="csrftoken" value={csrfToken} />
        <button type="submit" name="intent" value="join" className="button button-primary">
          {t("page.join")}
        </button>
      </Form>
    );
  }
  if (!can.leave) {
    return (
      <span className="button" aria-disabled="true" title={t("page.founder_note")}>
        {t("page.joined")}
      </span>
    );
  }
  const confirmForm = (onCancel: () => void) => (
    <Form method="post" action={path} className="confirm-form" onSubmit={() => dialog.current?.close()}>
      <input type="hidden" name="csrftoken" value={csrfToken} />
      <input type="hidden" name="confirmed" value="1" />
      <button type="submit" name="intent" value="leave" className="button button-danger">
        {t("page.leave_confirm")}
      </button>
      <button type="button" className="button" onClick={onCancel}>
        {t("page.cancel")}
      </button>
    </Form>
  );
  return (
    <>
      <Form method="post" action={path} className="inline-form">
        <input type="hidden" name="csrftoken" value={csrfToken} />
        <button
          type="submit"
          name="intent"
          value="leave"
          className="button"
          aria-haspopup="dialog"
          onClick={(event) => {
            if (dialog.current?.showModal) {
              event.preventDefault();
              dialog.current.showModal();
            }
          }}
        >
          ✓ {t("page.joined")}
        </button>
      </Form>
      <dialog ref={dialog} className="confirm-dialog" aria-labelledby={`leave-title-${circleId}`}>
        <h2 id={`leave-title-${circleId}`}>{t("page.leave_title")}</h2>
        <p>{t("page.leave_text", { name: circleName })}</p>
        {confirmForm(() => dialog.current?.close())}
      </dialog>
      {confirmLeave ? (
        <div className="confirm-panel" role="alertdialog" aria-labelledby={`leave-inline-title-${circleId}`}>
          <h2 id={`leave-inline-title-${circleId}`}>{t("page.leave_title")}</h2>
          <p>{t("page.leave_text", { name: circleName })}</p>
          <Form method="post" action={path} className="confirm-form">
            <input type="hidden" name="csrftoken" value={csrfToken} />
            <input type="hidden" name="confirmed" value="1" />
            <button type="submit" name="intent" value="leave" className="button button-danger">
              {t("page.leave_confirm")}
            </button>
            <Link className="button" to={path}>
              {t("page.cancel")}
            </Link>
          </Form>
        </div>
      ) : null}
    </>
  );
}

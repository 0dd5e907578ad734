import { useRef, type ReactNode } from "react";
import { Form, Link } from "react-router";

interface ConfirmButtonProps {
  /** Unique on the page (ids of the dialog's heading). */
  id: string;
  action: string;
  /** Multipart by default (the book pages' forms); plain forms without files may say so. */
  encType?: "multipart/form-data" | "application/x-www-form-urlencoded";
  csrfToken: string;
  intent: string;
  /** More hidden fields (the chapter's id). */
  fields?: Record<string, string | number>;
  label: string;
  /** The button's accessible name when the label alone is ambiguous ("Delete chapter 2 …"). */
  ariaLabel?: string;
  question: string;
  confirmLabel: string;
  cancelLabel: string;
  danger?: boolean;
  /** The server asked this question: a form posted without JavaScript, answered with the question on the page. */
  asked: boolean;
  /** Where "cancel" leads when the question is on the page. */
  cancelTo: string;
}

/**
 * A form button that asks first: in a modal dialog with JavaScript; without it, the first post
 * comes back with the same question on the page, and only the answer with `confirmed=1` acts.
 */
export function ConfirmButton({
  id,
  action,
  encType = "multipart/form-data",
  csrfToken,
  intent,
  fields = {},
  label,
  ariaLabel,
  question,
  confirmLabel,
  cancelLabel,
  danger,
  asked,
  cancelTo,
}: ConfirmButtonProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const hidden = (
    <>
      <input type="hidden" name="csrftoken" value={csrfToken} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  );
  const answer = (cancel: ReactNode) => (
    <Form method="post" action={action} encType={encType} className="confirm-form" onSubmit={() => dialog.current?.close()}>
      {hidden}
      <input type="hidden" name="confirmed" value="1" />
      <button type="submit" name="intent" value={intent} className={danger ? "button button-danger" : "button button-primary"}>
        {confirmLabel}
      </button>
      {cancel}
    </Form>
  );
  return (
    <>
      <Form method="post" action={action} encType={encType} className="inline-form">
        {hidden}
        <button
          type="submit"
          name="intent"
          value={intent}
          className={danger ? "button button-danger" : "button"}
          aria-label={ariaLabel}
          aria-haspopup="dialog"
          onClick={(event) => {
            if (dialog.current?.showModal) {
              event.preventDefault();
              dialog.current.showModal();
            }
          }}
        >
          {label}
        </button>
      </Form>
      <dialog ref={dialog} className="confirm-dialog" aria-labelledby={`${id}-dialog-title`}>
        <h2 id={`${id}-dialog-title`}>{question}</h2>
        {answer(
          <button type="button" className="button" onClick={() => dialog.current?.close()}>
            {cancelLabel}
          </button>,
        )}
      </dialog>
      {asked ? (
        <div className="confirm-panel" role="alertdialog" aria-labelledby={`${id}-inline-title`}>
          <h2 id={`${id}-inline-title`}>{question}</h2>
          {answer(
            <Link className="button" to={cancelTo}>
              {cancelLabel}
            </Link>,
          )}
        </div>
      ) : null}
    </>
  );
}

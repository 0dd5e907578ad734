import { Suspense, useState, type ReactNode } from "react";
import { Link } from "react-router";

/**
 * A link to a page of its own (report, tip) that works without JavaScript; with JavaScript and a
 * session a plain click opens `dialog` on the page instead (a `lazy` component, so its code loads
 * on the first press and reading pages stay light). A click with a modifier still opens the page.
 */
export function DialogLink({
  to,
  testId,
  className = "button action-button",
  children,
  dialog,
}: {
  to: string;
  testId: string;
  className?: string;
  children: ReactNode;
  /** The dialog, given how to close it; null for visitors, who follow the link (its page sends them to sign in and back). */
  dialog: ((close: () => void) => ReactNode) | null;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Link
        className={className}
        to={to}
        rel="nofollow"
        data-testid={testId}
        onClick={(event) => {
          if (!dialog || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
          event.preventDefault();
          setOpen(true);
        }}
      >
        {children}
      </Link>
      {open && dialog ? <Suspense fallback={null}>{dialog(() => setOpen(false))}</Suspense> : null}
    </>
  );
}

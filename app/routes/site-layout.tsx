import { Outlet, isRouteErrorResponse, useLocation, useRouteError } from "react-router";
import { ErrorScreen } from "../components/error-screen.tsx";

/** Wraps every page so that a page's error renders inside the site header and footer. */
export default function SiteLayout() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const location = useLocation();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  let details: string | undefined;
  let message: string | undefined;
  if (isRouteErrorResponse(error)) {
    // A domain error (AppError) arrives as { code, message } already in the page's language.
    const body = error.data as { code?: unknown; message?: unknown } | string | null;
    if (body && typeof body === "object" && typeof body.message === "string") message = body.message;
    details = typeof body === "string" && body ? body : `${error.status} ${error.statusText}`;
  } else if (error instanceof Error) details = import.meta.env.DEV ? `${error.message}\n\n${error.stack ?? ""}` : error.message;
  return <ErrorScreen status={status} path={location.pathname} details={details} message={message} />;
}

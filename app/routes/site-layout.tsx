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
  if (isRouteErrorResponse(error)) details = typeof error.data === "string" && error.data ? error.data : `${error.status} ${error.statusText}`;
  else if (error instanceof Error) details = import.meta.env.DEV ? `${error.message}\n\n${error.stack ?? ""}` : error.message;
  return <ErrorScreen status={status} path={location.pathname} details={details} />;
}

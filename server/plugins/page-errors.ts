import { STATUS_CODES } from "node:http";
import { data, redirect, type ServerBuild } from "react-router";
import { AppError, presentError } from "../../common/app-error.ts";
import { localeFromPath, localizePath, pageUrl, stripLocale } from "../../common/locale.ts";

type RouteFunction = (args: { request: Request }) => unknown;

/**
 * The one place where a domain error thrown in a page loader or action becomes an HTTP answer,
 * as the API's error handler does for JSON: 401 → the login page (and back afterwards), any other
 * AppError → the error screen with its own status and localized message. React Router would turn
 * it into a 500 otherwise, since it only knows its own `data()`/Response throws.
 */
export function withDomainErrors(build: ServerBuild): ServerBuild {
  const routes = Object.fromEntries(
    Object.entries(build.routes).map(([id, route]) => {
      if (!route) return [id, route];
      const module = { ...route.module } as Record<string, unknown>;
      for (const name of ["loader", "action"]) {
        const original = module[name] as RouteFunction | undefined;
        if (original) module[name] = wrap(original);
      }
      return [id, { ...route, module }];
    }),
  );
  return { ...build, routes: routes as ServerBuild["routes"] };
}

function wrap(original: RouteFunction): RouteFunction {
  return async (args) => {
    try {
      return await original(args);
    } catch (error) {
      throw error instanceof AppError ? toPageAnswer(error, args.request) : error;
    }
  };
}

/** What an AppError means to a page request. */
export function toPageAnswer(error: AppError, request: Request): Response | ReturnType<typeof data> {
  const url = pageUrl(request.url);
  const locale = localeFromPath(url.pathname);
  if (error.status === 401) {
    const next = stripLocale(url.pathname) + url.search;
    return redirect(`${localizePath("/login", locale)}?next=${encodeURIComponent(next)}`);
  }
  const body = presentError(error, locale);
  // The status line carries only Latin-1: the localized message travels in the body.
  return data(body, { status: error.status, statusText: STATUS_CODES[error.status] ?? "Error" });
}

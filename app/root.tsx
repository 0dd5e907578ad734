// First: zod must be configured before any module builds a schema (see the module).
import "./lib/zod-browser.ts";
import { useEffect, useRef, useState } from "react";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, data, useLocation, useNavigation, useRouteLoaderData } from "react-router";
import { I18nProvider } from "./lib/i18n.tsx";
import type { Route } from "./+types/root";
import { getI18n } from "../common/i18n.ts";
import { localeFromPath, type Locale } from "../common/locale.ts";
import { createSessionStore, SessionContext, type SessionStore } from "./lib/session-store.ts";
import { LiveToast } from "./components/live-toast.tsx";
import { watchBuilds } from "./lib/build-watch.ts";
import { getAppContext, csrfForForm } from "./lib/context.server.ts";
import { presentCurrentUser } from "../features/accounts/presenter.ts";
import { findSessionUser } from "../features/accounts/service.ts";
import { getUnreadCounts } from "../features/messages/service.ts";
import { SiteHeader } from "./components/site-header.tsx";
import { SiteFooter } from "./components/site-footer.tsx";
import antdStyles from "./styles/antd.generated.css?url";
import antdDarkStyles from "./styles/antd-dark.generated.css?url";
import globalStyles from "./styles/global.css?url";
import writingStyles from "./styles/writings.css?url";

export const links: Route.LinksFunction = () => [
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "stylesheet", href: antdStyles },
  { rel: "stylesheet", href: antdDarkStyles, media: "(prefers-color-scheme: dark)" },
  { rel: "stylesheet", href: globalStyles },
  { rel: "stylesheet", href: writingStyles },
];

export async function loader({ context }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const locale = app.locale;
  // The nonce lets the document's own inline scripts run under the Content-Security-Policy.
  if (!app.viewer) return { locale, nonce: app.nonce, user: null, unread: null, csrfToken: null };
  // Signed-in pages carry a CSRF token for the logout form; they are never cached.
  const [user, unread] = await Promise.all([findSessionUser(app.db, app.sessionToken), getUnreadCounts(app.db, app.viewer.id)]);
  if (!user) return { locale, nonce: app.nonce, user: null, unread: null, csrfToken: null };
  const csrf = csrfForForm(app);
  const body = { locale, nonce: app.nonce, user: presentCurrentUser(user), unread, csrfToken: csrf.token };
  return data(body, { headers: csrf.setCookie ? { "Set-Cookie": csrf.setCookie } : undefined });
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  return loaderHeaders.has("Set-Cookie") ? { "Cache-Control": "private, no-store" } : {};
}

export type RootData = Awaited<ReturnType<typeof loader>> extends infer T ? (T extends { data: infer D } ? D : T) : never;

export function useRootData(): RootData | undefined {
  return useRouteLoaderData("root") as RootData | undefined;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRootData();
  const location = useLocation();
  const locale: Locale = root?.locale ?? localeFromPath(location.pathname);
  const i18n = getI18n(locale);
  return (
    <html lang={locale} dir="ltr">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <meta name="theme-color" content="#1E90FF" />
        <Meta />
        <Links />
      </head>
      <body>
        <I18nProvider i18n={i18n}>{children}</I18nProvider>
        <ScrollRestoration nonce={root?.nonce} />
        <Scripts nonce={root?.nonce} />
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const [store] = useState(() => createSessionStore(loaderData));
  // Server data is the truth after every navigation or form post.
  useEffect(() => store.hydrate(loaderData.user, loaderData.unread), [store, loaderData.user, loaderData.unread]);
  useSessionRefresh(store);
  useLiveStream(store, loaderData.user?.user_id ?? 0);
  useReleaseWatch();
  return (
    <SessionContext value={store}>
      <div className="site">
        <SiteHeader csrfToken={loaderData.csrfToken} />
        <main id="content" className="site-main">
          <Outlet />
        </main>
        <SiteFooter />
        <LiveToast />
      </div>
    </SessionContext>
  );
}

/** When the tab comes back into view, the auth and unread calls bring the header up to date. */
function useSessionRefresh(store: SessionStore) {
  useEffect(() => {
    const refresh = async () => {
      if (document.visibilityState !== "visible" || store.get().user.user_id === 0) return;
      await store.refreshAuth();
      await store.refreshUnread();
    };
    document.addEventListener("visibilitychange", refresh);
    return () => document.removeEventListener("visibilitychange", refresh);
  }, [store]);
}

/** The signed-in user's live stream (its own chunk, loaded after the page): counters and toasts without a reload. */
function useLiveStream(store: SessionStore, userId: number) {
  useEffect(() => {
    if (userId === 0) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    void import("./lib/live-stream.ts").then(({ connectLive }) => {
      if (!cancelled) stop = connectLive(userId, (message) => store.applyLive(message));
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [store, userId]);
}

/** Polls for new builds; once one exists, the next navigation loads the page fresh from the server. */
function useReleaseWatch() {
  const navigation = useNavigation();
  const location = useLocation();
  const target = useRef(location.pathname + location.search);
  const newBuild = useRef(false);
  target.current = navigation.location ? navigation.location.pathname + navigation.location.search : location.pathname + location.search;
  useEffect(
    () =>
      watchBuilds(
        () => target.current,
        () => (newBuild.current = true),
      ),
    [],
  );
  useEffect(() => {
    if (newBuild.current && navigation.state === "loading" && navigation.location) window.location.assign(target.current);
  }, [navigation.state, navigation.location]);
}

/** Only errors of the root loader itself land here; page errors render inside the shell (site-layout). */
export { ErrorBoundary } from "./routes/site-layout.tsx";

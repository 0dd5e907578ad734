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
import { getUnreadSnapshot } from "../features/messages/service.ts";
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
  const signedOut = { locale, nonce: app.nonce, user: null, unread: null, unreadVersion: 0, liveFrom: null, csrfToken: null };
  if (!app.viewer) return signedOut;
  // Signed-in pages carry a CSRF token for the logout form, the counters with their version and
  // where the live stream starts (the newest ids at render: see useLiveStream); they are never cached.
  const [user, unread] = await Promise.all([findSessionUser(app.db, app.sessionToken), getUnreadSnapshot(app.db, app.viewer.id)]);
  if (!user) return signedOut;
  const csrf = csrfForForm(app);
  const body = {
    locale,
    nonce: app.nonce,
    user: presentCurrentUser(user),
    unread: unread.counts,
    unreadVersion: unread.version,
    liveFrom: unread.liveFrom,
    csrfToken: csrf.token,
  };
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
  // Server data is the truth after every navigation or form post, unless the tab already holds newer counters.
  useEffect(
    () => store.hydrate(loaderData.user, loaderData.unread, loaderData.unreadVersion),
    [store, loaderData.user, loaderData.unread, loaderData.unreadVersion],
  );
  useSessionRefresh(store);
  const liveFrom = useRef(loaderData.liveFrom);
  liveFrom.current = loaderData.liveFrom;
  useLiveStream(store, loaderData.user?.user_id ?? 0, liveFrom);
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

/**
 * The signed-in user's live stream (its own chunk, loaded after the page): counters and toasts
 * without a reload. Its first connect resumes from the page's render (`liveFrom`), so what was
 * committed between the render and the connect is pushed too.
 */
function useLiveStream(store: SessionStore, userId: number, liveFrom: { current: string | null }) {
  useEffect(() => {
    if (userId === 0) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    void import("./lib/live-stream.ts").then(({ connectLive }) => {
      if (!cancelled)
        stop = connectLive(
          userId,
          (message) => store.applyLive(message),
          () => liveFrom.current,
        );
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [store, userId, liveFrom]);
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

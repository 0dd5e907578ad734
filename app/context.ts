import { createContext } from "react-router";
import type { Database } from "../server/db/client.ts";
import type { User } from "../features/accounts/service.ts";
import type { Locale } from "./lib/locale.ts";

/** What the server hands every loader and action: the database, the viewer and request facts. */
export interface AppContext {
  db: Database;
  viewer: User | null;
  /** The raw session cookie value, for logout. */
  sessionToken: string | undefined;
  locale: Locale;
  client: { ip: string; userAgent: string };
  /** Cookies are Secure when the request came over HTTPS. */
  secure: boolean;
  production: boolean;
  sessionSecret: string;
  /** Sign-in asks for the slider puzzle (the CAPTCHA setting). */
  captcha: boolean;
  cookies: Record<string, string | undefined>;
  /** This response's script nonce (Content-Security-Policy). */
  nonce: string;
  /** Drops cached anonymous pages after a write that changes what they show. */
  invalidatePages(): void;
}

type Holder = typeof globalThis & { __circlesAppContext?: ReturnType<typeof createContext<AppContext>> };

/**
 * Kept on globalThis on purpose: the Fastify server and the bundled React Router server build
 * each load this module, and both must hold the very same context token.
 */
export const appContext = ((globalThis as Holder).__circlesAppContext ??= createContext<AppContext>());

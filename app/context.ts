import { createContext } from "react-router";
import { countInstance } from "../server/lib/single-instance.ts";
import type { Database } from "../server/db/client.ts";
import type { Viewer } from "../features/accounts/viewer.ts";
import type { Locale } from "../common/locale.ts";
import type { Delivery } from "../features/delivery/message.ts";
import type { FileStore } from "../features/attachments/file-store.server.ts";
import type { OperationSettings } from "../server/lib/operation.ts";

/** What the server hands every loader and action: the database, the viewer and request facts. */
export interface AppContext {
  /** The primary database (an anonymous visitor's page reads: the read replica when it is caught up). */
  db: Database;
  /** For reads that tolerate a short lag (search, rankings, feeds): the read replica when it has replayed what this viewer must see, else `db`. */
  readDb: Database;
  /** Uploaded files (features/attachments). */
  files: FileStore;
  /** The clock of date-bound rules (daily check-in). */
  now: () => Date;
  viewer: Viewer | null;
  /** The raw session cookie value, for logout. */
  sessionToken: string | undefined;
  locale: Locale;
  client: { ip: string; userAgent: string };
  /** Cookies are Secure when the request came over HTTPS. */
  secure: boolean;
  production: boolean;
  sessionSecret: string;
  /** Sign-in and sign-up ask for the slider puzzle (the CAPTCHA setting). */
  captcha: boolean;
  /** Accounts one address may create per hour. */
  signupsPerHour: number;
  /** Mail and SMS (or the dev outbox), for the forms that send verification codes. */
  delivery: Delivery;
  cookies: Record<string, string | undefined>;
  /** The site's settings operations read (`services.settings`, server/lib/operation.ts). */
  settings: OperationSettings;
  /** This response's script nonce (Content-Security-Policy). */
  nonce: string;
  /**
   * Tags naming what this page shows (`home`, `circle:7`); a cached copy is dropped when a write
   * invalidates one of them. Add with `tagPage` (app/lib/context.server.ts).
   */
  cacheTags: Set<string>;
}

countInstance("app/context");

/** The token loaders read their context with; one per process (see server/lib/single-instance.ts). */
export const appContext = createContext<AppContext>();

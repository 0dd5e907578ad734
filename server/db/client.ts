import path from "node:path";
import { mkdirSync } from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/node-postgres";
import { migrate as migratePostgres } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import pg from "pg";
import * as schema from "./schema/index.ts";
import { preparedStatements } from "./embedded-statements.ts";
import { listenResiliently, type ListenOptions } from "./listener.ts";

export type Schema = typeof schema;
/** One type for both drivers: services never know which one they run on. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction handle has the same query API as the database. */
export type Executor = Database;

export interface DatabaseHandle {
  db: Database;
  kind: "embedded" | "server";
  migrate(): Promise<void>;
  close(): Promise<void>;
  /**
   * PostgreSQL LISTEN on a dedicated connection (server only: the embedded store serves one
   * process, so it has nobody to tell). A dropped connection reconnects and LISTENs again, then
   * `options.onReconnect` catches up. Returns a stop function.
   */
  listen?(channel: string, onMessage: (payload: string) => void, options?: ListenOptions): Promise<() => Promise<void>>;
  /**
   * How the job queue (features/jobs) reaches the same store: the embedded store's one connection,
   * or the server's URL (the queue keeps a small pool of its own and a LISTEN connection).
   */
  queueConnection: { embedded: PGlite } | { url: string };
}

const migrationsFolder = path.resolve(import.meta.dirname, "migrations");

/**
 * The embedded store (PGlite). `dataDir` undefined means in memory (tests); `initial` starts it
 * from a dumped data directory (the tests' migrated template).
 */
export async function openEmbeddedDatabase(dataDir: string | undefined, initial?: Blob): Promise<DatabaseHandle> {
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // pg_trgm: the entry search's trigram indexes (PostgreSQL servers ship it in contrib).
  const client = await PGlite.create({ dataDir, loadDataDir: initial, extensions: { pg_trgm } });
  const db = drizzlePglite({ client: preparedStatements(client), schema }) as unknown as Database;
  return {
    db,
    kind: "embedded",
    migrate: async () => {
      await migratePglite(db as never, { migrationsFolder });
    },
    close: () => client.close(),
    queueConnection: { embedded: client },
  };
}

/** A PostgreSQL server reached by URL. */
export async function openServerDatabase(url: string, poolSize = 10): Promise<DatabaseHandle> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  // An idle client that loses its connection must not crash the process.
  pool.on("error", () => {});
  const db = drizzlePostgres({ client: pool, schema }) as unknown as Database;
  return {
    db,
    kind: "server",
    migrate: async () => {
      await migratePostgres(db as never, { migrationsFolder });
    },
    close: () => pool.end(),
    queueConnection: { url },
    // A dropped connection is reconnected with backoff and LISTENs again (server/db/listener.ts).
    listen: (channel, onMessage, options) => listenResiliently(url, channel, onMessage, options),
  };
}

export function embeddedDataPath(dataDir: string): string {
  return path.join(dataDir, "pg");
}

import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { freePort, waitUntilServing } from "../e2e/global-setup.ts";
import { createTestDatabase } from "./database.ts";
import { embeddedDataPath, openEmbeddedDatabase, type DatabaseHandle } from "../../server/db/client.ts";
import { seedCircleTree } from "../../features/circles/seed.ts";

/**
 * What the kill -9 tests share: a store that outlives a server process (the embedded store on disk,
 * or a PostgreSQL database when `TEST_DATABASE_URL` is set), a real server process on it, and the
 * clean-up of a killed server's lock.
 */
export type CrashStoreKind = "embedded" | "postgres";
export const crashStoreKinds: CrashStoreKind[] = process.env.TEST_DATABASE_URL ? ["embedded", "postgres"] : ["embedded"];

export interface CrashStore {
  kind: CrashStoreKind;
  /** The server's environment for this store. */
  env: Record<string, string>;
  dataDir: string;
  /** A connection for the test's own reads and writes (only while no server holds an embedded store). */
  open(): Promise<DatabaseHandle>;
  dispose(): Promise<void>;
}

export async function prepareCrashStore(kind: CrashStoreKind): Promise<CrashStore> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "circles-crash-"));
  if (kind === "embedded") {
    const open = () => openEmbeddedDatabase(embeddedDataPath(dataDir));
    return { kind, env: { DATABASE_URL: "" }, dataDir, open, dispose: async () => rmSync(dataDir, { recursive: true, force: true }) };
  }
  const database = await createTestDatabase("postgres");
  return {
    kind,
    env: { DATABASE_URL: database.url! },
    dataDir,
    open: async () => ({ ...database, close: async () => undefined }),
    dispose: async () => {
      await database.dispose();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A production server process on the store, with `env` added, once it serves. */
export async function startCrashServer(store: CrashStore, env: Record<string, string>): Promise<{ server: ChildProcess; baseURL: string }> {
  const port = await freePort();
  const server = spawn(process.execPath, ["server/main.ts"], {
    env: { ...process.env, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", DATA_DIR: store.dataDir, ...env, ...store.env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const baseURL = `http://127.0.0.1:${port}`;
  await waitUntilServing(baseURL, server);
  return { server, baseURL };
}

/**
 * After a kill -9 on the embedded store: the dead server's lock (proper-lockfile: a folder whose
 * age says whether its holder lives) is aged past its 10 s staleness instead of waiting for it.
 */
export function releaseKilledLock(store: CrashStore): void {
  if (store.kind !== "embedded") return;
  const lock = path.join(store.dataDir, "server.lock");
  const past = new Date(Date.now() - 60_000);
  if (existsSync(lock)) utimesSync(lock, past, past);
}

/** A request of a signed-in client: method, path, JSON body and idempotency key when given. */
export type ApiCall = (method: string, url: string, body?: unknown, idempotencyKey?: string) => Promise<Response>;

/** A signed-in client of the API: session cookie, CSRF token and header, as a browser sends them. */
export async function signedInApi(baseURL: string, session: string): Promise<ApiCall> {
  const { csrftoken } = (await (await fetch(`${baseURL}/api/get_csrf_token/`, { headers: { cookie: `sessionid=${session}` } })).json()) as {
    csrftoken: string;
  };
  return (method, url, body, idempotencyKey) =>
    fetch(`${baseURL}${url}`, {
      method,
      headers: {
        cookie: `sessionid=${session}; csrftoken=${csrftoken}`,
        "x-csrftoken": csrftoken,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(idempotencyKey ? { "idempotency-key": idempotencyKey } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
}

/** The same client's POSTs. */
export async function signedInPost(
  baseURL: string,
  session: string,
): Promise<(url: string, body: unknown, idempotencyKey?: string) => Promise<Response>> {
  const call = await signedInApi(baseURL, session);
  return (url, body, idempotencyKey) => call("POST", url, body, idempotencyKey);
}

/** The store opened for the test's set-up, migrated and seeded first when it is a new embedded store (a server database comes migrated). */
export async function openForSetup(store: CrashStore): Promise<DatabaseHandle> {
  const handle = await store.open();
  if (store.kind === "embedded") {
    await handle.migrate();
    await seedCircleTree(handle.db);
  }
  return handle;
}

import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { ensureBuild } from "../../scripts/build-if-needed.ts";
import { embeddedDataPath, openEmbeddedDatabase } from "../../server/db/client.ts";
import { createSessionFor, createUser, factoryPassword } from "../support/factories.ts";

export const chromiumPath = "/usr/bin/chromium";

declare module "vitest" {
  export interface ProvidedContext {
    baseURL: string;
    /** A Playwright storage state signed in as a reader account made for this run (see `signedInVisitor`). */
    signedInState: string;
    /** The test server's DATA_DIR: its dev outbox (`outbox/`) holds the codes it "sent". */
    dataDir: string;
    /** Accounts made for this run, each with a session (JSON of `PoolAccount[]`): see `signInAsNewUser`. */
    accountPool: string;
    /** A folder where test files claim pool accounts (one empty file per account taken). */
    accountClaims: string;
  }
}

/** An account of the run's pool: signed up in advance, so a test that is not about signing up skips the puzzle. */
export interface PoolAccount {
  username: string;
  email: string;
  password: string;
  /** The session cookie's value. */
  token: string;
}

/** More than the browser tests of one run take (each claims one or two per test). */
const accountPoolSize = 160;

/** The account behind the signed-in browser fixture. Tests using it must not log it out. */
export const fixtureUsername = "e2e_reader";

/** Builds the site when needed, installs Debian's Chromium when missing, and serves the site on a free port. */
export default async function setup(project: TestProject) {
  await ensureBuild();
  ensureChromium();
  const dataDir = mkdtempSync(path.join(tmpdir(), "circles-e2e-"));
  const accountClaims = mkdtempSync(path.join(tmpdir(), "circles-e2e-claims-"));
  const { readerToken, pool } = await prepareAccounts(dataDir);
  const { server, baseURL } = await startServer(dataDir);
  project.provide("baseURL", baseURL);
  project.provide("signedInState", JSON.stringify(storageStateFor(baseURL, readerToken)));
  project.provide("dataDir", dataDir);
  project.provide("accountPool", JSON.stringify(pool));
  project.provide("accountClaims", accountClaims);
  return async () => {
    await stop(server);
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(accountClaims, { recursive: true, force: true });
  };
}

/**
 * The real server process (`server/main.ts`) on the embedded store in `dataDir`, on a free port,
 * configured as in production: the sign-in puzzle is on (the browser tests solve it).
 */
export async function startServer(dataDir: string): Promise<{ server: ChildProcess; baseURL: string }> {
  const port = await freePort();
  const server = spawn(process.execPath, ["server/main.ts"], {
    // Every browser test signs up from 127.0.0.1; the sign-up limit itself is tested through the API.
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      CAPTCHA: "on",
      DATABASE_URL: "",
      SIGNUPS_PER_HOUR: "1000",
      // Every page with the puzzle (sign-in, sign-up) draws one, all from 127.0.0.1; the limit itself is tested through the API.
      CAPTCHA_PER_MINUTE: "1000",
      // Production closes top-ups unless a provider is named: the browser tests pay at the sandbox's cashier.
      PAYMENT_PROVIDER: "sandbox",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const baseURL = `http://127.0.0.1:${port}`;
  await waitUntilServing(baseURL, server);
  return { server, baseURL };
}

/**
 * Made once per run, before the server opens the store, written straight into the embedded
 * database: a reader account and a session for it, and a pool of accounts with sessions, so
 * browser tests that need someone signed in do not each solve the sign-up puzzle.
 */
async function prepareAccounts(dataDir: string): Promise<{ readerToken: string; pool: PoolAccount[] }> {
  const handle = await openEmbeddedDatabase(embeddedDataPath(dataDir));
  try {
    await handle.migrate();
    const reader = await createUser(handle.db, { username: fixtureUsername, nickname: "E2E Reader" });
    const readerToken = await createSessionFor(handle.db, reader, true);
    const pool: PoolAccount[] = [];
    for (let index = 1; index <= accountPoolSize; index += 1) {
      // Named as people name themselves on sign-up: the nickname is the username.
      const username = `member${String(index).padStart(3, "0")}`;
      const email = `${username}@example.com`;
      const user = await createUser(handle.db, { username, email, nickname: username });
      pool.push({ username, email, password: factoryPassword, token: await createSessionFor(handle.db, user) });
    }
    return { readerToken, pool };
  } finally {
    await handle.close();
  }
}

function storageStateFor(baseURL: string, token: string) {
  const { hostname } = new URL(baseURL);
  return {
    cookies: [
      {
        name: "sessionid",
        value: token,
        domain: hostname,
        path: "/",
        expires: Math.floor(Date.now() / 1000) + 86_400,
        httpOnly: true,
        secure: false,
        sameSite: "Lax" as const,
      },
    ],
    origins: [],
  };
}

function ensureChromium() {
  if (existsSync(chromiumPath)) return;
  console.log("Installing Chromium (Debian package) for the browser tests…");
  const run = (args: string[]) =>
    spawnSync(args[0]!, args.slice(1), { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  const sudo = process.getuid?.() === 0 ? [] : ["sudo"];
  run([...sudo, "apt-get", "update"]);
  run([...sudo, "apt-get", "install", "-y", "--no-install-recommends", "chromium"]);
  if (!existsSync(chromiumPath)) throw new Error("Chromium could not be installed; install the Debian package `chromium`.");
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

export async function waitUntilServing(baseURL: string, server: ChildProcess) {
  // Generous: on a busy two-core machine loading the build and migrating take a while.
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The server exited with code ${server.exitCode}`);
    try {
      const response = await fetch(`${baseURL}/build-manifest.json`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error("The server did not start within 180 seconds");
}

export function stop(server: ChildProcess): Promise<void> {
  // Exited, or killed by a signal (then its exit code stays null).
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.kill("SIGKILL"), 15_000);
    server.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    server.kill("SIGTERM");
  });
}

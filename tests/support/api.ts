import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { buildApp } from "../../server/app.ts";
import { loadConfig } from "../../server/config.ts";
import { createTestDatabase, type DatabaseKind, type TestDatabase } from "./database.ts";
import type { Delivery } from "../../features/delivery/message.ts";
import { startJobQueue, stopJobQueue, type JobQueue } from "../../features/jobs/queue.ts";

export interface TestApi {
  app: FastifyInstance;
  database: TestDatabase;
  /** This app's DATA_DIR (a fresh temporary folder): the dev outbox is its `outbox/`. */
  dataDir: string;
  /** The job queue on this app's database when asked for (`jobs: true`): no workers, `runJobNow` runs a job in the call. */
  jobs?: JobQueue;
  close(): Promise<void>;
}

export interface TestApiOptions {
  /** The sign-in puzzle (off unless asked for). */
  captcha?: boolean;
  /** Also serve the pages from the client build in build/: only in `*.pages.test.ts` files (the pages project builds the site first). */
  pages?: boolean;
  /** Pages allowed larger form bodies (see server/plugins/pages.ts). */
  pageBodyLimits?: Record<string, number>;
  /** More environment for loadConfig (TRUST_PROXY, SMTP_URL, SMS_URL…). */
  env?: Record<string, string>;
  /** The clock verification codes are checked against. */
  clock?: () => Date;
  delivery?: Delivery;
  /** The clock of date-bound rules (daily check-in). */
  now?: () => Date;
  /** Start a job queue (features/jobs) on the app's database, for `api.jobs.runJobNow` and `enqueueJob`. */
  jobs?: boolean;
  /** How often view beacons are written (ms); 0 (the default here) writes each before it answers. */
  viewFlushMs?: number;
  /**
   * PostgreSQL only: the same database as a "read replica" reached on read-only connections
   * (`default_transaction_read_only`), so any write through the replica path fails loudly.
   */
  readOnlyReplica?: boolean;
}

/** The real Fastify app (API only unless `pages`) on a fresh database; the sign-in puzzle is off unless asked for. */
export async function createTestApi(kind: DatabaseKind, options: TestApiOptions = {}): Promise<TestApi> {
  if (options.pages && !existsSync(path.resolve("build", "server", "index.js")))
    throw new Error(
      "Page tests need the site built: name the file *.pages.test.ts (its vitest project builds first) or run `npm run build`.",
    );
  const database = await createTestDatabase(kind);
  const dataDir = mkdtempSync(path.join(tmpdir(), "circles-test-"));
  const config = loadConfig({
    DATA_DIR: dataDir,
    SESSION_SECRET: "test-secret",
    CAPTCHA: options.captcha ? "on" : "off",
    // Every test signs up from 127.0.0.1; the tests of the limit itself set their own.
    SIGNUPS_PER_HOUR: "1000",
    ...options.env,
  });
  if (options.readOnlyReplica) {
    if (!database.url) throw new Error("readOnlyReplica needs a PostgreSQL test database");
    const url = new URL(database.url);
    url.searchParams.set("options", "-c default_transaction_read_only=on");
    config.databaseReplicaUrl = url.toString();
  }
  const app = await buildApp({
    config,
    database,
    clock: options.clock,
    delivery: options.delivery,
    now: options.now,
    viewFlushMs: options.viewFlushMs ?? 0,
    pages: options.pages ? { buildDirectory: path.resolve("build"), cache: false, bodyLimits: options.pageBodyLimits } : undefined,
  });
  await app.ready();
  const jobs = options.jobs ? await startJobQueue({ database, files: app.files, log: app.log }) : undefined;
  return {
    app,
    database,
    dataDir,
    jobs,
    close: async () => {
      if (jobs) await stopJobQueue(jobs);
      await app.close();
      await database.dispose();
    },
  };
}

/** A browser's user agent: the view beacons file other agents (light-my-request's own) as bots. */
export const browserUserAgent = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";

/** A cookie jar for app.inject, like a browser: keeps what Set-Cookie says, sends it back. */
export class Visitor {
  readonly cookies = new Map<string, string>();
  private readonly app: FastifyInstance;
  private readonly headers: Record<string, string>;
  private readonly remoteAddress: string | undefined;
  /** `remoteAddress`: the client address the server sees (127.0.0.1 by default). */
  constructor(app: FastifyInstance, headers: Record<string, string> = {}, options: { remoteAddress?: string } = {}) {
    this.app = app;
    this.headers = headers;
    this.remoteAddress = options.remoteAddress;
  }

  async request(
    method: string,
    url: string,
    options: {
      json?: unknown;
      body?: string | Buffer;
      form?: Record<string, string>;
      headers?: Record<string, string>;
      csrf?: boolean;
    } = {},
  ): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = { "user-agent": browserUserAgent, ...this.headers, ...options.headers };
    if (options.csrf !== false && !["GET", "HEAD", "OPTIONS"].includes(method)) {
      if (!this.cookies.has("csrftoken")) await this.request("GET", "/api/get_csrf_token/");
      headers["x-csrftoken"] ??= this.cookies.get("csrftoken")!;
    }
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
    let payload: string | Buffer | undefined = options.body;
    if (options.json !== undefined) {
      payload = JSON.stringify(options.json);
      headers["content-type"] = "application/json";
    }
    if (options.form !== undefined) {
      payload = new URLSearchParams(options.form).toString();
      headers["content-type"] = "application/x-www-form-urlencoded";
    }
    const response = await this.app.inject({ method: method as "GET", url, headers, payload, remoteAddress: this.remoteAddress });
    for (const cookie of response.cookies as { name: string; value: string; maxAge?: number; expires?: Date }[]) {
      const expired = cookie.maxAge === 0 || (cookie.expires && cookie.expires.getTime() < Date.now());
      if (expired || cookie.value === "") this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  get(url: string, headers?: Record<string, string>) {
    return this.request("GET", url, { headers });
  }

  post(url: string, json?: unknown, headers?: Record<string, string>) {
    return this.request("POST", url, { json, headers });
  }

  /** A page form post, as a browser without JavaScript sends it (the CSRF token goes in the form, not a header). */
  postForm(url: string, form: Record<string, string>, headers?: Record<string, string>) {
    return this.request("POST", url, { form, headers, csrf: false });
  }

  /** The CSRF token a page form would carry: the csrftoken cookie, fetched first when missing. */
  async csrfToken(): Promise<string> {
    if (!this.cookies.has("csrftoken")) await this.get("/api/get_csrf_token/");
    return this.cookies.get("csrftoken")!;
  }

  /** A multipart/form-data POST carrying one file, as a browser's file input sends it. */
  upload(url: string, file: UploadFile, headers?: Record<string, string>) {
    const { body, contentType } = multipartBody(file);
    return this.request("POST", url, { body, headers: { ...headers, "content-type": contentType } });
  }
}

export interface UploadFile {
  bytes: Buffer;
  filename: string;
  /** What the client claims; the server must not believe it. */
  contentType?: string;
  field?: string;
  /** Text fields sent before the file, as a form's other inputs. */
  fields?: Record<string, string>;
}

export function multipartBody(file: UploadFile): { body: Buffer; contentType: string } {
  const boundary = `----circles${Math.random().toString(16).slice(2)}`;
  const texts = Object.entries(file.fields ?? {})
    .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
    .join("");
  const head = Buffer.from(
    `${texts}--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? "file"}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType ?? "application/octet-stream"}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, file.bytes, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

let counter = 0;
/** Valid registration data with a unique username and email. */
export function newUser(overrides: Record<string, unknown> = {}) {
  counter += 1;
  const suffix = `${process.pid % 1000}${counter}`;
  return {
    username: `user_${suffix}`,
    email: `user${suffix}@example.com`,
    password: "secret123",
    confirm_password: "secret123",
    gender: "secret",
    birthday: "1995-06-15",
    country: "CN",
    ...overrides,
  };
}

import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { isIP } from "node:net";
import path from "node:path";

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** A PostgreSQL server instead of the embedded store. */
  databaseUrl: string | undefined;
  /**
   * A PostgreSQL streaming replica for reads that tolerate a short lag (server/lib/read-routing.ts);
   * only beside DATABASE_URL.
   */
  databaseReplicaUrl: string | undefined;
  /** Redis for the route rate limits shared by every process (server/rate-limit-store.ts); without it they count in the database. */
  redisUrl: string | undefined;
  sessionSecret: string;
  /** `off` only for automated tests. */
  captcha: boolean;
  /** Accounts one address may create per hour (API and page form together). */
  signupsPerHour: number;
  /** Sign-in puzzles one address may draw a minute (CAPTCHA_PER_MINUTE, default 30). */
  captchaPerMinute: number;
  /** The weight of reports (a seasoned reporter 1, a new account 0.2: features/reports/weight.ts) that hides a subject until reviewed (REPORT_HIDE_THRESHOLD, default 5). */
  reportHideThreshold: number;
  /** Ledger corrections of more than this many coins wait for a second admin's approval (LEDGER_CORRECTION_APPROVAL_ABOVE, default 1000). */
  correctionApprovalAbove: number;
  /** Outgoing mail (nodemailer connection URL); without it mail goes to the dev outbox. */
  smtpUrl: string | undefined;
  /** The sender of every mail. */
  mailFrom: string;
  /** An SMS gateway's HTTP endpoint (features/delivery/sms.server.ts); without it texts go to the dev outbox. */
  smsUrl: string | undefined;
  /**
   * The page listing the dev outbox (`/dev/outbox`): on outside production; in production only
   * with `DEV_OUTBOX=on` and neither SMTP nor SMS configured (a local demo), never beside real delivery.
   */
  devOutboxPage: boolean;
  production: boolean;
  /**
   * Which proxies in front may tell the client's address (X-Forwarded-For), protocol and host:
   * none, a number of hops, or a list of proxy addresses and CIDR ranges (Fastify's `trustProxy`).
   */
  trustProxy: false | number | string[];
}

/** Reads the environment; creates DATA_DIR and a persistent session secret when absent. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = path.resolve(env.DATA_DIR || "./data");
  mkdirSync(dataDir, { recursive: true });
  const production = env.NODE_ENV === "production";
  const smtpUrl = env.SMTP_URL || undefined;
  const smsUrl = env.SMS_URL || undefined;
  return {
    port: Number(env.PORT || 3000),
    host: env.HOST || "127.0.0.1",
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    databaseReplicaUrl: env.DATABASE_REPLICA_URL || undefined,
    redisUrl: env.REDIS_URL || undefined,
    sessionSecret: env.SESSION_SECRET || readOrCreateSecret(dataDir),
    captcha: (env.CAPTCHA || "on") !== "off",
    signupsPerHour: positiveInteger("SIGNUPS_PER_HOUR", env.SIGNUPS_PER_HOUR, 5),
    captchaPerMinute: positiveInteger("CAPTCHA_PER_MINUTE", env.CAPTCHA_PER_MINUTE, 30),
    reportHideThreshold: positiveInteger("REPORT_HIDE_THRESHOLD", env.REPORT_HIDE_THRESHOLD, 5),
    correctionApprovalAbove: positiveInteger("LEDGER_CORRECTION_APPROVAL_ABOVE", env.LEDGER_CORRECTION_APPROVAL_ABOVE, 1000),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    smtpUrl,
    mailFrom: env.MAIL_FROM || "Circles <no-reply@circles.invalid>",
    smsUrl,
    devOutboxPage: !production || (env.DEV_OUTBOX === "on" && !smtpUrl && !smsUrl),
    production,
  };
}

function positiveInteger(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1) throw new Error(`${name} must be a whole number of at least 1, not "${value}"`);
  return Number(value);
}

/** Names proxy-addr (Fastify's `trustProxy`) knows for address ranges. */
const proxyRangeNames = new Set(["loopback", "linklocal", "uniquelocal"]);

/**
 * TRUST_PROXY: a hop count ("1": one proxy in front, so the client is the address that proxy saw,
 * the right-most X-Forwarded-For entry) or proxy addresses and CIDR ranges ("10.0.0.0/8, 127.0.0.1").
 * Trusting every hop ("true") would take the left-most entry, which the client writes itself.
 */
export function parseTrustProxy(value: string | undefined): false | number | string[] {
  const text = value?.trim() ?? "";
  if (text === "" || text === "0") return false;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const invalid = entries.filter((entry) => !isProxyAddress(entry));
  if (invalid.length > 0) {
    throw new Error(
      `TRUST_PROXY must be a number of proxies (e.g. 1) or a comma-separated list of proxy addresses or CIDR ranges; cannot use: ${invalid.join(", ")}`,
    );
  }
  return entries;
}

function isProxyAddress(entry: string): boolean {
  if (proxyRangeNames.has(entry)) return true;
  const [address = "", prefix, extra] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d+$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, "session-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret + "\n", { mode: 0o600 });
  return secret;
}

import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import path from "node:path";

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** A PostgreSQL server instead of the embedded store. */
  databaseUrl: string | undefined;
  sessionSecret: string;
  /** `off` only for automated tests. */
  captcha: boolean;
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
    sessionSecret: env.SESSION_SECRET || readOrCreateSecret(dataDir),
    captcha: (env.CAPTCHA || "on") !== "off",
    smtpUrl,
    mailFrom: env.MAIL_FROM || "Circles <no-reply@circles.invalid>",
    smsUrl,
    devOutboxPage: !production || (env.DEV_OUTBOX === "on" && !smtpUrl && !smsUrl),
    production,
  };
}

function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, "session-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret + "\n", { mode: 0o600 });
  return secret;
}

import { randomBytes } from "node:crypto";
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import type { OutgoingMessage } from "./message.ts";

/** A message as the dev outbox stores it: one JSON file per message. */
export interface OutboxEntry {
  to: string;
  channel: OutgoingMessage["channel"];
  subject: string;
  text: string;
  code: string | null;
  /** ISO 8601, UTC. */
  sent_at: string;
}

export const outboxFolder = (dataDir: string) => path.join(dataDir, "outbox");

/**
 * Writes the message to `DATA_DIR/outbox/`. File names sort by time (and are unique), so the
 * newest message is the last file; the file appears whole (written under a temporary name first).
 */
export async function writeToOutbox(folder: string, message: OutgoingMessage, now = new Date()): Promise<string> {
  await mkdir(folder, { recursive: true });
  const entry: OutboxEntry = {
    to: message.to,
    channel: message.channel,
    subject: message.subject,
    text: message.text,
    code: message.code,
    sent_at: now.toISOString(),
  };
  const name = `${now.toISOString().replace(/[:.]/g, "-")}-${message.channel}-${randomBytes(4).toString("hex")}.json`;
  const file = path.join(folder, name);
  await writeFile(`${file}.tmp`, JSON.stringify(entry, null, 2) + "\n", { mode: 0o600 });
  await rename(`${file}.tmp`, file);
  return file;
}

/** The newest messages first (at most `limit`); files that are not outbox entries are skipped. */
export async function readOutbox(folder: string, limit = 100): Promise<OutboxEntry[]> {
  let names: string[];
  try {
    names = (await readdir(folder)).filter((name) => name.endsWith(".json"));
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return [];
    throw error;
  }
  const newest = names.sort().reverse().slice(0, limit);
  const entries: OutboxEntry[] = [];
  for (const name of newest) {
    try {
      const entry = JSON.parse(await readFile(path.join(folder, name), "utf8")) as Partial<OutboxEntry>;
      if (typeof entry.to === "string" && typeof entry.text === "string" && (entry.channel === "email" || entry.channel === "sms")) {
        entries.push({
          to: entry.to,
          channel: entry.channel,
          subject: String(entry.subject ?? ""),
          text: entry.text,
          code: typeof entry.code === "string" ? entry.code : null,
          sent_at: String(entry.sent_at ?? ""),
        });
      }
    } catch {
      // A half-written or foreign file is not a message.
    }
  }
  return entries;
}

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export interface OutboxMessage {
  to: string;
  channel: "email" | "sms";
  subject: string;
  text: string;
  code: string | null;
  sent_at: string;
}

/** Every message in DATA_DIR/outbox, oldest first (file names sort by time). */
export function outboxMessages(dataDir: string): OutboxMessage[] {
  const folder = path.join(dataDir, "outbox");
  let names: string[];
  try {
    names = readdirSync(folder).filter((name) => name.endsWith(".json"));
  } catch {
    return [];
  }
  return names.sort().map((name) => JSON.parse(readFileSync(path.join(folder, name), "utf8")) as OutboxMessage);
}

/** The newest message to an address, if any. */
export function lastMessageTo(dataDir: string, to: string): OutboxMessage | undefined {
  return outboxMessages(dataDir)
    .filter((message) => message.to.toLowerCase() === to.toLowerCase())
    .at(-1);
}

/** The code of the newest message to an address; fails the test when there is none. */
export function lastCodeTo(dataDir: string, to: string): string {
  const code = lastMessageTo(dataDir, to)?.code;
  if (!code) throw new Error(`no code was sent to ${to}`);
  return code;
}

import http from "node:http";
import type { Visitor } from "./api.ts";

export interface Received {
  id?: string;
  data: Record<string, unknown>;
}

/** Opens the stream over real HTTP (inject cannot stream) and collects its messages. */
export function openStream(base: string, visitor: Visitor, userId: number, lastEventId?: string, query = "") {
  const messages: Received[] = [];
  let status = 0;
  let ended = false;
  let request: http.ClientRequest;
  const opened = new Promise<void>((resolve, reject) => {
    const headers: Record<string, string> = { cookie: [...visitor.cookies].map(([name, value]) => `${name}=${value}`).join("; ") };
    if (lastEventId) headers["last-event-id"] = lastEventId;
    request = http.get(`${base}/apiv2/sse?user_id=${userId}${query}`, { headers }, (response) => {
      status = response.statusCode ?? 0;
      response.on("close", () => (ended = true));
      let buffer = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const id = /^id: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (data) messages.push({ id, data: JSON.parse(data) as Record<string, unknown> });
        }
      });
      resolve();
    });
    request.on("error", reject);
  });
  return {
    opened,
    messages,
    status: () => status,
    /** Whether the server ended the stream. */
    ended: () => ended,
    close: () => request.destroy(),
    /** Waits until a message matches. */
    async waitFor(match: (message: Received) => boolean): Promise<Received> {
      for (let tries = 0; tries < 100; tries++) {
        const found = messages.find(match);
        if (found) return found;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no such message among ${JSON.stringify(messages)}`);
    },
  };
}

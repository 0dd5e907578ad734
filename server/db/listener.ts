import pg from "pg";

export interface ListenOptions {
  /** After a dropped connection came back and LISTENs again: whatever was sent meanwhile is lost, so catch up. */
  onReconnect?: () => void;
  /** The first wait before reconnecting, doubled after each failed try up to `maxDelayMs`. */
  initialDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * LISTEN on a dedicated connection that survives: when the connection errors or ends (a restarted
 * server, a terminated backend, a network cut) it reconnects with exponential backoff, LISTENs
 * again and tells `onReconnect`, since notifications sent while it was away never arrive.
 * Resolves once the first LISTEN holds; the returned function stops it for good.
 */
export async function listenResiliently(
  url: string,
  channel: string,
  onMessage: (payload: string) => void,
  options: ListenOptions = {},
): Promise<() => Promise<void>> {
  const initialDelayMs = options.initialDelayMs ?? 100;
  const maxDelayMs = options.maxDelayMs ?? 5_000;
  let stopped = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  let delay = initialDelayMs;

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: url });
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      next.end().catch(() => {});
      if (client === next) client = undefined;
      scheduleReconnect();
    };
    next.on("error", onLost);
    next.on("end", onLost);
    next.on("notification", (message) => {
      if (message.channel === channel) onMessage(message.payload ?? "");
    });
    try {
      await next.connect();
      await next.query(`listen ${pg.escapeIdentifier(channel)}`);
    } catch (error) {
      next.removeListener("end", onLost);
      next.removeListener("error", onLost);
      next.on("error", () => {});
      await next.end().catch(() => {});
      throw error;
    }
    if (stopped) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
  }

  function scheduleReconnect(): void {
    if (stopped || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      connect().then(
        () => {
          delay = initialDelayMs;
          if (!stopped) options.onReconnect?.();
        },
        () => {
          delay = Math.min(delay * 2, maxDelayMs);
          scheduleReconnect();
        },
      );
    }, delay);
    retry.unref();
  }

  await connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    const current = client;
    client = undefined;
    current?.removeAllListeners("end");
    current?.removeAllListeners("error");
    current?.on("error", () => {});
    await current?.end().catch(() => {});
  };
}

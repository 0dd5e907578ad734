/** Sends one text message; resolves when the gateway accepted it. */
export interface SmsProvider {
  send(message: { to: string; text: string }): Promise<void>;
}

/** How long a gateway may take to accept a message. */
export const smsTimeoutMs = 10_000;

/**
 * An SMS gateway reached over HTTP (`SMS_URL`). The contract:
 * - `POST <SMS_URL>` with `Content-Type: application/json` and the body `{ "to": "+8613800138000", "text": "…" }`
 *   (`to` in E.164);
 * - user and password written in the URL (`https://user:secret@sms.example.com/send`) are sent as
 *   HTTP Basic authorization, never as part of the address;
 * - any 2xx answer means the gateway accepted the message; another status, a network error or no
 *   answer within 10 seconds is a failure ("SMS send failed").
 * Adapting a vendor whose API differs takes a small relay, or another SmsProvider.
 */
export function httpSmsGateway(smsUrl: string, fetchImplementation: typeof fetch = fetch): SmsProvider {
  const url = new URL(smsUrl);
  const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
  if (url.username || url.password) {
    const credentials = `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
    headers.authorization = `Basic ${Buffer.from(credentials).toString("base64")}`;
    url.username = "";
    url.password = "";
  }
  const target = url.toString();
  return {
    async send({ to, text }) {
      const response = await fetchImplementation(target, {
        method: "POST",
        headers,
        body: JSON.stringify({ to, text }),
        signal: AbortSignal.timeout(smsTimeoutMs),
      });
      // Drain the body so the connection can be reused.
      await response.arrayBuffer().catch(() => undefined);
      if (!response.ok) throw new Error(`the SMS gateway answered ${response.status}`);
    },
  };
}

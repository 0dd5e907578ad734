import autocannon from "autocannon";
import { signSandboxNotify } from "../features/payments/sandbox.ts";

/**
 * The tip burst: one reader tipping one book as fast as 50 connections can (each request its own
 * idempotency key), after a top-up through the sandbox's signed notify. Every tip is one ledger
 * transaction whose users-row updates serialise on the two accounts: this is the worst case of
 * the no-overdraft constraint. Prints tips per second and p99.
 */
export async function tipBurst(site: string, session: string, sandboxSecret: string, seconds: number): Promise<void> {
  const home = await (await fetch(`${site}/?tab=all`)).text();
  const book = /\/circles\/\d+\/books\/(\d+)(?=")/.exec(home)?.[1];
  if (!book) {
    console.log("tip burst: no book on the home page to tip, skipped");
    return;
  }
  const { csrftoken } = (await (await fetch(`${site}/api/get_csrf_token/`, { headers: { cookie: session } })).json()) as {
    csrftoken: string;
  };
  const headers = { "content-type": "application/json", "x-csrftoken": csrftoken, cookie: `${session}; csrftoken=${csrftoken}` };
  const created = await fetch(`${site}/api/wallet/topups/`, {
    method: "POST",
    headers: { ...headers, "idempotency-key": `bench-topup-${Date.now()}` },
    body: JSON.stringify({ amount: 50_000, method: "alipay" }),
  });
  const { order_id: orderId } = (await created.json()) as { order_id: string };
  const signed = signSandboxNotify(sandboxSecret, { order_id: orderId, status: "paid", amount: 50_000, paid_fen: 0, trade_no: "bench" });
  const paid = await fetch(`${site}/api/payments/sandbox/notify/`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-sandbox-signature": signed.header },
    body: signed.rawBody,
  });
  if (!paid.ok) throw new Error(`tip burst: the sandbox top-up failed (${paid.status})`);
  let sequence = 0;
  const result = await autocannon({
    url: site,
    connections: 50,
    duration: seconds,
    requests: [
      {
        method: "POST",
        path: `/api/subjects/book/${book}/tips/`,
        headers,
        body: JSON.stringify({ amount: 1 }),
        setupRequest: (request) => ({
          ...request,
          headers: { ...request.headers, "idempotency-key": `bench-tip-${Date.now()}-${(sequence += 1)}` },
        }),
      },
    ],
  });
  console.log(
    `tip burst (one reader → one book, 50 connections): ${result.requests.average.toFixed(0)} tips/s, p99 ${result.latency.p99} ms, ${result.errors + result.non2xx} errors`,
  );
}

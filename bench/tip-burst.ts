import { randomBytes } from "node:crypto";
import autocannon from "autocannon";
import { signSandboxNotify } from "../features/payments/sandbox.ts";
import { embeddedDataPath, openEmbeddedDatabase } from "../server/db/client.ts";
import { books, sessions, unreadCounters, users } from "../server/db/schema/index.ts";
import { hashToken, sessionDurations } from "../features/accounts/service.ts";
import { inTransaction } from "../server/lib/transactions.ts";
import { postLedgerTransaction } from "../features/ledger/service.ts";

/** One tipper and the book of one author: a pair of the many-pairs burst. */
export interface TipPair {
  /** The tipper's session cookie (`sessionid=…`). */
  session: string;
  bookId: number;
}

/**
 * The many-pairs burst's people, written into the embedded store before the server opens it:
 * `count` readers, each with a session and 100,000 sinecoin (one balanced ledger transaction from
 * a bench issuer), and `count` authors with a book each; reader i tips author i's book.
 */
export async function prepareTipPairs(dataDir: string, count = 50): Promise<TipPair[]> {
  const database = await openEmbeddedDatabase(embeddedDataPath(dataDir));
  const pairs: TipPair[] = [];
  try {
    await database.migrate();
    const { db } = database;
    const person = async (name: string) => {
      const [user] = await db
        .insert(users)
        .values({
          username: name,
          email: `${name}@example.com`,
          nickname: name,
          passwordHash: "!",
          gender: "secret",
          birthday: "1995-06-15",
          country: "CN",
          // Established members (trust level 2, features/trust/limits.ts): a burst stays within their daily allowance.
          createdAt: new Date(Date.now() - 60 * 86_400_000),
          intelligenceScore: 100,
        })
        .returning({ id: users.id });
      await db.insert(unreadCounters).values({ userId: user!.id });
      return user!.id;
    };
    for (let index = 1; index <= count; index += 1) {
      const tipper = await person(`bench_tipper_${index}`);
      const author = await person(`bench_author_${index}`);
      const [book] = await db
        .insert(books)
        .values({ circleId: 1, authorId: author, name: `赞赏测试书 ${index}` })
        .returning({ id: books.id });
      const token = randomBytes(32).toString("base64url");
      await db.insert(sessions).values({
        tokenHash: hashToken(token),
        userId: tipper,
        persistent: true,
        expiresAt: new Date(Date.now() + sessionDurations.persistentSeconds * 1000),
      });
      await inTransaction({ db }, (tx) =>
        postLedgerTransaction(tx, {
          idempotencyKey: `bench-grant:${tipper}`,
          kind: "grant",
          data: { reason: "benchmark" },
          entries: [
            { account: { userId: tipper, currency: "sinecoin" }, amount: 100_000 },
            { account: { system: "bench_issuer", currency: "sinecoin" }, amount: -100_000 },
          ],
        }),
      );
      pairs.push({ session: `sessionid=${token}`, bookId: book!.id });
    }
    return pairs;
  } finally {
    await database.close();
  }
}

/**
 * The tip burst across many account pairs: 50 connections, request i from reader i mod n to
 * author i mod n's book, each with its own idempotency key; with as many pairs as connections,
 * concurrent tips rarely touch the same users rows. Prints tips per second and p99 beside the
 * one-pair case, whose every tip waits on the same two rows.
 */
export async function tipBurstManyPairs(site: string, pairs: TipPair[], seconds: number): Promise<void> {
  const clients = await Promise.all(
    pairs.map(async (pair) => {
      const { csrftoken } = (await (await fetch(`${site}/api/get_csrf_token/`, { headers: { cookie: pair.session } })).json()) as {
        csrftoken: string;
      };
      return {
        path: `/api/subjects/book/${pair.bookId}/tips/`,
        headers: { "content-type": "application/json", "x-csrftoken": csrftoken, cookie: `${pair.session}; csrftoken=${csrftoken}` },
      };
    }),
  );
  let sequence = 0;
  const result = await autocannon({
    url: site,
    connections: 50,
    duration: seconds,
    requests: [
      {
        method: "POST",
        body: JSON.stringify({ amount: 1 }),
        setupRequest: (request) => {
          sequence += 1;
          const client = clients[sequence % clients.length]!;
          return {
            ...request,
            path: client.path,
            headers: { ...request.headers, ...client.headers, "idempotency-key": `bench-pairs-${Date.now()}-${sequence}` },
          };
        },
      },
    ],
  });
  console.log(
    `tip burst (${pairs.length} readers → ${pairs.length} authors, 50 connections): ${result.requests.average.toFixed(0)} tips/s, p99 ${result.latency.p99} ms, ${result.errors + result.non2xx} errors`,
  );
}

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

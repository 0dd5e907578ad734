import type { ChildProcess } from "node:child_process";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { stop } from "./global-setup.ts";
import {
  crashStoreKinds,
  prepareCrashStore,
  releaseKilledLock,
  signedInPost,
  startCrashServer,
  type CrashStore,
  openForSetup,
} from "../support/crash.ts";
import { createSessionFor, createUser, createWriting } from "../support/factories.ts";
import { ledgerEntries, ledgerTransactions, tips, users } from "../../server/db/schema/index.ts";
import { checkLedger, ledgerIsConsistent } from "../../features/ledger/check.ts";
import { signSandboxNotify } from "../../features/payments/sandbox.ts";
import { run as runAdmin } from "../../scripts/admin.ts";

/**
 * kill -9 of the server in the middle of a burst of tips, then a restart on the same database:
 * nothing acknowledged is lost, nothing is posted twice, and retrying every request with its own
 * idempotency key moves nothing again. On the embedded store on disk, and on PostgreSQL when
 * `TEST_DATABASE_URL` is set.
 */
const sandboxSecret = "ledger-crash-sandbox-secret";
const sessionSecret = "ledger-crash-session-secret";
/** Tips in the burst, how many are in flight at once, and after how many acknowledgements the server dies. */
const burstSize = 120;
const inFlight = 16;
const killAfterAcknowledged = 30;
const funded = 1_000;

const startServer = (store: CrashStore) =>
  startCrashServer(store, {
    SESSION_SECRET: sessionSecret,
    PAYMENT_PROVIDER: "sandbox",
    FREE_TOPUP_DAILY_LIMIT: String(funded),
    PAYMENT_SANDBOX_SECRET: sandboxSecret,
  });

interface TipRequest {
  key: string;
  amount: number;
  /** The tip id of a 2xx answer received before the kill. */
  acknowledged?: number;
}

describe.each(crashStoreKinds)("kill -9 during a tip burst, on the %s store", (kind) => {
  let store: CrashStore | undefined;
  const servers: ChildProcess[] = [];
  afterAll(async () => {
    for (const server of servers) await stop(server);
    await store?.dispose();
  });

  it("keeps every acknowledged tip exactly once, and retries move nothing twice", { timeout: 400_000 }, async () => {
    store = await prepareCrashStore(kind);
    // The people and the writing, written before the server starts.
    const setup = await openForSetup(store);
    // A month-old account (trust level 1): its daily tip allowance covers the whole burst (features/trust/limits.ts).
    const tipper = await createUser(setup.db, { createdAt: new Date(Date.now() - 30 * 86_400_000) });
    const author = await createUser(setup.db);
    const writing = await createWriting(setup.db, author, { tipEnabled: true });
    const session = await createSessionFor(setup.db, tipper);
    await setup.close();
    const first = await startServer(store);
    servers.push(first.server);
    // The tipper tops up through the sandbox's signed notify, as a paying user would.
    const post = await signedInPost(first.baseURL, session);
    const created = await post("/api/wallet/topups/", { amount: funded, method: "alipay" }, "crash-topup-0001");
    expect(created.status).toBe(201);
    const { order_id: orderId } = (await created.json()) as { order_id: string };
    const notify = signSandboxNotify(sandboxSecret, { order_id: orderId, status: "paid", amount: funded, paid_fen: 0, trade_no: "crash" });
    const paid = await fetch(`${first.baseURL}/api/payments/sandbox/notify/`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-sandbox-signature": notify.header },
      body: notify.rawBody,
    });
    expect(paid.status).toBe(200);

    // The burst: `inFlight` tips at a time; SIGKILL once `killAfterAcknowledged` have been answered.
    const requests: TipRequest[] = Array.from({ length: burstSize }, (_, index) => ({
      key: `crash-tip-${kind}-${String(index).padStart(4, "0")}`,
      amount: 1 + (index % 3),
    }));
    const exited = new Promise<void>((resolve) => first.server.once("exit", () => resolve()));
    let acknowledged = 0;
    let next = 0;
    const tipUrl = `/api/subjects/writing/${writing.id}/tips/`;
    const worker = async () => {
      while (next < requests.length) {
        const request = requests[(next += 1) - 1]!;
        try {
          const answer = await post(tipUrl, { amount: request.amount }, request.key);
          if (answer.ok) {
            request.acknowledged = ((await answer.json()) as { tip_id: number }).tip_id;
            acknowledged += 1;
            if (acknowledged === killAfterAcknowledged) first.server.kill("SIGKILL");
          }
        } catch {
          // The connection died with the server: not acknowledged.
        }
      }
    };
    await Promise.all(Array.from({ length: inFlight }, worker));
    await exited;
    expect(first.server.signalCode).toBe("SIGKILL");
    const acknowledgedTips = requests.filter((request) => request.acknowledged !== undefined);
    expect(acknowledgedTips.length).toBeGreaterThanOrEqual(killAfterAcknowledged);
    expect(acknowledgedTips.length).toBeLessThan(burstSize);

    releaseKilledLock(store);
    const second = await startServer(store);
    servers.push(second.server);
    const retry = await signedInPost(second.baseURL, session);
    // Every request again, with its own key: acknowledged ones answer their first tip, the others are done now, once.
    const retried = await Promise.all(
      requests.map(async (request) => {
        const answer = await retry(tipUrl, { amount: request.amount }, request.key);
        expect(answer.status).toBe(201);
        return { ...request, tipId: ((await answer.json()) as { tip_id: number }).tip_id };
      }),
    );
    for (const request of retried) if (request.acknowledged !== undefined) expect(request.tipId).toBe(request.acknowledged);
    // And once more: still the same tips.
    for (const request of retried.slice(0, 10)) {
      const again = await retry(tipUrl, { amount: request.amount }, request.key);
      expect(((await again.json()) as { tip_id: number }).tip_id).toBe(request.tipId);
    }
    await stop(second.server);

    // `npm run admin -- ledger-check` on the store as the restarted server left it.
    expect(await runAdmin(["ledger-check"], { ...process.env, DATA_DIR: store.dataDir, SESSION_SECRET: sessionSecret, ...store.env })).toBe(
      0,
    );
    const database = await store.open();
    try {
      const report = await checkLedger(database.db);
      expect(report).toMatchObject({ unbalancedTransactions: [], incompleteTransactions: [], mismatchedUsers: [] });
      expect(ledgerIsConsistent(report)).toBe(true);
      // One tip row and one ledger transaction per request: none lost, none twice.
      const tipIds = retried.map((request) => request.tipId);
      expect(new Set(tipIds).size).toBe(burstSize);
      const rows = await database.db.select({ id: tips.id, amount: tips.amount }).from(tips).where(eq(tips.tipperId, tipper.id));
      expect(rows.map((row) => row.id).sort((a, b) => a - b)).toEqual([...tipIds].sort((a, b) => a - b));
      const posted = await database.db
        .select({ key: ledgerTransactions.idempotencyKey, count: sql<number>`count(*)::int` })
        .from(ledgerTransactions)
        .where(
          inArray(
            ledgerTransactions.idempotencyKey,
            tipIds.map((id) => `tip:${id}`),
          ),
        )
        .groupBy(ledgerTransactions.idempotencyKey);
      expect(posted).toHaveLength(burstSize);
      expect(posted.every((row) => row.count === 1)).toBe(true);
      // Balances are the sums of their entries, and the sums are what was tipped.
      const total = requests.reduce((sum, request) => sum + request.amount, 0);
      const balances = await database.db
        .select({ id: users.id, sinecoin: users.sinecoin, profit: users.sinecoinTotalProfit })
        .from(users)
        .where(inArray(users.id, [tipper.id, author.id]));
      expect(balances.find((row) => row.id === tipper.id)).toMatchObject({ sinecoin: funded - total });
      expect(balances.find((row) => row.id === author.id)).toMatchObject({ sinecoin: total, profit: total });
      const entrySums = (await database.db.execute(sql`
        select a.user_id, sum(e.amount)::int as total from ${ledgerEntries} e join ledger_accounts a on a.id = e.account_id
        where a.user_id in (${tipper.id}, ${author.id}) and a.currency = 'sinecoin' group by a.user_id`)) as unknown as {
        rows: { user_id: number; total: number }[];
      };
      expect(Object.fromEntries(entrySums.rows.map((row) => [Number(row.user_id), Number(row.total)]))).toEqual({
        [tipper.id]: funded - total,
        [author.id]: total,
      });
    } finally {
      await database.close();
    }
  });
});

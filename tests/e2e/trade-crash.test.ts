import type { ChildProcess } from "node:child_process";
import { eq, inArray, sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { stop } from "./global-setup.ts";
import {
  crashStoreKinds,
  prepareCrashStore,
  releaseKilledLock,
  signedInApi,
  startCrashServer,
  type ApiCall,
  type CrashStore,
  openForSetup,
} from "../support/crash.ts";
import { createSessionFor, createUser } from "../support/factories.ts";
import { grant } from "../support/money.ts";
import { ledgerTransactions, tradeMissions, tradeProgress } from "../../server/db/schema/index.ts";
import { checkLedger, ledgerIsConsistent } from "../../features/ledger/check.ts";
import { run as runAdmin } from "../../scripts/admin.ts";

/**
 * kill -9 of the server in the middle of the task market's money moves: approvals paying workers
 * from a task's escrow (each asked twice at once), workers racing for the slots of a second task,
 * and the cancellation of a third; then a restart on the same database and every request again.
 * Nothing is paid twice, no slot is given twice, no escrow is lost or refunded twice, and the
 * ledger checks out. On the embedded store on disk, and on PostgreSQL when `TEST_DATABASE_URL` is set.
 */
const sessionSecret = "trade-crash-session-secret";
const funded = 1_000;
/** Task A: every slot taken and submitted before the burst; the burst approves them. */
const approveTask = { reward: 5, slots: 12 };
/** Task B: its slots are raced for during the burst by more workers than it has. */
const raceTask = { reward: 3, slots: 4, racers: 9 };
/** Task C: nobody takes it; the burst cancels it. */
const cancelTask = { reward: 4, slots: 5 };
const inFlight = 8;
const killAfterAcknowledged = 10;

const startServer = (store: CrashStore) => startCrashServer(store, { SESSION_SECRET: sessionSecret });

type Call = ApiCall;

/** One request of the burst: who sends it, and what a 2xx answer said before the kill. */
interface BurstRequest {
  label: string;
  send: (calls: Map<number, Call>) => Promise<Response>;
  /** The statuses a retry after the restart may answer (the first try may have done it already). */
  retryStatuses: number[];
  acknowledged?: unknown;
}

describe.each(crashStoreKinds)("kill -9 during task approvals, slot races and a cancellation, on the %s store", (kind) => {
  let store: CrashStore | undefined;
  const servers: ChildProcess[] = [];
  afterAll(async () => {
    for (const server of servers) await stop(server);
    await store?.dispose();
  });

  it("pays every approval once, gives no slot twice, refunds once, and keeps the ledger balanced", { timeout: 400_000 }, async () => {
    store = await prepareCrashStore(kind);
    const setup = await openForSetup(store);
    const poster = await createUser(setup.db);
    await grant(setup.db, poster.id, "sinecoin", funded);
    const workers = await Promise.all(Array.from({ length: approveTask.slots + raceTask.racers }, () => createUser(setup.db)));
    const sessions = new Map<number, string>([[poster.id, await createSessionFor(setup.db, poster)]]);
    for (const worker of workers) sessions.set(worker.id, await createSessionFor(setup.db, worker));
    await setup.close();

    const connect = async (baseURL: string) => {
      const calls = new Map<number, Call>();
      for (const [userId, session] of sessions) calls.set(userId, await signedInApi(baseURL, session));
      return calls;
    };
    const first = await startServer(store);
    servers.push(first.server);
    const calls = await connect(first.baseURL);
    const asPoster = calls.get(poster.id)!;
    const deadline = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const post = async (task: { reward: number; slots: number }, key: string) => {
      const answer = await asPoster(
        "POST",
        "/api/trade/missions/",
        { circle_id: 1, title: `Crash task ${key}`, description: "Work to be paid for.", reward: task.reward, slots: task.slots, deadline },
        `trade-crash-${kind}-${key}`,
      );
      expect(answer.status).toBe(201);
      return ((await answer.json()) as { id: number }).id;
    };
    const taskA = await post(approveTask, "a");
    const taskB = await post(raceTask, "b");
    const taskC = await post(cancelTask, "c");
    const escrowed = approveTask.reward * approveTask.slots + raceTask.reward * raceTask.slots + cancelTask.reward * cancelTask.slots;

    // Task A's slots are all taken and submitted before the burst.
    const approvers = workers.slice(0, approveTask.slots);
    const racers = workers.slice(approveTask.slots);
    const progressIds: number[] = [];
    for (const worker of approvers) {
      const accepted = await calls.get(worker.id)!("POST", `/api/trade/missions/${taskA}/accept/`, {});
      expect(accepted.status).toBe(201);
      const { progress_id: progressId } = (await accepted.json()) as { progress_id: number };
      expect(
        (await calls.get(worker.id)!("POST", `/api/trade/progress/${progressId}/submit/`, { content: "Done, see inside." })).status,
      ).toBe(200);
      progressIds.push(progressId);
    }

    // The burst: each approval twice (at once), the race for task B's slots, and task C's cancellation.
    const approvals: BurstRequest[] = progressIds.flatMap((progressId) =>
      [1, 2].map((copy) => ({
        label: `approve ${progressId} #${copy}`,
        send: (using: Map<number, Call>) => using.get(poster.id)!("POST", `/api/trade/progress/${progressId}/approve/`, {}),
        retryStatuses: [200],
      })),
    );
    const accepts: BurstRequest[] = racers.map((racer) => ({
      label: `accept by ${racer.id}`,
      send: (using: Map<number, Call>) => using.get(racer.id)!("POST", `/api/trade/missions/${taskB}/accept/`, {}),
      retryStatuses: [201, 409],
    }));
    const cancellation: BurstRequest = {
      label: "cancel C",
      send: (using: Map<number, Call>) => using.get(poster.id)!("DELETE", `/api/trade/missions/${taskC}/`),
      retryStatuses: [204],
    };
    // Interleaved, so approvals, accepts and the cancellation are in flight together around the kill.
    const requests: BurstRequest[] = [];
    for (let index = 0; index < approvals.length; index += 1) {
      requests.push(approvals[index]!);
      if (index % 3 === 2 && accepts.length > 0) requests.push(accepts.shift()!);
      if (index === killAfterAcknowledged) requests.push(cancellation);
    }
    requests.push(...accepts);
    const exited = new Promise<void>((resolve) => first.server.once("exit", () => resolve()));
    let acknowledged = 0;
    let next = 0;
    const sender = async () => {
      while (next < requests.length) {
        const request = requests[(next += 1) - 1]!;
        try {
          const answer = await request.send(calls);
          if (answer.ok) {
            request.acknowledged = answer.status === 204 ? true : await answer.json();
            acknowledged += 1;
            if (acknowledged === killAfterAcknowledged) first.server.kill("SIGKILL");
          }
        } catch {
          // The connection died with the server: not acknowledged.
        }
      }
    };
    await Promise.all(Array.from({ length: inFlight }, sender));
    await exited;
    expect(first.server.signalCode).toBe("SIGKILL");
    const acknowledgedBefore = requests.filter((request) => request.acknowledged !== undefined);
    expect(acknowledgedBefore.length).toBeGreaterThanOrEqual(killAfterAcknowledged);
    expect(acknowledgedBefore.length).toBeLessThan(requests.length);

    releaseKilledLock(store);
    const second = await startServer(store);
    servers.push(second.server);
    const again = await connect(second.baseURL);
    // Every request again: what was done answers as done, what was not is done now, once.
    const acceptedAfter = new Map<string, number>();
    for (const request of requests) {
      const answer = await request.send(again);
      expect(request.retryStatuses, `${request.label}: ${answer.status}`).toContain(answer.status);
      if (answer.status === 201) acceptedAfter.set(request.label, ((await answer.json()) as { progress_id: number }).progress_id);
      else if (answer.status === 409) expect(["already_accepted", "no_slots"]).toContain(((await answer.json()) as { code: string }).code);
      else await answer.arrayBuffer();
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
      const holdBalance = async (taskId: number) => {
        const result = (await database.db.execute(sql`
          select coalesce(sum(e.amount), 0)::int as total from ledger_entries e join ledger_accounts a on a.id = e.account_id
          where a.key = ${`system:trade_mission:${taskId}:sinecoin`}`)) as unknown as { rows: { total: number }[] };
        return Number(result.rows[0]?.total ?? 0);
      };
      const postings = async (keys: string[]) =>
        database.db
          .select({ key: ledgerTransactions.idempotencyKey, count: sql<number>`count(*)::int` })
          .from(ledgerTransactions)
          .where(inArray(ledgerTransactions.idempotencyKey, keys))
          .groupBy(ledgerTransactions.idempotencyKey);

      // Task A: every submission approved, each reward posted once, the hold emptied exactly.
      const progressA = await database.db.select().from(tradeProgress).where(eq(tradeProgress.missionId, taskA));
      expect(progressA.map((row) => row.status)).toEqual(Array(approveTask.slots).fill("approved"));
      const rewards = await postings(progressIds.map((id) => `trade_reward:${id}`));
      expect(rewards).toHaveLength(approveTask.slots);
      expect(rewards.every((row) => Number(row.count) === 1)).toBe(true);
      expect(await holdBalance(taskA)).toBe(0);
      const workerSums = (await database.db.execute(sql`
        select a.user_id, sum(e.amount)::int as total from ledger_entries e join ledger_accounts a on a.id = e.account_id
        where a.user_id in (${sql.join(
          approvers.map((worker) => sql`${worker.id}`),
          sql`, `,
        )}) and a.currency = 'sinecoin' group by a.user_id`)) as unknown as { rows: { user_id: number; total: number }[] };
      expect(workerSums.rows.map((row) => Number(row.total))).toEqual(Array(approveTask.slots).fill(approveTask.reward));

      // Task B: exactly its slots given, one record per worker; every slot acknowledged before the kill is among them.
      const [rowB] = await database.db.select().from(tradeMissions).where(eq(tradeMissions.id, taskB));
      const progressB = await database.db.select().from(tradeProgress).where(eq(tradeProgress.missionId, taskB));
      expect(progressB).toHaveLength(raceTask.slots);
      expect(new Set(progressB.map((row) => row.workerId)).size).toBe(raceTask.slots);
      expect(rowB!.openSlots).toBe(0);
      const givenIds = new Set(progressB.map((row) => row.id));
      for (const request of requests.filter((item) => item.label.startsWith("accept") && item.acknowledged !== undefined))
        expect(givenIds.has((request.acknowledged as { progress_id: number }).progress_id)).toBe(true);
      for (const id of acceptedAfter.values()) expect(givenIds.has(id)).toBe(true);
      expect(await holdBalance(taskB)).toBe(raceTask.reward * raceTask.slots);

      // Task C: cancelled, refunded once, its hold empty.
      const [rowC] = await database.db.select().from(tradeMissions).where(eq(tradeMissions.id, taskC));
      expect(rowC).toMatchObject({ status: "cancelled", openSlots: 0 });
      expect(await postings([`trade_refund:${taskC}`])).toEqual([{ key: `trade_refund:${taskC}`, count: 1 }]);
      expect(await holdBalance(taskC)).toBe(0);

      // The poster: funded, minus what was escrowed, plus task C's refund; the cached balance agrees (mismatchedUsers above).
      const posterSum = (await database.db.execute(sql`
        select coalesce(sum(e.amount), 0)::int as total from ledger_entries e join ledger_accounts a on a.id = e.account_id
        where a.user_id = ${poster.id} and a.currency = 'sinecoin'`)) as unknown as { rows: { total: number }[] };
      expect(Number(posterSum.rows[0]!.total)).toBe(funded - escrowed + cancelTask.reward * cancelTask.slots);
    } finally {
      await database.close();
    }
  });
});

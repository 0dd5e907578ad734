import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { and, eq, like, sql } from "drizzle-orm";
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
import { createSessionFor, createUser } from "../support/factories.ts";
import { grant } from "../support/money.ts";
import { adBillings, adCampaigns, adDailyCounts, attachments, ledgerTransactions, users } from "../../server/db/schema/index.ts";
import { checkLedger, ledgerIsConsistent } from "../../features/ledger/check.ts";
import { billAds } from "../../features/ads/billing.ts";
import { shanghaiDay } from "../../common/locale.ts";
import { addDays } from "../../features/ads/campaigns.ts";
import { pacedAllowanceMilli } from "../../features/ads/serving.ts";
import { run as runAdmin } from "../../scripts/admin.ts";

/**
 * kill -9 of the server in the middle of ad traffic (slots served, viewable beacons), a restart on
 * the same store with every beacon sent again, then kill -9 of the daily billing as it starts its
 * run and the billing run twice more: the counts are those of the distinct served ads (none
 * doubled), the day is billed by one ledger transaction, the spend never exceeds the hold and the
 * ledger checks. On the embedded store on disk, and on PostgreSQL when `TEST_DATABASE_URL` is set.
 */
const sessionSecret = "ads-crash-session-secret";
/** Slot requests in the burst, how many at once, and after how many viewable beacons acknowledged the server dies. */
const burstSize = 150;
const inFlight = 12;
const killAfterBeacons = 3;
/**
 * CPM at 250 per thousand (a quarter sinecoin per viewable impression), the budget and daily cap 20:
 * pacing lets at least 3 impressions out at any hour of the day, and the hold covers 80.
 */
const budget = 20;
const price = 250;
const spendOf = (views: number) => Math.min(Math.floor((views * price) / 1000), budget);

const startServer = (store: CrashStore) => startCrashServer(store, { SESSION_SECRET: sessionSecret });

const beacon = (baseURL: string, token: string) =>
  fetch(`${baseURL}/api/ads/events/`, {
    method: "POST",
    headers: { "content-type": "application/json", "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36" },
    body: JSON.stringify({ token, type: "viewable" }),
  });
const slot = (baseURL: string) =>
  fetch(`${baseURL}/api/ads/slot/?placement=article&language=zh-CN`, {
    headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36" },
  });

/** The day's billing in a process of its own (as the job's worker would run it), to be killed mid-run. */
function billingProcess(store: CrashStore, asOf: Date): ChildProcess {
  const code = `
    const { billAds } = await import(${JSON.stringify(path.resolve("features/ads/billing.ts"))});
    const client = await import(${JSON.stringify(path.resolve("server/db/client.ts"))});
    const handle = process.env.DATABASE_URL
      ? await client.openServerDatabase(process.env.DATABASE_URL)
      : await client.openEmbeddedDatabase(client.embeddedDataPath(process.env.DATA_DIR));
    process.stdout.write("billing\\n");
    await billAds(handle.db, new Date(${JSON.stringify(asOf.toISOString())}));
    process.stdout.write("billed\\n");
    await handle.close();`;
  return spawn(process.execPath, ["--input-type=module", "-e", code], {
    env: { ...process.env, DATA_DIR: store.dataDir, ...store.env },
    stdio: ["ignore", "pipe", "inherit"],
  });
}

describe.each(crashStoreKinds)("kill -9 during ad traffic and billing, on the %s store", (kind) => {
  let store: CrashStore | undefined;
  const servers: ChildProcess[] = [];
  afterAll(async () => {
    for (const server of servers) await stop(server);
    await store?.dispose();
  });

  it("counts every served ad once and bills its day once, never past the hold", { timeout: 400_000 }, async () => {
    store = await prepareCrashStore(kind);
    const setup = await openForSetup(store);
    const advertiser = await createUser(setup.db);
    await grant(setup.db, advertiser.id, "sinecoin", 100);
    await setup.db
      .insert(attachments)
      .values({ fileId: `adcrashimage${advertiser.id}`, ownerId: advertiser.id, purpose: "upload", contentType: "image/png", size: 10 });
    const admin = await createUser(setup.db);
    await setup.db.update(users).set({ siteRole: "admin" }).where(eq(users.id, admin.id));
    const sessions = { advertiser: await createSessionFor(setup.db, advertiser), admin: await createSessionFor(setup.db, admin) };
    await setup.close();

    const first = await startServer(store);
    servers.push(first.server);
    const today = shanghaiDay(new Date());
    // Past the first hours of the Shanghai day pacing lets out more than a sinecoin's worth: the bill is then not empty.
    const paidDay = pacedAllowanceMilli(budget, new Date()) >= 4 * price;
    const created = await (
      await signedInPost(first.baseURL, sessions.advertiser)
    )(
      "/api/ads/campaigns/",
      {
        title: "Crash-proof ads",
        text: "Counted once, billed once.",
        image_file_id: `adcrashimage${advertiser.id}`,
        url: "https://example.com/crash",
        languages: ["zh-CN"],
        pricing: { model: "cpm", price },
        budget,
        daily_cap: budget,
        starts_on: today,
        ends_on: today,
      },
      "ads-crash-campaign",
    );
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    expect((await (await signedInPost(first.baseURL, sessions.admin))(`/api/admin/ads/campaigns/${id}/approve/`, {})).status).toBe(200);

    // The burst: anonymous readers ask for the slot and report it viewable; SIGKILL after a few beacons.
    const tokens: string[] = [];
    const exited = new Promise<void>((resolve) => first.server.once("exit", () => resolve()));
    let beacons = 0;
    let next = 0;
    const worker = async () => {
      while (next < burstSize) {
        next += 1;
        try {
          const answer = await slot(first.baseURL);
          if (answer.status !== 200) continue;
          const { token } = (await answer.json()) as { token: string };
          tokens.push(token);
          if ((await beacon(first.baseURL, token)).status === 204) {
            beacons += 1;
            if (beacons === killAfterBeacons) first.server.kill("SIGKILL");
          }
        } catch {
          // The connection died with the server.
        }
      }
    };
    await Promise.all(Array.from({ length: inFlight }, worker));
    if (beacons < killAfterBeacons) first.server.kill("SIGKILL");
    await exited;
    expect(first.server.signalCode).toBe("SIGKILL");
    expect(tokens.length).toBeGreaterThanOrEqual(killAfterBeacons);
    expect(tokens.length).toBeLessThanOrEqual((budget * 1000) / price);

    // Restarted on the same store: every beacon again (some were flushed before the kill), and more traffic.
    releaseKilledLock(store);
    const second = await startServer(store);
    servers.push(second.server);
    for (const token of tokens) expect((await beacon(second.baseURL, token)).status).toBe(204);
    for (let i = 0; i < 40; i += 1) {
      const answer = await slot(second.baseURL);
      if (answer.status !== 200) continue;
      const { token } = (await answer.json()) as { token: string };
      tokens.push(token);
      expect((await beacon(second.baseURL, token)).status).toBe(204);
      // And twice: a repeated report counts once.
      expect((await beacon(second.baseURL, token)).status).toBe(204);
    }
    await stop(second.server);
    expect(second.server.signalCode === null || second.server.signalCode === "SIGTERM").toBe(true);

    // The next day's billing, killed as it starts its run, then run to the end twice.
    const tomorrow = new Date(`${addDays(today, 1)}T04:00:00Z`);
    const billing = billingProcess(store, tomorrow);
    await new Promise<void>((resolve, reject) => {
      billing.stdout!.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("billing")) {
          billing.kill("SIGKILL");
          resolve();
        }
      });
      billing.once("exit", (code) => (code === 0 ? resolve() : reject(new Error(`billing exited with ${code}`))));
    });
    await new Promise<void>((resolve) =>
      billing.exitCode !== null || billing.signalCode !== null ? resolve() : billing.once("exit", () => resolve()),
    );
    releaseKilledLock(store);
    const database = await store.open();
    try {
      await billAds(database.db, tomorrow);
      await billAds(database.db, tomorrow);
      const counts = (
        await database.db
          .select({
            served: sql<number>`sum(${adDailyCounts.served})::int`,
            viewable: sql<number>`sum(${adDailyCounts.viewable})::int`,
            filtered: sql<number>`sum(${adDailyCounts.filteredViewable})::int`,
          })
          .from(adDailyCounts)
          .where(eq(adDailyCounts.campaignId, id))
      )[0]!;
      // Every served ad's beacon was sent after the restart: each counted exactly once, none doubled by the
      // repeats. (A slot answered as the server died may have been counted served without reaching its reader.)
      expect(counts.viewable).toBe(tokens.length);
      expect(counts.filtered).toBe(0);
      expect(counts.served).toBeGreaterThanOrEqual(tokens.length);
      expect(counts.served).toBeLessThanOrEqual(tokens.length + inFlight);
      const bills = await database.db.select().from(adBillings).where(eq(adBillings.campaignId, id));
      expect(bills).toHaveLength(1);
      expect(bills[0]).toMatchObject({ day: today, spend: spendOf(tokens.length) });
      if (paidDay) expect(bills[0]!.spend).toBeGreaterThan(0);
      const payouts = await database.db
        .select({ key: ledgerTransactions.idempotencyKey })
        .from(ledgerTransactions)
        .where(and(like(ledgerTransactions.idempotencyKey, `ad_payout:${id}:%`)));
      expect(payouts).toEqual([{ key: `ad_payout:${id}:${today}` }]);
      const [campaign] = await database.db.select().from(adCampaigns).where(eq(adCampaigns.id, id));
      expect(campaign!.spent).toBeLessThanOrEqual(budget);
      expect(campaign!.spent + campaign!.released).toBe(budget);
      expect(campaign!.status).toBe(campaign!.spent === budget ? "exhausted" : "ended");
      const [wallet] = await database.db.select({ sinecoin: users.sinecoin }).from(users).where(eq(users.id, advertiser.id));
      expect(wallet!.sinecoin).toBe(100 - campaign!.spent);
      const report = await checkLedger(database.db);
      expect(report).toMatchObject({ unbalancedTransactions: [], incompleteTransactions: [], mismatchedUsers: [] });
      expect(ledgerIsConsistent(report)).toBe(true);
    } finally {
      await database.close();
    }
    // `npm run admin -- ledger-check` on the store as it was left.
    expect(await runAdmin(["ledger-check"], { ...process.env, DATA_DIR: store.dataDir, SESSION_SECRET: sessionSecret, ...store.env })).toBe(
      0,
    );
  });
});

import path from "node:path";
import "../features/registrations.ts";
import { sql } from "drizzle-orm";
import lockfile from "proper-lockfile";
import { loadConfig } from "../server/config.ts";
import { embeddedDataPath, openEmbeddedDatabase, openServerDatabase, type DatabaseHandle } from "../server/db/client.ts";
import { invalidationChannel, setInvalidationBroadcast } from "../server/lib/invalidation.ts";
import { parseSiteRole, parseUserType, setSiteRole, setUserType } from "../features/accounts/user-type.ts";
import { AppError } from "../common/app-error.ts";
import { checkLedger, ledgerIsConsistent } from "../features/ledger/check.ts";
import { isMetricsCommand, metricsUsage, parseRange, runMetricsCommand } from "./admin-metrics.ts";
import { jobsCommand } from "./admin-jobs.ts";

const usage = `Usage: npm run admin -- set-type <username> <type>
       npm run admin -- set-site-role <username> <role>
       npm run admin -- ledger-check
       npm run admin -- jobs [retry <job id>]
  type: registered | official | vip | svip (or the full name, e.g. "VIP users")
  role: none | moderator | admin (moderators review every report at /admin/reports)
  ledger-check: every ledger transaction balances and every cached balance equals its entries (exit 1 otherwise)
  jobs: the job schedules with their last run, recent runs and failed jobs; "jobs retry <id>" queues a failed job again
${metricsUsage}`;

/**
 * Administration from the command line: `npm run admin -- set-type <username> <type>` and
 * `npm run admin -- set-site-role <username> moderator`.
 * With DATABASE_URL it works beside running servers (they see the change within the session
 * cache's 2 s; their cached pages are dropped through NOTIFY). The embedded store belongs to one
 * process: stop the server first.
 */
export async function run(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [command, username, value] = args;
  const ledgerCheck = command === "ledger-check" && args.length === 1;
  const jobs = command === "jobs" && (args.length === 1 || (args[1] === "retry" && args.length === 3));
  const roleCommand = (command === "set-type" || command === "set-site-role") && !!username && !!value && args.length === 3;
  const metricsCommand = isMetricsCommand(command) && (command === "prune-events" ? args.length === 1 : !!parseRange(args.slice(1)));
  if (!ledgerCheck && !roleCommand && !jobs && !metricsCommand) {
    console.error(usage);
    return 2;
  }
  const userType = command === "set-type" ? parseUserType(value) : null;
  const siteRole = command === "set-site-role" ? parseSiteRole(value) : null;
  if (command === "set-type" && !userType) {
    console.error(`Unknown user type "${value}".\n${usage}`);
    return 2;
  }
  if (command === "set-site-role" && !siteRole) {
    console.error(`Unknown site role "${value}".\n${usage}`);
    return 2;
  }
  const config = loadConfig(env);
  let release: (() => Promise<void>) | undefined;
  let stopBroadcast: (() => void) | undefined;
  let database: DatabaseHandle;
  if (config.databaseUrl) {
    database = await openServerDatabase(config.databaseUrl, 1);
    // Other processes drop their cached pages of this user.
    stopBroadcast = setInvalidationBroadcast(async (tags) => {
      await database.db.execute(sql`select pg_notify(${invalidationChannel}, ${JSON.stringify({ origin: "admin", tags })})`);
    });
  } else {
    try {
      release = await lockfile.lock(config.dataDir, {
        lockfilePath: path.join(config.dataDir, "server.lock"),
        stale: 10_000,
        realpath: false,
      });
    } catch (error) {
      if ((error as { code?: string }).code !== "ELOCKED") throw error;
      console.error(
        `A Circles server is using the embedded store in ${config.dataDir}. Stop it, run this command, then start it again (or use DATABASE_URL).`,
      );
      return 1;
    }
    database = await openEmbeddedDatabase(embeddedDataPath(config.dataDir));
  }
  try {
    await database.migrate();
    if (metricsCommand) return await runMetricsCommand(database.db, command!, args.slice(1));
    if (jobs) return await jobsCommand(database, args.slice(1));
    if (ledgerCheck) {
      const report = await checkLedger(database.db);
      console.log(`${report.transactions} transactions, ${report.entries} entries`);
      for (const id of report.unbalancedTransactions) console.error(`transaction ${id} does not balance`);
      for (const id of report.incompleteTransactions) console.error(`transaction ${id} has fewer than two entries`);
      for (const user of report.mismatchedUsers)
        console.error(`user ${user.userId}: ${user.field} is ${user.cached}, its entries sum to ${user.ledger}`);
      const consistent = ledgerIsConsistent(report);
      console.log(consistent ? "ledger consistent" : "ledger INCONSISTENT");
      return consistent ? 0 : 1;
    }
    if (siteRole) {
      const { previous } = await setSiteRole({ db: database.db }, username!, siteRole);
      console.log(`${username}: site role ${previous} → ${siteRole}`);
    } else {
      const { previous } = await setUserType({ db: database.db }, username!, userType!);
      console.log(`${username}: ${previous} → ${userType}`);
    }
    return 0;
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") {
      console.error(`No user named "${username}".`);
      return 1;
    }
    throw error;
  } finally {
    stopBroadcast?.();
    await database.close();
    await release?.();
  }
}

// Run as a command; imported (by its tests), it only defines `run`.
if (import.meta.main) process.exitCode = await run(process.argv.slice(2));

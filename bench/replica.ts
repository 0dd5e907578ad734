import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync, appendFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { children, signIn, startServer } from "./scale.ts";

/**
 * `npm run bench -- --replica`: a PostgreSQL primary and its streaming replica of our own (initdb
 * and `pg_basebackup -R` into temporary folders, on ports 5441 and 5442, as the `postgres` user when
 * run as root), filled with the factor-0.01 scale data; then the reads that may lag (search,
 * rankings, the feed) against one server process on the primary alone and on the primary with
 * `DATABASE_REPLICA_URL`, the replica's own count of transactions to show it served them, and a
 * signed-in user's post read back at once twenty times (nobody may miss their own post).
 * On these two cores the replica adds no capacity (it shares them): the ratio shows the routing's
 * cost, not a gain; a replica on its own machine is where the gain is.
 */
const duration = Number(process.env.BENCH_SECONDS ?? 8);
const connections = 20;
const root = path.resolve(import.meta.dirname, "..");
const primaryPort = 5441;
const replicaPort = 5442;

function binDir(): string {
  return execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim();
}

/** Runs a PostgreSQL program, as the `postgres` user when we are root (the server refuses root). */
function asPostgres(program: string, args: string[]): void {
  const command = path.join(binDir(), program);
  const asRoot = process.getuid?.() === 0;
  const result = asRoot
    ? spawnSync("runuser", ["-u", "postgres", "--", command, ...args], { stdio: "inherit" })
    : spawnSync(command, args, { stdio: "inherit" });
  if (result.status !== 0) throw new Error(`${program} ${args.join(" ")} failed (${result.status})`);
}

async function transactions(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ count: string }>(
    "select xact_commit::text as count from pg_stat_database where datname = 'circles'",
  );
  await client.end();
  return Number(rows[0]?.count ?? 0);
}

async function measure(site: string, paths: string[], cookie: string): Promise<number> {
  let total = 0;
  for (const page of paths) {
    await autocannon({ url: `${site}${page}`, connections, duration: 2, headers: { cookie } });
    const result = await autocannon({ url: `${site}${page}`, connections, duration, headers: { cookie } });
    total += result.requests.average;
  }
  return total / paths.length;
}

async function ownPostsSeen(site: string, session: string, times: number): Promise<number> {
  let seen = 0;
  for (let index = 0; index < times; index++) {
    const token = (await (await fetch(`${site}/api/get_csrf_token/`, { headers: { cookie: session } })).json()) as { csrftoken: string };
    const cookie = `${session}; csrftoken=${token.csrftoken}`;
    const title = `Replica check ${Date.now()} ${index}`;
    const created = await fetch(`${site}/api/circles/1/writings/`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-csrftoken": token.csrftoken, cookie },
      body: JSON.stringify({ title, content: "Read back at once." }),
    });
    if (created.status !== 201) throw new Error(`posting answered ${created.status}: ${await created.text()}`);
    const position = created.headers
      .getSetCookie()
      .find((value) => value.startsWith("circles_lsn="))
      ?.split(";")[0];
    const feed = await fetch(`${site}/api/feed/?tab=latest`, { headers: { cookie: position ? `${cookie}; ${position}` : cookie } });
    if ((await feed.text()).includes(title)) seen += 1;
  }
  return seen;
}

export async function runReplicaBench(): Promise<void> {
  const work = mkdtempSync(path.join(tmpdir(), "circles-replica-"));
  chmodSync(work, 0o777);
  const primaryDir = path.join(work, "primary");
  const replicaDir = path.join(work, "replica");
  const primaryUrl = `postgres://postgres@127.0.0.1:${primaryPort}/circles`;
  const replicaUrl = `postgres://postgres@127.0.0.1:${replicaPort}/circles`;
  const stop = () => {
    for (const child of children) child.kill("SIGTERM");
    for (const dir of [replicaDir, primaryDir]) {
      try {
        asPostgres("pg_ctl", ["-D", dir, "-m", "fast", "-w", "stop"]);
      } catch {
        // not running
      }
    }
    rmSync(work, { recursive: true, force: true });
  };
  try {
    asPostgres("initdb", ["-D", primaryDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"]);
    appendFileSync(path.join(primaryDir, "pg_hba.conf"), "host replication all 127.0.0.1/32 trust\n");
    writeFileSync(
      path.join(primaryDir, "postgresql.auto.conf"),
      `port = ${primaryPort}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${work}'\nwal_level = replica\nmax_wal_senders = 4\n`,
    );
    asPostgres("pg_ctl", ["-D", primaryDir, "-l", path.join(work, "primary.log"), "-w", "start"]);
    const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${primaryPort}/postgres` });
    await admin.connect();
    await admin.query("create database circles");
    await admin.end();
    console.log("replica bench: filling the primary with the factor-0.01 scale data…");
    const seeded = spawnSync("node", [path.join(root, "scripts/seed-scale.ts"), "--factor", "0.01"], {
      env: { ...process.env, DATABASE_URL: primaryUrl },
      stdio: ["ignore", "ignore", "inherit"],
    });
    if (seeded.status !== 0) throw new Error("seeding the primary failed");
    asPostgres("pg_basebackup", ["-h", "127.0.0.1", "-p", String(primaryPort), "-U", "postgres", "-D", replicaDir, "-R", "-X", "stream"]);
    appendFileSync(path.join(replicaDir, "postgresql.auto.conf"), `port = ${replicaPort}\n`);
    asPostgres("pg_ctl", ["-D", replicaDir, "-l", path.join(work, "replica.log"), "-w", "start"]);

    const paths = [`/api/search/?q=${encodeURIComponent("数学")}`, `/api/search/?q=invariant`, "/api/ranking/", "/api/feed/?tab=hot"];
    const alone = await startServer(3931, primaryUrl);
    const session = await signIn(alone);
    const primaryOnly = await measure(alone, paths, session);
    for (const child of children.splice(0)) child.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 1000));

    process.env.DATABASE_REPLICA_URL = replicaUrl;
    const routed = await startServer(3932, primaryUrl);
    const before = await transactions(replicaUrl);
    const withReplica = await measure(routed, paths, session);
    const served = (await transactions(replicaUrl)) - before;
    const seen = await ownPostsSeen(routed, session, 20);
    delete process.env.DATABASE_REPLICA_URL;

    console.log(`lagging reads (search zh/en, rankings, the Hot feed), signed in, ${connections} connections, ${duration} s each:`);
    console.log(
      `  primary alone: ${primaryOnly.toFixed(0)} req/s | primary + replica: ${withReplica.toFixed(0)} req/s | ratio ${(withReplica / primaryOnly).toFixed(2)}`,
    );
    console.log(`  transactions the replica committed meanwhile: ${served} ${served > 0 ? "✔" : "✘"}`);
    console.log(`  own post read back at once: ${seen} of 20 ${seen === 20 ? "✔" : "✘"}`);
  } finally {
    stop();
  }
}

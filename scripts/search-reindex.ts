import path from "node:path";
import "../features/registrations.ts";
import cliProgress from "cli-progress";
import lockfile from "proper-lockfile";
import { loadConfig } from "../server/config.ts";
import { embeddedDataPath, openEmbeddedDatabase, openServerDatabase, type DatabaseHandle } from "../server/db/client.ts";
import { rebuildIndex } from "../features/search/indexer.ts";

/**
 * `npm run search:reindex`: rebuilds the whole search index from every searchable kind, with a
 * progress bar. With DATABASE_URL it runs beside the servers (each batch is its own transaction,
 * so searches keep answering); the embedded store belongs to one process: stop the server first.
 */
export async function run(env: NodeJS.ProcessEnv = process.env, showProgress = process.stdout.isTTY): Promise<number> {
  const config = loadConfig(env);
  let release: (() => Promise<void>) | undefined;
  let database: DatabaseHandle;
  if (config.databaseUrl) {
    database = await openServerDatabase(config.databaseUrl, 1);
  } else {
    try {
      release = await lockfile.lock(config.dataDir, {
        lockfilePath: path.join(config.dataDir, "server.lock"),
        stale: 10_000,
        realpath: false,
      });
    } catch (error) {
      if ((error as { code?: string }).code !== "ELOCKED") throw error;
      console.error(`A Circles server is using the embedded store in ${config.dataDir}. Stop it, run this command, then start it again.`);
      return 1;
    }
    database = await openEmbeddedDatabase(embeddedDataPath(config.dataDir));
  }
  const bar = new cliProgress.SingleBar(
    { format: "search index [{bar}] {percentage}% {value}/{total} {kind}", noTTYOutput: !showProgress, notTTYSchedule: 5000 },
    cliProgress.Presets.shades_classic,
  );
  try {
    await database.migrate();
    bar.start(1, 0, { kind: "" });
    const started = Date.now();
    const count = await rebuildIndex(database.db, (done, total, kind) => {
      bar.setTotal(Math.max(total, 1));
      bar.update(done, { kind });
    });
    bar.stop();
    console.log(`Indexed ${count} subjects in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
    return 0;
  } finally {
    bar.stop();
    await database.close();
    await release?.();
  }
}

if (import.meta.main) process.exitCode = await run();

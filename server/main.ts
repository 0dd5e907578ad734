import path from "node:path";
import closeWithGrace from "close-with-grace";
import { loadConfig } from "./config.ts";
import { DataDirectoryLocked, lockDataDirectory } from "./data-lock.ts";
import { embeddedDataPath, openEmbeddedDatabase, openServerDatabase, type DatabaseHandle } from "./db/client.ts";
import { seed } from "./db/seed.ts";
import { buildApp } from "./app.ts";
import { startJobQueue, stopJobQueue } from "../features/jobs/queue.ts";

/** Starts the product: migrate, seed, serve; stops cleanly on SIGTERM/SIGINT. */
export async function main(): Promise<void> {
  process.env.NODE_ENV ??= "production";
  const config = loadConfig();
  let release: (() => Promise<void>) | undefined;
  let database: DatabaseHandle;
  if (config.databaseUrl) {
    database = await openServerDatabase(config.databaseUrl);
  } else {
    release = await lockOrExit(config.dataDir);
    database = await openEmbeddedDatabase(embeddedDataPath(config.dataDir));
  }
  await database.migrate();
  await seed(database);

  const app = await buildApp({
    config,
    database,
    logger: true,
    pages: { buildDirectory: path.resolve("build"), cache: config.production },
  });

  // The job queue's workers (features/jobs): the every-minute payment expiry, the hourly maintenance.
  const jobs = await startJobQueue({ database, files: app.files, log: app.log, work: true });

  closeWithGrace({ delay: 15_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, "shutting down after an error");
    else app.log.info({ signal }, "shutting down");
    await stopJobQueue(jobs);
    await app.close();
    await database.close();
    await release?.();
  });

  await app.listen({ port: config.port, host: config.host });
}

/** Two processes must never open the same embedded store (`server/data-lock.ts`). */
async function lockOrExit(dataDir: string): Promise<() => Promise<void>> {
  try {
    return await lockDataDirectory(dataDir);
  } catch (error) {
    if (!(error instanceof DataDirectoryLocked)) throw error;
    console.error(
      `${error.message}\n` +
        "Stop that server first, or start this one with DATA_DIR set to another folder (or DATABASE_URL set to a PostgreSQL server).",
    );
    process.exit(1);
  }
}

await main();

import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { inject } from "vitest";
import pg from "pg";
import { openEmbeddedDatabase, openServerDatabase, type DatabaseHandle } from "../../server/db/client.ts";
import { seedCircleTree } from "../../features/circles/seed.ts";

export type DatabaseKind = "pglite" | "postgres";

/** PGlite always; the PostgreSQL server too when TEST_DATABASE_URL is set (CI sets it). */
export const databaseKinds: DatabaseKind[] = process.env.TEST_DATABASE_URL ? ["pglite", "postgres"] : ["pglite"];

/**
 * One database for tests whose subject is not the database (input handling, policy matrices, page
 * plumbing): the PostgreSQL server when there is one, PGlite otherwise. Every query they run is
 * also run on both by the API tests of its feature; running them twice only doubled their time.
 */
export const oneDatabaseKind: DatabaseKind[] = process.env.TEST_DATABASE_URL ? ["postgres"] : ["pglite"];

export interface TestDatabase extends DatabaseHandle {
  /** Drops the throw-away database (server) or closes the in-memory one. */
  dispose(): Promise<void>;
  /** The server database's URL (PostgreSQL only), for a second connection. */
  url?: string;
}

/** The run's template (tests/support/unit-setup.ts), when this test runs under it. */
function template(name: "pgliteTemplate" | "postgresTemplate"): string | undefined {
  try {
    return inject(name) || undefined;
  } catch {
    return undefined;
  }
}

/** The run's migrated, circle-seeded PGlite data directory as a tarball, to start an embedded store from (on disk too). */
export async function migratedTemplate(): Promise<Blob | undefined> {
  const tarball = template("pgliteTemplate");
  return tarball ? new Blob([readFileSync(tarball)]) : undefined;
}

/**
 * A fresh, migrated, circle-seeded database: in memory for PGlite, a new database on the server.
 * Cloned from the run's template when there is one (a third of the time of migrating anew).
 */
export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === "pglite") {
    const initial = await migratedTemplate();
    if (initial) {
      const handle = await openEmbeddedDatabase(undefined, initial);
      return { ...handle, dispose: () => handle.close() };
    }
    const handle = await openEmbeddedDatabase(undefined);
    await handle.migrate();
    await seedCircleTree(handle.db);
    return { ...handle, dispose: () => handle.close() };
  }
  const adminUrl = process.env.TEST_DATABASE_URL!;
  const name = `circles_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const source = template("postgresTemplate");
  await admin.query(source ? `create database ${name} template ${source}` : `create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openServerDatabase(url.toString(), 4);
  if (!source) {
    await handle.migrate();
    await seedCircleTree(handle.db);
  }
  return {
    ...handle,
    url: url.toString(),
    dispose: async () => {
      await handle.close();
      // Dropping forces a checkpoint on the server (one to two seconds): it goes on while the next
      // test file runs instead of before it. A drop cut short by the end of the run leaves a
      // database named after a finished process, which the next run's set-up drops.
      void dropDatabase(adminUrl, name);
    },
  };
}

async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const cleanup = new pg.Client({ connectionString: adminUrl });
  try {
    await cleanup.connect();
    await cleanup.query(`drop database if exists ${name} with (force)`);
  } catch {
    // Left for the next run's orphan sweep (tests/support/unit-setup.ts).
  } finally {
    await cleanup.end().catch(() => undefined);
  }
}

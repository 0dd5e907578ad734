import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { PGlite } from "@electric-sql/pglite";
import type { TestProject } from "vitest/node";
import { openEmbeddedDatabase, openServerDatabase } from "../../server/db/client.ts";
import { seedCircleTree } from "../../features/circles/seed.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated, seeded PGlite data directory (tarball) every API test file starts from. */
    pgliteTemplate: string;
    /** The same on the PostgreSQL server: a database to clone with `create database … template`. */
    postgresTemplate: string;
  }
}

interface Templates {
  tarball: string;
  templateName: string;
  teardown: () => Promise<void>;
}

/** The projects that use this setup (unit, pages) run in one vitest process and share one pair of templates. */
const shared = globalThis as { circlesTestTemplates?: Promise<Templates> };

/**
 * Builds the migrated, seeded starting database once per run, for both kinds; each API test file
 * then clones it (a PGlite tarball load, a PostgreSQL template copy) instead of starting an empty
 * store and migrating it. Also drops test databases left by runs that died before cleaning up.
 */
export default async function setup(project: TestProject) {
  const first = shared.circlesTestTemplates === undefined;
  shared.circlesTestTemplates ??= makeTemplates();
  const { tarball, templateName, teardown } = await shared.circlesTestTemplates;
  project.provide("pgliteTemplate", tarball);
  project.provide("postgresTemplate", templateName);
  // Vitest tears projects down after the whole run; the first one to set up cleans up.
  return first ? teardown : undefined;
}

async function makeTemplates(): Promise<Templates> {
  const folder = mkdtempSync(path.join(tmpdir(), "circles-template-"));
  const tarball = path.join(folder, "pglite.tar");
  const embedded = await openEmbeddedDatabase(undefined);
  await embedded.migrate();
  await seedCircleTree(embedded.db);
  const dump = await (embedded.db as unknown as { $client: PGlite }).$client.dumpDataDir("none");
  writeFileSync(tarball, Buffer.from(await dump.arrayBuffer()));
  await embedded.close();

  const url = process.env.TEST_DATABASE_URL;
  let templateName = "";
  if (url) {
    await dropOrphans(url);
    templateName = `circles_template_${process.pid}`;
    await adminQuery(url, `create database ${templateName}`);
    const target = new URL(url);
    target.pathname = `/${templateName}`;
    const server = await openServerDatabase(target.toString(), 1);
    await server.migrate();
    await seedCircleTree(server.db);
    await server.close();
  }
  return {
    tarball,
    templateName,
    teardown: async () => {
      rmSync(folder, { recursive: true, force: true });
      if (url && templateName) await adminQuery(url, `drop database if exists ${templateName} with (force)`);
    },
  };
}

async function adminQuery(url: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** Test databases whose names carry the pid of a process that is gone are orphans. */
async function dropOrphans(url: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      "select datname from pg_database where datname like 'circles_test_%' or datname like 'circles_template_%'",
    );
    for (const { datname } of rows) {
      const pid = Number(/^circles_(?:test|template)_(\d+)/.exec(datname)?.[1]);
      if (pid && isAlive(pid)) continue;
      await admin.query(`drop database if exists "${datname}" with (force)`);
    }
  } finally {
    await admin.end();
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

import pg from "pg";

/**
 * Drops throw-away test databases left by runs that died before cleaning up (their names carry
 * the pid of the process that made them; a database whose process is gone is an orphan).
 */
export default async function setup() {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>("select datname from pg_database where datname like 'circles_test_%'");
    for (const { datname } of rows) {
      const pid = Number(/^circles_test_(\d+)_/.exec(datname)?.[1]);
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

import { readFile, rm, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import path from "node:path";
import lockfile from "proper-lockfile";

/**
 * Two processes must never open the same embedded store: a lock directory (`server.lock`, kept
 * fresh by proper-lockfile) beside a note of its holder (`server.lock.pid`: host and process id).
 * A holder killed with -9 leaves both behind; proper-lockfile would wait 10 s for the lock to go
 * stale, so a supervisor restarting at once found the site down. When the note names a process of
 * this host that is gone, the lock is taken over at once; a live (or unknown) holder still keeps it.
 */
export class DataDirectoryLocked extends Error {
  readonly dataDir: string;
  constructor(dataDir: string) {
    super(`Another Circles server is already using the data directory ${dataDir}.`);
    this.dataDir = dataDir;
  }
}

const lockPath = (dataDir: string) => path.join(dataDir, "server.lock");
const holderPath = (dataDir: string) => path.join(dataDir, "server.lock.pid");

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, run by someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Removes the lock of a holder that is gone (same host, its process no longer running). */
async function clearDeadHolder(dataDir: string): Promise<void> {
  const note = await readFile(holderPath(dataDir), "utf8").catch(() => null);
  const match = note ? /^(.+) (\d+)\n?$/.exec(note) : null;
  if (!match || match[1] !== hostname()) return;
  const pid = Number(match[2]);
  if (pid === process.pid || isAlive(pid)) return;
  await rm(lockPath(dataDir), { recursive: true, force: true });
  await rm(holderPath(dataDir), { force: true });
}

/** Locks the data directory for this process; throws `DataDirectoryLocked` when another holds it. */
export async function lockDataDirectory(dataDir: string): Promise<() => Promise<void>> {
  await clearDeadHolder(dataDir);
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(dataDir, { lockfilePath: lockPath(dataDir), stale: 10_000, update: 3_000, realpath: false });
  } catch (error) {
    if ((error as { code?: string }).code === "ELOCKED") throw new DataDirectoryLocked(dataDir);
    throw error;
  }
  await writeFile(holderPath(dataDir), `${hostname()} ${process.pid}\n`);
  return async () => {
    await rm(holderPath(dataDir), { force: true });
    await release();
  };
}

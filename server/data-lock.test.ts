import { spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DataDirectoryLocked, lockDataDirectory } from "./data-lock.ts";

/** A process id that was alive a moment ago and is gone now (the pid of an exited child). */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid!;
}

describe("the embedded store's data directory lock", () => {
  const dirs: string[] = [];
  const freshDir = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "circles-lock-"));
    dirs.push(dir);
    return dir;
  };
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it("refuses a second holder while the first lives, and notes who holds it", async () => {
    const dir = await freshDir();
    const release = await lockDataDirectory(dir);
    expect(await readFile(path.join(dir, "server.lock.pid"), "utf8")).toBe(`${hostname()} ${process.pid}\n`);
    await expect(lockDataDirectory(dir)).rejects.toBeInstanceOf(DataDirectoryLocked);
    await release();
    await expect(stat(path.join(dir, "server.lock.pid"))).rejects.toThrow();
    const again = await lockDataDirectory(dir);
    await again();
  });

  it("takes over at once the fresh lock of a holder killed without releasing it", async () => {
    const dir = await freshDir();
    // As kill -9 leaves it: the lock directory, fresh, and the note of a process that is gone. (Made by
    // hand: a lock held by this process would keep refreshing it and report the takeover as compromised.)
    await mkdir(path.join(dir, "server.lock"));
    await writeFile(path.join(dir, "server.lock.pid"), `${hostname()} ${await deadPid()}\n`);
    const taken = await lockDataDirectory(dir);
    expect(await readFile(path.join(dir, "server.lock.pid"), "utf8")).toBe(`${hostname()} ${process.pid}\n`);
    await taken();
  });

  it("keeps the lock of a process on another host, which it cannot check", async () => {
    const dir = await freshDir();
    const release = await lockDataDirectory(dir);
    await writeFile(path.join(dir, "server.lock.pid"), `elsewhere.example ${await deadPid()}\n`);
    await expect(lockDataDirectory(dir)).rejects.toBeInstanceOf(DataDirectoryLocked);
    await release();
  });
});

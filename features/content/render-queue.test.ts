import { describe, expect, it } from "vitest";
import { FairQueue, siteOwner } from "./render-queue.ts";

/** A job that runs until released, recording when it started and whether it was told to stop. */
function heldJob(log: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  let signal: AbortSignal | undefined;
  const start = (given: AbortSignal) => {
    signal = given;
    log.push(name);
    return new Promise<string>((resolve, reject) => {
      given.addEventListener("abort", () => reject(given.reason as Error));
      void done.then(() => resolve(name));
    });
  };
  return { start, release, aborted: () => signal?.aborted ?? false };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const limits = { slots: 1, perOwnerRunning: 1, perOwnerWaiting: 2, maxWaitMs: 60_000 };

describe("fair render turns", () => {
  it("gives a free slot to the owner served longest ago: one user's pile never holds up another", async () => {
    const queue = new FairQueue(limits);
    const log: string[] = [];
    const a1 = heldJob(log, "a1");
    const a2 = heldJob(log, "a2");
    const a3 = heldJob(log, "a3");
    const b1 = heldJob(log, "b1");
    const runs = [
      queue.run("user:a", undefined, a1.start),
      queue.run("user:a", undefined, a2.start),
      queue.run("user:a", undefined, a3.start),
    ];
    runs.push(queue.run("user:b", undefined, b1.start));
    await settle();
    expect(log).toEqual(["a1"]);
    a1.release();
    await settle();
    // b asked after a's whole pile, and still goes before a's second document.
    expect(log).toEqual(["a1", "b1"]);
    b1.release();
    await settle();
    a2.release();
    await settle();
    a3.release();
    expect(await Promise.all(runs)).toEqual(["a1", "a2", "a3", "b1"]);
    expect(log).toEqual(["a1", "b1", "a2", "a3"]);
  });

  it("runs one job per user at a time, so other users take the other workers", async () => {
    const queue = new FairQueue({ ...limits, slots: 2 });
    const log: string[] = [];
    const jobs = ["a1", "a2", "b1"].map((name) => heldJob(log, name));
    void queue.run("user:a", undefined, jobs[0]!.start);
    void queue.run("user:a", undefined, jobs[1]!.start);
    void queue.run("user:b", undefined, jobs[2]!.start);
    await settle();
    expect(log).toEqual(["a1", "b1"]);
    expect(queue.load).toEqual({ running: 2, waiting: 1 });
    for (const job of jobs) job.release();
  });

  it("refuses a user's job beyond those waiting, with a localized 429 (the site's own work is not limited)", async () => {
    const queue = new FairQueue(limits);
    const log: string[] = [];
    const jobs = Array.from({ length: 4 }, (_, index) => heldJob(log, `a${index}`));
    const runs = jobs.slice(0, 3).map((job) => queue.run("user:a", undefined, job.start));
    await expect(queue.run("user:a", undefined, jobs[3]!.start)).rejects.toMatchObject({ code: "rendering_busy", status: 429 });
    const site = Array.from({ length: 5 }, (_, index) => heldJob(log, `site${index}`));
    const siteRuns = site.map((job) => queue.run(siteOwner, undefined, job.start));
    for (const job of [...jobs, ...site]) job.release();
    for (let index = 0; index < 10; index++) await settle();
    await Promise.all([...runs, ...siteRuns]);
  });

  it("drops a waiting job whose client has gone, and stops a running one", async () => {
    const queue = new FairQueue(limits);
    const log: string[] = [];
    const running = heldJob(log, "running");
    const waiting = heldJob(log, "waiting");
    const runningClient = new AbortController();
    const waitingClient = new AbortController();
    const first = queue.run("user:a", runningClient.signal, running.start);
    const second = queue.run("user:b", waitingClient.signal, waiting.start);
    await settle();
    waitingClient.abort();
    await expect(second).rejects.toMatchObject({ code: "request_aborted" });
    expect(queue.load).toEqual({ running: 1, waiting: 0 });
    runningClient.abort();
    await expect(first).rejects.toMatchObject({ code: "request_aborted" });
    expect(running.aborted()).toBe(true);
    await settle();
    expect(log).toEqual(["running"]);
    expect(queue.load).toEqual({ running: 0, waiting: 0 });
    // A client gone before asking is not queued at all.
    await expect(queue.run("user:c", AbortSignal.abort(), heldJob(log, "late").start)).rejects.toMatchObject({ code: "request_aborted" });
    expect(log).toEqual(["running"]);
  });

  it("gives up a job that waited too long with server_busy (503), never as too complex, and runs the rest", async () => {
    const queue = new FairQueue({ ...limits, maxWaitMs: 50 });
    const log: string[] = [];
    const long = heldJob(log, "long");
    const first = queue.run("user:a", undefined, long.start);
    const starved = queue.run("user:b", undefined, heldJob(log, "starved").start);
    await expect(starved).rejects.toMatchObject({ code: "server_busy", status: 503, params: { seconds: 10 } });
    long.release();
    await expect(first).resolves.toBe("long");
    expect(log).toEqual(["long"]);
  });
});

import { AppError } from "../../common/app-error.ts";

export interface FairQueueLimits {
  /** Jobs running at once (the worker threads). */
  slots: number;
  /** Jobs one owner may have running at once. */
  perOwnerRunning: number;
  /** Jobs one owner may have waiting; one more is refused at once (`rendering_busy`). */
  perOwnerWaiting: number;
  /** The longest a job waits for its turn before it is given up (`server_busy`). */
  maxWaitMs: number;
}

/** The site's own renders (the formatting guide, seeds): in turn with everyone, but not limited per owner. */
export const siteOwner = "site";

interface Job {
  start: (signal: AbortSignal) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (reason: unknown) => void;
  /** Aborts the job's work: its client left, or it waited too long. */
  controller: AbortController;
  waitTimer?: NodeJS.Timeout;
  detach: () => void;
}

interface OwnerState {
  running: number;
  waiting: Job[];
  /** When this owner's last job started (a counter): the owner served longest ago goes first. */
  lastStarted: number;
}

/**
 * Runs jobs on a few slots fairly between owners: each owner has at most `perOwnerRunning` jobs
 * running and `perOwnerWaiting` waiting, and a free slot goes to the waiting owner served longest
 * ago (a newcomer first), so one user's pile of heavy documents never holds up another's. A job
 * whose client has gone is dropped from the queue (or stopped when running); time spent waiting
 * never counts against the job's own time limit.
 */
export class FairQueue {
  private readonly limits: FairQueueLimits;
  private readonly owners = new Map<string, OwnerState>();
  private running = 0;
  private started = 0;

  constructor(limits: FairQueueLimits) {
    this.limits = limits;
  }

  run<T>(owner: string, signal: AbortSignal | undefined, start: (signal: AbortSignal) => Promise<T>): Promise<T> {
    if (signal?.aborted) return Promise.reject(new AppError("request_aborted"));
    const state = this.stateOf(owner);
    if (owner !== siteOwner && state.waiting.length >= this.limits.perOwnerWaiting) {
      return Promise.reject(new AppError("rendering_busy"));
    }
    return new Promise<T>((resolve, reject) => {
      const controller = new AbortController();
      const onClientGone = () => {
        // Waiting: leave the queue. Running: stop the work (the caller sees the abort).
        if (this.removeWaiting(state, job)) reject(new AppError("request_aborted"));
        else controller.abort(new AppError("request_aborted"));
      };
      const job: Job = {
        start: start as Job["start"],
        resolve: resolve as Job["resolve"],
        reject,
        controller,
        detach: () => signal?.removeEventListener("abort", onClientGone),
      };
      signal?.addEventListener("abort", onClientGone, { once: true });
      job.waitTimer = setTimeout(() => {
        if (this.removeWaiting(state, job)) reject(new AppError("server_busy", { params: { seconds: 10 } }));
      }, this.limits.maxWaitMs);
      state.waiting.push(job);
      this.pump();
    });
  }

  get slots(): number {
    return this.limits.slots;
  }

  /** Jobs running and waiting now (tests, diagnostics). */
  get load(): { running: number; waiting: number } {
    let waiting = 0;
    for (const state of this.owners.values()) waiting += state.waiting.length;
    return { running: this.running, waiting };
  }

  private stateOf(owner: string): OwnerState {
    let state = this.owners.get(owner);
    if (!state) {
      this.forgetIdleOwners();
      this.owners.set(owner, (state = { running: 0, waiting: [], lastStarted: 0 }));
    }
    return state;
  }

  /** Keeps the owners map small: idle owners are forgotten once there are many. */
  private forgetIdleOwners(): void {
    if (this.owners.size < 1000) return;
    for (const [owner, state] of this.owners) if (state.running === 0 && state.waiting.length === 0) this.owners.delete(owner);
  }

  private removeWaiting(state: OwnerState, job: Job): boolean {
    const index = state.waiting.indexOf(job);
    if (index === -1) return false;
    state.waiting.splice(index, 1);
    clearTimeout(job.waitTimer);
    job.detach();
    return true;
  }

  private pump(): void {
    while (this.running < this.limits.slots) {
      let next: OwnerState | undefined;
      for (const state of this.owners.values()) {
        if (state.waiting.length === 0 || (state.running >= this.limits.perOwnerRunning && state !== this.owners.get(siteOwner))) continue;
        if (!next || state.lastStarted < next.lastStarted) next = state;
      }
      if (!next) return;
      this.startJob(next, next.waiting.shift()!);
    }
  }

  private startJob(state: OwnerState, job: Job): void {
    clearTimeout(job.waitTimer);
    this.running += 1;
    state.running += 1;
    state.lastStarted = ++this.started;
    let work: Promise<unknown>;
    try {
      work = job.start(job.controller.signal);
    } catch (error) {
      work = Promise.reject(error);
    }
    work.then(job.resolve, job.reject).finally(() => {
      job.detach();
      this.running -= 1;
      state.running -= 1;
      this.pump();
    });
  }
}

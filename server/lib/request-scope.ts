import { AsyncLocalStorage } from "node:async_hooks";
import { countInstance } from "./single-instance.ts";

countInstance("server/request-scope");

/**
 * What deep code (the render queue) may know about the request it works for without every
 * service passing it along: who asked (for per-user fairness) and whether they are still there.
 */
export interface RequestScope {
  /** `user:<id>` when signed in, else `ip:<address>`. */
  owner(): Promise<string>;
  /** Aborted when the client goes away before its answer is sent. */
  signal: AbortSignal;
}

const storage = new AsyncLocalStorage<RequestScope>();

export function currentRequestScope(): RequestScope | undefined {
  return storage.getStore();
}

/** Runs `work` (and everything it starts) within `scope`. */
export function runInRequestScope<T>(scope: RequestScope, work: () => T): T {
  return storage.run(scope, work);
}

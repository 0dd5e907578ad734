import { PGlite } from "@electric-sql/pglite";

/**
 * Counts the statements a piece of work sends to the embedded store, where every statement goes
 * through PGlite's `query` or `exec`: statements, not time. `install` before the database opens
 * (its statement wrapper binds `query` when it is made), `restore` after the test.
 */
export function statementCounter() {
  const proto = PGlite.prototype as unknown as Record<"query" | "exec", (...args: unknown[]) => unknown>;
  const originals = { query: proto.query, exec: proto.exec };
  let statements: string[] | undefined;
  return {
    install(): void {
      for (const name of ["query", "exec"] as const) {
        const original = originals[name];
        proto[name] = function (this: unknown, ...args: unknown[]) {
          statements?.push(String(args[0]).replace(/\s+/g, " ").slice(0, 160));
          return original.apply(this, args);
        };
      }
    },
    restore(): void {
      proto.query = originals.query;
      proto.exec = originals.exec;
    },
    /** The work's result and the statements it sent, each shortened to one line. */
    async count<T>(work: () => Promise<T>): Promise<{ result: T; statements: string[] }> {
      const counted: string[] = [];
      statements = counted;
      try {
        return { result: await work(), statements: counted };
      } finally {
        statements = undefined;
      }
    },
  };
}

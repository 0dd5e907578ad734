/**
 * Stateful modules (the loader context token, the session cache, the invalidation bus) must exist
 * once per process. The server build imports them from their source files (vite.config.ts); this
 * counter notices if a copy ever sneaks back in, and the server refuses to start then.
 * The counter itself lives on globalThis on purpose: it must see every copy.
 */
const key = Symbol.for("circles.moduleInstances");
type Holder = typeof globalThis & { [key]?: Map<string, number> };

function counts(): Map<string, number> {
  return ((globalThis as Holder)[key] ??= new Map<string, number>());
}

export function countInstance(name: string): void {
  counts().set(name, (counts().get(name) ?? 0) + 1);
}

/** Names of modules loaded more than once in this process. */
export function duplicatedModules(): string[] {
  return [...counts()].filter(([, count]) => count > 1).map(([name]) => name);
}

export function assertSingleInstances(): void {
  const duplicated = duplicatedModules();
  if (duplicated.length > 0) throw new Error(`Modules loaded twice (the server build bundled its own copy): ${duplicated.join(", ")}`);
}

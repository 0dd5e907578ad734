/** Finds new releases: polls the build manifest, and after a failed chunk load reloads the target page. */
export const buildManifestPath = "/build-manifest.json";
export const reloadGuardMs = 10_000;
export const pollIntervalMs = 5 * 60_000;
const reloadStampKey = "circles:chunk-reload-at";

export function isChunkLoadError(reason: unknown): boolean {
  const message = reason instanceof Error ? reason.message : String(reason ?? "");
  return /Failed to fetch dynamically imported module|Importing a module script failed|error loading dynamically imported module|Unable to preload CSS|ChunkLoadError/i.test(
    message,
  );
}

/** At most one reload per 10 seconds, so a broken deployment cannot loop the page. */
export function mayReload(lastReloadAt: number | undefined, now: number): boolean {
  return lastReloadAt === undefined || Number.isNaN(lastReloadAt) || now - lastReloadAt >= reloadGuardMs;
}

export function currentBuildId(): string | undefined {
  return (window as unknown as { __reactRouterManifest?: { version?: string } }).__reactRouterManifest?.version;
}

export async function newerBuildExists(fetcher: typeof fetch = fetch): Promise<boolean> {
  try {
    const response = await fetcher(buildManifestPath, { cache: "no-store" });
    if (!response.ok) return false;
    const { buildId } = (await response.json()) as { buildId?: string };
    return Boolean(buildId) && buildId !== currentBuildId();
  } catch {
    return false;
  }
}

export async function reloadForNewBuild(targetPath: string): Promise<boolean> {
  if (!(await newerBuildExists())) return false;
  const last = Number(sessionStorage.getItem(reloadStampKey) ?? Number.NaN);
  const now = Date.now();
  if (!mayReload(Number.isNaN(last) ? undefined : last, now)) return false;
  sessionStorage.setItem(reloadStampKey, String(now));
  window.location.assign(targetPath);
  return true;
}

/** Starts watching; `target` returns the path being navigated to (or the current one). */
export function watchBuilds(target: () => string, onNewBuild: () => void): () => void {
  const onChunkError = (reason: unknown, event?: Event) => {
    if (!isChunkLoadError(reason)) return;
    event?.preventDefault();
    void reloadForNewBuild(target());
  };
  const onPreloadError = (event: Event) => onChunkError((event as Event & { payload?: unknown }).payload ?? "Unable to preload CSS", event);
  const onRejection = (event: PromiseRejectionEvent) => onChunkError(event.reason, event);
  const poll = async () => {
    if (document.visibilityState === "visible" && (await newerBuildExists())) onNewBuild();
  };
  window.addEventListener("vite:preloadError", onPreloadError);
  window.addEventListener("unhandledrejection", onRejection);
  document.addEventListener("visibilitychange", poll);
  const timer = window.setInterval(poll, pollIntervalMs);
  return () => {
    window.removeEventListener("vite:preloadError", onPreloadError);
    window.removeEventListener("unhandledrejection", onRejection);
    document.removeEventListener("visibilitychange", poll);
    window.clearInterval(timer);
  };
}

import { describe, expect, it } from "vitest";
import { isChunkLoadError, mayReload, reloadGuardMs } from "./build-watch.ts";

describe("release watch", () => {
  it("recognises chunk-load failures of the browsers we support", () => {
    expect(isChunkLoadError(new TypeError("Failed to fetch dynamically imported module: /assets/x.js"))).toBe(true);
    expect(isChunkLoadError(new TypeError("Importing a module script failed."))).toBe(true);
    expect(isChunkLoadError(new Error("error loading dynamically imported module"))).toBe(true);
    expect(isChunkLoadError(new Error("Cannot read properties of undefined"))).toBe(false);
  });

  it("reloads at most once per 10 seconds", () => {
    expect(reloadGuardMs).toBe(10_000);
    expect(mayReload(undefined, 1_000)).toBe(true);
    expect(mayReload(1_000, 5_000)).toBe(false);
    expect(mayReload(1_000, 11_000)).toBe(true);
  });
});

import { describe, expect, it } from "vitest";
import { z } from "zod";
import { globalConfig } from "zod/v4/core";
import { configureZodForBrowser } from "./zod-browser.ts";

describe("zod in the browser", () => {
  it("switches zod's own configuration to jitless (the object z.config changes)", () => {
    const before = globalConfig.jitless;
    try {
      configureZodForBrowser();
      expect(z.config().jitless).toBe(true);
      expect((globalThis as { __zod_globalConfig?: unknown }).__zod_globalConfig).toBe(globalConfig);
    } finally {
      z.config({ jitless: before });
    }
  });
});

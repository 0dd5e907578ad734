import { describe, expect, it } from "vitest";
import "../registrations.ts";
import { defineJob, defineTestJob, registeredJob, registeredJobs } from "./registry.ts";

describe("the job registry", () => {
  it("holds every job of the product with its schedule and retry policy", () => {
    const product = registeredJobs().filter((job) => !job.name.startsWith("test-"));
    expect(product.map((job) => [job.name, job.schedule ?? null]).sort()).toEqual([
      ["bill-ads", "10 16 * * *"],
      ["expire-memberships", "*/5 * * * *"],
      ["expire-payments", "* * * * *"],
      ["find-rings", "40 18 * * *"],
      ["hourly-maintenance", "0 * * * *"],
      ["intelligence-scores", "55 18 * * *"],
      ["mission-periods", "0 16 * * *"],
      ["prune-events", "30 19 * * *"],
      ["publish-announcements", "* * * * *"],
      ["refresh-formula-excerpts", null],
      ["rollup-check", "15 19 * * *"],
      ["send-payouts", "* * * * *"],
      ["settle-income", "7 * * * *"],
      ["trade-auto-approve", "*/5 * * * *"],
      ["trade-deadlines", "* * * * *"],
    ]);
    expect(registeredJob("expire-payments").retry).toEqual({ limit: 2, delaySeconds: 10, backoff: true });
  });

  it("is sealed once the registrations are loaded, and names are checked", () => {
    expect(() => defineJob({ name: "late-job", run: async () => {} })).toThrow("after the registrations were sealed");
    expect(() => defineTestJob({ name: "not-a-test", run: async () => {} })).toThrow('starts with "test-"');
    expect(() => registeredJob("no-such-job")).toThrow("not registered");
  });
});

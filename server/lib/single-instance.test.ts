import { describe, expect, it } from "vitest";
import { assertSingleInstances, countInstance, duplicatedModules } from "./single-instance.ts";

describe("single module instances", () => {
  it("reports a stateful module that was instantiated twice", () => {
    countInstance("test-probe-once");
    expect(duplicatedModules()).not.toContain("test-probe-once");
    countInstance("test-probe-twice");
    countInstance("test-probe-twice");
    expect(duplicatedModules()).toContain("test-probe-twice");
    expect(() => assertSingleInstances()).toThrow(/test-probe-twice/);
  });
});

import { describe, expect, it } from "vitest";
import { parseTrustProxy } from "./config.ts";

describe("TRUST_PROXY", () => {
  it("is off when unset, a hop count when a number, and a list of proxies otherwise", () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy("")).toBe(false);
    expect(parseTrustProxy("0")).toBe(false);
    expect(parseTrustProxy("1")).toBe(1);
    expect(parseTrustProxy(" 2 ")).toBe(2);
    expect(parseTrustProxy("10.0.0.0/8, 127.0.0.1,::1, fd00::/8, loopback")).toEqual([
      "10.0.0.0/8",
      "127.0.0.1",
      "::1",
      "fd00::/8",
      "loopback",
    ]);
  });

  it("refuses what would trust the client's own X-Forwarded-For entries, or what is no address", () => {
    for (const value of ["true", "yes", "10.0.0.0/33", "1.2.3", "10.0.0.1/8/1", "proxy.example"]) {
      expect(() => parseTrustProxy(value), value).toThrow(/TRUST_PROXY must be a number of proxies/);
    }
  });
});

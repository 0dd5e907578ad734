import { describe, expect, it } from "vitest";
import { splitPaywall } from "./split.ts";

describe("the paywall line", () => {
  it("splits a paid writing at its first paywall line", () => {
    expect(splitPaywall("free\n<!-- paywall -->\npaid\n<!-- paywall -->\nmore", 5)).toEqual({
      free: "free\n",
      paid: "\npaid\n<!-- paywall -->\nmore",
    });
  });

  it("leaves a free writing (or one without the line) whole", () => {
    expect(splitPaywall("all\n  <!--paywall-->  \nof it", 0)).toEqual({ free: "all\n\nof it", paid: null });
    expect(splitPaywall("no line", 5)).toEqual({ free: "no line", paid: null });
  });
});

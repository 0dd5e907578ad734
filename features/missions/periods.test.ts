import { describe, expect, it } from "vitest";
import { claimablePeriods, periodAt, periodBefore } from "./periods.ts";

describe("mission periods in Asia/Shanghai", () => {
  it("a day starts at Shanghai midnight (16:00 UTC the day before)", () => {
    const period = periodAt("daily", new Date("2026-12-07T15:59:59Z"));
    expect(period.start.toISOString()).toBe("2026-12-06T16:00:00.000Z");
    expect(period.end.toISOString()).toBe("2026-12-07T16:00:00.000Z");
    expect(periodAt("daily", new Date("2026-12-07T16:00:00Z")).start.toISOString()).toBe("2026-12-07T16:00:00.000Z");
  });

  it("a week starts at Monday midnight in Shanghai", () => {
    // 2026-12-07 is a Monday; 2026-12-06T16:00Z is its midnight in Shanghai.
    expect(periodAt("weekly", new Date("2026-12-06T16:00:00Z")).start.toISOString()).toBe("2026-12-06T16:00:00.000Z");
    expect(periodAt("weekly", new Date("2026-12-06T15:59:59Z")).start.toISOString()).toBe("2026-11-29T16:00:00.000Z");
    const creator = periodAt("creator", new Date("2026-12-10T03:00:00Z"));
    expect(creator.start.toISOString()).toBe("2026-12-06T16:00:00.000Z");
    expect(creator.end.toISOString()).toBe("2026-12-13T16:00:00.000Z");
  });

  it("finished periods stay claimable for 7 days", () => {
    const now = new Date("2026-12-07T03:00:00Z");
    expect(periodBefore("daily", now).start.toISOString()).toBe("2026-12-05T16:00:00.000Z");
    expect(claimablePeriods("daily", now)).toHaveLength(7);
    expect(claimablePeriods("weekly", now)).toHaveLength(1);
  });
});

import { describe, expect, it } from "vitest";
import { reportWeight } from "./weight.ts";

const standing = { accountAgeDays: 0, acceptedAnswers: 0, upheldReports: 0, rejectedReports: 0 };

describe("a report's weight", () => {
  it("grows with the account's age, to full weight at 30 days", () => {
    expect(reportWeight(standing)).toBe(0.2);
    expect(reportWeight({ ...standing, accountAgeDays: 15 })).toBe(0.6);
    expect(reportWeight({ ...standing, accountAgeDays: 400 })).toBe(1);
  });

  it("adds for accepted answers, up to half a report", () => {
    expect(reportWeight({ ...standing, acceptedAnswers: 2 })).toBe(0.4);
    expect(reportWeight({ ...standing, accountAgeDays: 60, acceptedAnswers: 40 })).toBe(1.5);
  });

  it("follows the reporter's record once three reports were decided, between 0.1 and 2", () => {
    const old = { ...standing, accountAgeDays: 60 };
    expect(reportWeight({ ...old, upheldReports: 2, rejectedReports: 0 })).toBe(1);
    expect(reportWeight({ ...old, upheldReports: 3, rejectedReports: 0 })).toBe(1.5);
    expect(reportWeight({ ...old, upheldReports: 0, rejectedReports: 9 })).toBe(0.5);
    expect(reportWeight({ ...standing, rejectedReports: 9 })).toBe(0.1);
    expect(reportWeight({ ...old, acceptedAnswers: 5, upheldReports: 10 })).toBe(2);
  });
});

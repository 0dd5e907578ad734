import { describe, expect, it } from "vitest";
import { formatDate, languageSwitchTarget, localeFromPath, localizePath, negotiateLocale, safeNextPath, stripLocale } from "./locale.ts";

describe("locale paths", () => {
  it("reads the language from the path prefix", () => {
    expect(localeFromPath("/")).toBe("zh-CN");
    expect(localeFromPath("/en")).toBe("en");
    expect(localeFromPath("/en/circles/1")).toBe("en");
    expect(localeFromPath("/english")).toBe("zh-CN");
  });

  it("moves a path between languages", () => {
    expect(stripLocale("/en/circles")).toBe("/circles");
    expect(stripLocale("/en")).toBe("/");
    expect(localizePath("/", "en")).toBe("/en");
    expect(localizePath("/circles", "en")).toBe("/en/circles");
    expect(localizePath("/circles", "zh-CN")).toBe("/circles");
  });

  it("negotiates from the cookie first, then Accept-Language with quality values", () => {
    expect(negotiateLocale("en", "zh-CN")).toBe("en");
    expect(negotiateLocale(undefined, "fr;q=1, en-GB;q=0.8, zh;q=0.5")).toBe("en");
    expect(negotiateLocale(undefined, "zh-TW,en;q=0.9")).toBe("zh-CN");
    expect(negotiateLocale("xx", undefined)).toBe("zh-CN");
  });

  it("shows dates in Asia/Shanghai", () => {
    expect(formatDate("2026-01-01T17:30:00Z", "en", { dateStyle: "medium", timeStyle: "short" })).toMatch(/Jan 2, 2026.*1:30/);
    expect(formatDate("2026-01-01T17:30:00Z", "zh-CN")).toBe("2026年1月2日");
  });
});

describe("language switch and return paths", () => {
  it("goes to the same page in the chosen language", () => {
    expect(languageSwitchTarget("en", "/circles/3?tab=hot")).toEqual({ locale: "en", path: "/en/circles/3?tab=hot" });
    expect(languageSwitchTarget("zh-CN", "/en/circles")).toEqual({ locale: "zh-CN", path: "/circles" });
    expect(languageSwitchTarget(undefined, "/en/about")).toEqual({ locale: "zh-CN", path: "/about" });
  });

  it("never leaves the site", () => {
    expect(languageSwitchTarget("en", "//evil.example/x").path).toBe("/en");
    expect(languageSwitchTarget("en", "https://evil.example").path).toBe("/en");
    expect(safeNextPath("/\\evil.example")).toBeNull();
    expect(safeNextPath("/account/home")).toBe("/account/home");
    for (const sneaky of [
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r\n/x",
      "/ /evil.example",
      "/\u0000",
      "\t//evil.example",
      "/%09/x".replace("%09", "\u0085"),
    ]) {
      expect(safeNextPath(sneaky), JSON.stringify(sneaky)).toBeNull();
      expect(languageSwitchTarget("zh-CN", sneaky).path).toBe("/");
    }
  });

  it("judges the path after dot segments are resolved: it must not become protocol-relative", () => {
    for (const sneaky of [
      "/..//evil.com",
      "/%2e%2e/%2e%2e//evil.com",
      "/.//evil.com",
      "/%2E//evil.com",
      "/a/..//evil.com",
      "/./%2e/..//evil.com/x?y=1",
    ]) {
      expect(safeNextPath(sneaky), sneaky).toBeNull();
      expect(languageSwitchTarget("zh-CN", sneaky).path, sneaky).toBe("/");
      expect(languageSwitchTarget("en", sneaky).path, sneaky).toBe("/en");
    }
    // Harmless dot segments still resolve to the page they name.
    expect(safeNextPath("/circles/../about")).toBe("/about");
    expect(safeNextPath("/en/./circles")).toBe("/en/circles");
  });

  it("never answers a protocol-relative target, even when the language prefix is taken off", () => {
    for (const sneaky of ["/en//evil.com", "/en/%2e//evil.com", "/en/\\evil.com"]) {
      const { path } = languageSwitchTarget("zh-CN", sneaky);
      expect(path, sneaky).toBe("/");
    }
    expect(languageSwitchTarget("zh-CN", "/en/circles/1").path).toBe("/circles/1");
  });

  it("returns paths ready for a Location header", () => {
    expect(safeNextPath("/search?q=数学")).toBe("/search?q=%E6%95%B0%E5%AD%A6");
    expect(safeNextPath("/circles/1?tab=hot#top")).toBe("/circles/1?tab=hot#top");
  });
});

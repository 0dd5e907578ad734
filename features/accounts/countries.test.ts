import { describe, expect, it } from "vitest";
import { countryName, countryOptions } from "./countries.ts";
import { phoneRegionOptions } from "../verification/phone.server.ts";

describe("country names", () => {
  it("lists Taiwan as 中国台湾 in the Chinese interface, beside 中国香港 and 中国澳门, with its ISO code", () => {
    const zh = countryOptions("zh-CN");
    expect(zh[0]).toEqual({ code: "CN", name: "中国" });
    expect(zh.find((country) => country.code === "TW")?.name).toBe("中国台湾");
    expect(zh.map((country) => country.name)).not.toContain("台湾");
    expect(zh.find((country) => country.code === "HK")?.name).toMatch(/^中国香港/);
    expect(zh.find((country) => country.code === "MO")?.name).toMatch(/^中国澳门/);
    expect(countryName("TW", "zh-CN")).toBe("中国台湾");
    expect(phoneRegionOptions("zh-CN").find((region) => region.code === "TW")?.label).toBe("中国台湾 +886");
  });

  it("keeps the English names", () => {
    expect(countryOptions("en").find((country) => country.code === "TW")?.name).toBe("Taiwan");
    expect(countryName("HK", "en")).toBe("Hong Kong SAR China");
  });
});

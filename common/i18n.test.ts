import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { translator } from "./i18n.ts";
import { errorStatus } from "./app-error.ts";

const localesDirectory = path.resolve(import.meta.dirname, "locales");

/** Flattened keys; plural suffixes are folded because Chinese has only the "other" form. */
function keys(value: unknown, prefix = ""): string[] {
  if (Array.isArray(value)) return [`${prefix}[${value.length}]`];
  if (value && typeof value === "object") return Object.entries(value).flatMap(([key, child]) => keys(child, prefix ? `${prefix}.${key}` : key));
  return [prefix.replace(/_(zero|one|two|few|many|other)$/, "")];
}

describe("translation catalogs", () => {
  const namespaces = readdirSync(path.join(localesDirectory, "zh-CN"));

  it("have the same files in both languages", () => {
    expect(readdirSync(path.join(localesDirectory, "en")).sort()).toEqual([...namespaces].sort());
  });

  it.each(namespaces)("%s has every key in both languages", (file) => {
    const zh = JSON.parse(readFileSync(path.join(localesDirectory, "zh-CN", file), "utf8"));
    const en = JSON.parse(readFileSync(path.join(localesDirectory, "en", file), "utf8"));
    expect([...new Set(keys(en))].sort()).toEqual([...new Set(keys(zh))].sort());
  });

  it("has a message for every error code in both languages", () => {
    for (const locale of ["zh-CN", "en"] as const) {
      const t = translator(locale);
      for (const code of Object.keys(errorStatus)) expect(t(`errors:${code}`), `${locale} ${code}`).not.toBe(code);
    }
  });

  it("uses the spec's wording", () => {
    expect(translator("en")("common:error.not_found_message")).toBe("The page you are looking for doesnt exist or an other error occurred.");
    expect(translator("en")("validation:passwords_not_matching")).toBe("Passwords are not matching!");
  });
});

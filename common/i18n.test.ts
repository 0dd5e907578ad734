import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { translator } from "./i18n.ts";
import { errorStatus } from "./app-error.ts";

const localesDirectory = path.resolve(import.meta.dirname, "locales");

/** Flattened keys; plural suffixes are folded because Chinese has only the "other" form. */
function keys(value: unknown, prefix = ""): string[] {
  if (Array.isArray(value)) return [`${prefix}[${value.length}]`];
  if (value && typeof value === "object")
    return Object.entries(value).flatMap(([key, child]) => keys(child, prefix ? `${prefix}.${key}` : key));
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

  it("spaces Latin words from Chinese ones in mixed sentences, and leaves Chinese values unspaced", () => {
    const t = translator("zh-CN");
    expect(t("common:menu.avatar_alt", { name: "alice" })).toBe("alice 的头像");
    expect(t("common:menu.avatar_alt", { name: "小明" })).toBe("小明的头像");
    expect(t("common:circles.logo_alt", { name: "Rust 2024" })).toBe("Rust 2024 的标志");
  });

  it("marks every value put right beside a Chinese character for spacing (values that are always Chinese aside)", () => {
    // `{{name}}` touching a Chinese character would print "添加English版本"; the spacing formats
    // (common/i18n.ts) print "添加 English 版本". Only values that are Chinese words themselves are left bare.
    const alwaysChinese = new Set([
      "books.json write.state_current",
      // `{{kind}}` is a translated kind word ("文章", "回答").
      ...["comment", "reply", "at", "like", "like_comment", "favorite", "favorite_comment"].map(
        (key) => `centre.json messages.about.${key}_before`,
      ),
    ]);
    const bare = /[\u4e00-\u9fff]\{\{[^},]+\}\}|\{\{[^},]+\}\}[\u4e00-\u9fff]/;
    const unspaced = namespaces.flatMap((file) =>
      entries(JSON.parse(readFileSync(path.join(localesDirectory, "zh-CN", file), "utf8")), file)
        .filter(([, text]) => bare.test(text))
        .map(([key]) => key.replace(`${file}.`, `${file} `))
        .filter((key) => !alwaysChinese.has(key)),
    );
    expect(unspaced).toEqual([]);
  });

  it("says the spec's sentences in correct English", () => {
    const t = translator("en");
    expect(t("common:error.not_found_message")).toBe("The page you are looking for doesn't exist or another error occurred.");
    expect(t("common:error.return_home")).toBe("Return to home page");
    expect(t("common:site.free_notice")).toBe("Everything here is free for now.");
  });

  it("names the sinecoin 圈币 on every Chinese page, and nothing else", () => {
    const texts = (locale: string) =>
      new Map(namespaces.flatMap((file) => entries(JSON.parse(readFileSync(path.join(localesDirectory, locale, file), "utf8")), file)));
    const zh = texts("zh-CN");
    // The spec's Latin name and the translations it has been given elsewhere.
    const otherNames = /sine\s*coin|正弦币|新币|圣币|赛恩币|塞恩币|西恩币|辛币|信币|心币/i;
    expect([...zh.values()].filter((text) => otherNames.test(text))).toEqual([]);
    // Wherever the English text names the sinecoin, the Chinese one says 圈币.
    const mentions = [...texts("en")].filter(([, text]) => /sinecoin/i.test(text)).map(([key]) => [key, zh.get(key)]);
    expect(mentions.length).toBeGreaterThanOrEqual(3);
    expect(mentions.filter(([, text]) => !text?.includes("圈币"))).toEqual([]);
  });
});

/** Every string of a catalog with its path, arrays and nested objects included. */
function entries(value: unknown, prefix: string): [string, string][] {
  if (typeof value === "string") return [[prefix, value]];
  if (value && typeof value === "object") return Object.entries(value).flatMap(([key, child]) => entries(child, `${prefix}.${key}`));
  return [];
}

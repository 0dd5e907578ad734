import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import i18next from "i18next";
import { describe, expect, it } from "vitest";
import { getI18n, type TFunction } from "./i18n.ts";
import { locales } from "./locale.ts";

/**
 * Our translator (common/i18n.ts) against i18next, the format the catalogs are written in: every
 * message of every catalog in both languages, with values and without, every plural form, the
 * context forms, defaults and structures, must read exactly the same.
 */
const localesDirectory = path.resolve(import.meta.dirname, "locales");
const files = readdirSync(path.join(localesDirectory, "zh-CN")).map((file) => file.replace(/\.json$/, ""));
const catalog = (locale: string, namespace: string) =>
  JSON.parse(readFileSync(path.join(localesDirectory, locale, `${namespace}.json`), "utf8")) as Record<string, unknown>;

async function reference(locale: string): Promise<TFunction> {
  const instance = i18next.createInstance();
  await instance.init({
    lng: locale,
    fallbackLng: false,
    resources: { [locale]: Object.fromEntries(files.map((namespace) => [namespace, catalog(locale, namespace)])) },
    ns: files,
    defaultNS: "common",
    nsSeparator: ":",
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  instance.services.formatter?.add("spaced", (value) => spaced(String(value), true, true));
  instance.services.formatter?.add("spacedBefore", (value) => spaced(String(value), true, false));
  instance.services.formatter?.add("spacedAfter", (value) => spaced(String(value), false, true));
  return instance.t.bind(instance) as unknown as TFunction;
}

function spaced(text: string, before: boolean, after: boolean): string {
  return `${before && /^[A-Za-z0-9]/.test(text) ? " " : ""}${text}${after && /[A-Za-z0-9]$/.test(text) ? " " : ""}`;
}

/** Each message's key with the plural suffix taken off and the value names its forms use, and the keys of lists. */
function keysOf(value: unknown): { messages: Map<string, Set<string>>; lists: string[] } {
  const messages = new Map<string, Set<string>>();
  const lists: string[] = [];
  const walk = (node: unknown, at: string) => {
    if (typeof node === "string") {
      const key = at.replace(/_(zero|one|two|few|many|other)$/, "");
      const names = messages.get(key) ?? new Set<string>();
      for (const match of node.matchAll(/\{\{-?\s*([^},\s]+)/g)) names.add(match[1]!);
      messages.set(key, names);
    } else if (Array.isArray(node)) lists.push(at);
    else if (node && typeof node === "object") for (const [key, child] of Object.entries(node)) walk(child, at ? `${at}.${key}` : key);
  };
  walk(value, "");
  return { messages, lists };
}

describe("the translator reads the catalogs as i18next does", () => {
  it.each(locales)("every message in %s, with and without values, in every plural form", async (locale) => {
    const theirs = await reference(locale);
    const ours = getI18n(locale);
    for (const namespace of files) {
      if (!ours.hasResourceBundle(locale, namespace)) ours.addResourceBundle(locale, namespace, catalog(locale, namespace));
    }
    let compared = 0;
    for (const namespace of files) {
      const { messages, lists } = keysOf(catalog(locale, namespace));
      for (const key of lists) {
        expect(ours.t(`${namespace}:${key}`, { returnObjects: true })).toEqual(theirs(`${namespace}:${key}`, { returnObjects: true }));
      }
      for (const [key, names] of messages) {
        const full = `${namespace}:${key}`;
        const latin = Object.fromEntries([...names].map((name) => [name, `Value ${name} 1`]));
        const chinese = Object.fromEntries([...names].map((name) => [name, `数值${name}`]));
        const cases: Record<string, unknown>[] = [
          {},
          latin,
          chinese,
          { ...latin, count: 0 },
          { ...latin, count: 1 },
          { ...chinese, count: 7 },
        ];
        for (const options of cases) {
          expect(ours.t(full, options), `${locale} ${full} ${JSON.stringify(options)}`).toBe(theirs(full, options));
          compared++;
        }
        const bound = ours.fixedT([namespace, "common"]);
        expect(bound(key, latin)).toBe(theirs(key, { ...latin, ns: [namespace, "common"] }));
      }
    }
    expect(compared).toBeGreaterThan(5_000);
  });

  it.each(locales)("defaults, missing keys, structures, contexts and values given as nothing in %s", async (locale) => {
    const theirs = await reference(locale);
    const { t } = getI18n(locale);
    const cases: [string | string[], Record<string, unknown>][] = [
      ["common:no.such.key", {}],
      ["common:no.such.key", { defaultValue: "Fallback {{name}}", name: "x" }],
      ["wallet:kind.nothing", { defaultValue: "", title: "t" }],
      [["common:missing_first", "common:menu.avatar_alt"], { name: "alice" }],
      ["common:menu.avatar_alt", { name: undefined }],
      ["common:menu.avatar_alt", { name: null }],
      ["common:menu.avatar_alt", { name: 42 }],
      ["pages:about.features", { returnObjects: true }],
      ["pages:formatting.samples", { returnObjects: true }],
      ["nonexistent_namespace:key", {}],
      ["plain key without namespace", {}],
    ];
    for (const [key, options] of cases) expect(t(key, options), JSON.stringify([key, options])).toEqual(theirs(key, options));
    // A structure asked for as a string: i18next prints a sentence about it (and, from its next
    // version, the key, as for a missing one); ours prints the key.
    expect(t("pages:about.features")).toBe("about.features");
    for (const context of ["minutes", "minutes_seconds", "no_such_context"]) {
      const options = { context, minutes: 3, remainingSeconds: 20 };
      expect(t("errors:too_many_attempts", options), context).toBe(theirs("errors:too_many_attempts", options));
    }
    expect(t("errors:too_many_attempts", { context: "minutes_seconds", minutes: 3, remainingSeconds: 20 })).toContain("20");
  });
});

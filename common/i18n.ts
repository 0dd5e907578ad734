import { locales, type Locale } from "./locale.ts";
/**
 * Our translator: the i18next message format (namespaces `ns:key.path`, `{{value}}` and
 * `{{value, format}}` interpolation, `_one`/`_other` plural keys by `Intl.PluralRules`, `_context`
 * keys, `defaultValue`, `returnObjects`) in a page's worth of code, on the server and in the
 * browser alike. i18next itself was 14 KB of the 127 KB every reading page loaded (over the
 * 120 KB first-load budget); `i18n.test.ts` checks this against i18next key by key for every
 * catalog, so the messages read the same.
 *
 * No catalog is imported here: they are registered per language (`registerCatalogs`). The server
 * registers both languages (`i18n-core.ts`); a browser only its page's language (the language's
 * layout route imports `i18n-core-zh.ts` or `i18n-core-en.ts`), so no page ships the other
 * language's texts. Forms bring `i18n-forms.ts`; long page texts live in namespaces their routes
 * add (see addCatalog).
 */
export const namespaces = ["common", "accounts", "validation", "errors"] as const;

const defaultNamespace = "common";

/** What `t` accepts besides the values it puts into the message. */
export interface TranslateOptions {
  count?: number;
  context?: string;
  defaultValue?: string;
  returnObjects?: boolean;
  /** The namespaces searched, in order, for a key without its own `ns:` prefix. */
  ns?: string | readonly string[];
  [value: string]: unknown;
}

export interface TFunction {
  /** With `returnObjects`, the catalog's structure (lists and records of messages) as it is stored. */
  (key: string | readonly string[], options: TranslateOptions & { returnObjects: true }): unknown;
  (key: string | readonly string[], options?: TranslateOptions): string;
}

/** One language's translator and catalogs. */
export interface I18n {
  readonly language: Locale;
  readonly t: TFunction;
  /** `t` bound to namespaces, as `useTranslation(ns)` gives it (the same function for the same namespaces). */
  fixedT(ns?: string | readonly string[]): TFunction;
  hasResourceBundle(locale: Locale, namespace: string): boolean;
  addResourceBundle(locale: Locale, namespace: string, catalog: object): void;
}

type Catalog = Record<string, unknown>;

/**
 * Shared by the server (error messages) and the pages (through the React provider in
 * `app/lib/i18n.tsx`). One instance per locale, created once: requests never switch a shared
 * instance's language, so concurrent server renders cannot leak one language into another.
 */
const instances = new Map<Locale, I18n>();
const registered = new Map<Locale, Record<string, object>>();

/** Registers a language's core catalogs (idempotent): before or after its instance exists. */
export function registerCatalogs(locale: Locale, catalogs: Record<string, object>): void {
  registered.set(locale, { ...registered.get(locale), ...catalogs });
  const instance = instances.get(locale);
  if (!instance) return;
  for (const [namespace, catalog] of Object.entries(catalogs)) {
    if (!instance.hasResourceBundle(locale, namespace)) instance.addResourceBundle(locale, namespace, catalog);
  }
}

export function getI18n(locale: Locale): I18n {
  let instance = instances.get(locale);
  if (!instance) {
    instance = createInstance(locale, { ...registered.get(locale) });
    instances.set(locale, instance);
  }
  return instance;
}

/** Adds a route's own namespace to both locales (idempotent). */
export function addCatalog(namespace: string, catalogs: Record<Locale, object>): void {
  for (const locale of locales) {
    const instance = getI18n(locale);
    if (!instance.hasResourceBundle(locale, namespace)) instance.addResourceBundle(locale, namespace, catalogs[locale]);
  }
}

export function translator(locale: Locale): TFunction {
  return getI18n(locale).t;
}

function createInstance(locale: Locale, store: Record<string, object>): I18n {
  const plurals = new Intl.PluralRules(locale);
  const fixed = new Map<string, TFunction>();

  /** The value at a dotted path; a key that itself holds dots is found too ("a.b" under "x"). */
  const lookup = (node: unknown, path: string): unknown => {
    if (node === null || typeof node !== "object") return undefined;
    const catalog = node as Catalog;
    if (Object.hasOwn(catalog, path)) return catalog[path];
    for (let dot = path.indexOf("."); dot !== -1; dot = path.indexOf(".", dot + 1)) {
      const head = path.slice(0, dot);
      if (!Object.hasOwn(catalog, head)) continue;
      const found = lookup(catalog[head], path.slice(dot + 1));
      if (found !== undefined) return found;
    }
    return undefined;
  };

  /** The first stored value for the key: context and plural forms first, as i18next tries them. */
  const resolve = (key: string, options: TranslateOptions): unknown => {
    const separator = key.indexOf(":");
    const own = separator === -1 ? null : key.slice(0, separator);
    const path = separator === -1 ? key : key.slice(separator + 1);
    const searched = own !== null ? [own] : options.ns === undefined ? [defaultNamespace] : [options.ns].flat();
    const count = typeof options.count === "number" ? options.count : undefined;
    const plural = count === undefined ? "" : `_${plurals.select(count)}`;
    const candidates = [path];
    if (count !== undefined) candidates.push(path + plural, ...(count === 0 ? [`${path}_zero`] : []));
    if (typeof options.context === "string" && options.context !== "") {
      const contextual = `${path}_${options.context}`;
      candidates.push(contextual);
      if (count !== undefined) candidates.push(contextual + plural, ...(count === 0 ? [`${contextual}_zero`] : []));
    }
    for (const namespace of searched) {
      for (let index = candidates.length - 1; index >= 0; index--) {
        const found = lookup(store[namespace], candidates[index]!);
        if (found !== undefined && found !== null) return found;
      }
    }
    return undefined;
  };

  const translate = (keys: string | readonly string[], options: TranslateOptions = {}): unknown => {
    const list = typeof keys === "string" ? [keys] : keys;
    let found: unknown;
    for (const key of list) {
      found = resolve(key, options);
      if (found !== undefined) break;
    }
    const last = list[list.length - 1] ?? "";
    const bare = last.includes(":") ? last.slice(last.indexOf(":") + 1) : last;
    if (found === undefined) found = options.defaultValue;
    if (found === undefined) return bare;
    if (typeof found === "object") {
      // Not a string: the caller asked for the structure (the FAQ's items, a page's lists).
      return options.returnObjects ? interpolateAll(found, options) : bare;
    }
    return interpolate(String(found), options);
  };

  const t = translate as TFunction;

  const interpolateAll = (value: unknown, options: TranslateOptions): unknown => {
    if (typeof value === "string") return interpolate(value, options);
    if (Array.isArray(value)) return value.map((item) => interpolateAll(item, options));
    if (value && typeof value === "object")
      return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolateAll(item, options)]));
    return value;
  };

  return {
    language: locale,
    t,
    fixedT(ns) {
      if (ns === undefined) return t;
      const name = [ns].flat().join(",");
      let bound = fixed.get(name);
      if (!bound) {
        bound = (keys, options) => t(keys, { ns, ...options });
        fixed.set(name, bound);
      }
      return bound;
    },
    hasResourceBundle: (of, namespace) => of === locale && Object.hasOwn(store, namespace),
    addResourceBundle(of, namespace, catalog) {
      if (of === locale) store[namespace] = catalog;
    },
  };
}

const placeholder = /\{\{-?([^{}]+)\}\}/g;

/**
 * `{{name}}` and `{{name, format}}`, values as given (React escapes what it prints). A value that
 * was not passed (or passed as undefined to a formatted placeholder) leaves its placeholder as it
 * is, as i18next does; one passed as undefined or null prints nothing.
 */
export function interpolate(text: string, values: TranslateOptions): string {
  if (!text.includes("{{")) return text;
  return text.replace(placeholder, (match, inner: string) => {
    const [name = "", format] = inner.split(",").map((part) => part.trim());
    const value = valueAt(values, name);
    if (value === undefined) return Object.hasOwn(values, inner.trim()) ? "" : match;
    const printed = value === undefined || value === null ? "" : String(value as string);
    return format ? formatted(printed, format) : printed;
  });
}

function valueAt(values: TranslateOptions, name: string): unknown {
  if (Object.hasOwn(values, name)) return values[name];
  let node: unknown = values;
  for (const part of name.split(".")) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, part)) return undefined;
    node = (node as Catalog)[part];
  }
  return node;
}

const latinAtStart = /^[A-Za-z0-9]/;
const latinAtEnd = /[A-Za-z0-9]$/;

/**
 * Chinese typesetting puts a space between Chinese and Latin words ("添加 English 版本"). A value
 * put into a Chinese sentence is spaced where it starts or ends with a Latin letter or a digit:
 * `{{name, spaced}}` inside a sentence, `{{name, spacedAfter}}` at its start, `{{name, spacedBefore}}`
 * at its end; a Chinese value ("添加中文版本") stays unspaced.
 */
function formatted(text: string, format: string): string {
  const before = format === "spaced" || format === "spacedBefore";
  const after = format === "spaced" || format === "spacedAfter";
  if (!before && !after) return text;
  return `${before && latinAtStart.test(text) ? " " : ""}${text}${after && latinAtEnd.test(text) ? " " : ""}`;
}

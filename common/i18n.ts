import i18next, { type i18n as I18n, type TFunction } from "i18next";
import { locales, type Locale } from "./locale.ts";
/**
 * The namespaces each instance starts with. No catalog is imported here: they are registered per
 * language (`registerCatalogs`). The server registers both languages (`i18n-core.ts`); a browser
 * only its page's language (the language's layout route imports `i18n-core-zh.ts` or
 * `i18n-core-en.ts`), so no page ships the other language's texts. Forms bring `i18n-forms.ts`;
 * long page texts live in namespaces their routes add (see addCatalog).
 */
export const namespaces = ["common", "accounts", "validation", "errors"] as const;

/**
 * Shared by the server (error messages) and the pages (through react-i18next's provider).
 * One i18next instance per locale, created once: requests never switch a shared instance's
 * language, so concurrent server renders cannot leak one language into another.
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
    instance = i18next.createInstance();
    instance.init({
      lng: locale,
      fallbackLng: false,
      resources: { [locale]: registered.get(locale) ?? {} },
      ns: [...namespaces],
      defaultNS: "common",
      nsSeparator: ":",
      interpolation: { escapeValue: false },
      initAsync: false,
      returnNull: false,
    });
    addSpacingFormats(instance);
    instances.set(locale, instance);
  }
  return instance;
}

const latinAtStart = /^[A-Za-z0-9]/;
const latinAtEnd = /[A-Za-z0-9]$/;

/**
 * Chinese typesetting puts a space between Chinese and Latin words ("添加 English 版本"). A value
 * put into a Chinese sentence is spaced where it starts or ends with a Latin letter or a digit:
 * `{{name, spaced}}` inside a sentence, `{{name, spacedAfter}}` at its start, `{{name, spacedBefore}}`
 * at its end; a Chinese value ("添加中文版本") stays unspaced.
 */
function addSpacingFormats(instance: I18n): void {
  const formatter = instance.services.formatter;
  if (!formatter) return;
  const pad = (before: boolean, after: boolean) => (value: unknown) => {
    const text = String(value ?? "");
    return `${before && latinAtStart.test(text) ? " " : ""}${text}${after && latinAtEnd.test(text) ? " " : ""}`;
  };
  formatter.add("spaced", pad(true, true));
  formatter.add("spacedBefore", pad(true, false));
  formatter.add("spacedAfter", pad(false, true));
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

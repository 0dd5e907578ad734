import i18next, { type i18n as I18n, type TFunction } from "i18next";
import { locales, type Locale } from "./locale.ts";
import zhCommon from "./locales/zh-CN/common.json" with { type: "json" };
import zhAccounts from "./locales/zh-CN/accounts.json" with { type: "json" };
import zhValidation from "./locales/zh-CN/validation.json" with { type: "json" };
import zhErrors from "./locales/zh-CN/errors.json" with { type: "json" };
import enCommon from "./locales/en/common.json" with { type: "json" };
import enAccounts from "./locales/en/accounts.json" with { type: "json" };
import enValidation from "./locales/en/validation.json" with { type: "json" };
import enErrors from "./locales/en/errors.json" with { type: "json" };

/** Catalogs every page needs. Long page texts live in namespaces their routes add (see addCatalog). */
export const coreCatalogs = {
  "zh-CN": { common: zhCommon, accounts: zhAccounts, validation: zhValidation, errors: zhErrors },
  en: { common: enCommon, accounts: enAccounts, validation: enValidation, errors: enErrors },
} as const;

export const namespaces = ["common", "accounts", "validation", "errors"] as const;

/**
 * Shared by the server (error messages) and the pages (through react-i18next's provider).
 * One i18next instance per locale, created once: requests never switch a shared instance's
 * language, so concurrent server renders cannot leak one language into another.
 */
const instances = new Map<Locale, I18n>();

export function getI18n(locale: Locale): I18n {
  let instance = instances.get(locale);
  if (!instance) {
    instance = i18next.createInstance();
    instance.init({
      lng: locale,
      fallbackLng: false,
      resources: { [locale]: coreCatalogs[locale] },
      ns: [...namespaces],
      defaultNS: "common",
      nsSeparator: ":",
      interpolation: { escapeValue: false },
      initAsync: false,
      returnNull: false,
    });
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

import { createContext, useContext, type ReactNode } from "react";
import { getI18n, type I18n, type TFunction } from "../../common/i18n.ts";
import { defaultLocale } from "../../common/locale.ts";

const I18nContext = createContext<I18n | null>(null);

/** Gives the page's language to every `useTranslation` below it (the root layout sets it). */
export function I18nProvider({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  return <I18nContext.Provider value={i18n}>{children}</I18nContext.Provider>;
}

/**
 * The page language's `t`, bound to the given namespaces (searched in order for a key without its
 * own `ns:` prefix; `common` when none are given), and the language itself.
 */
export function useTranslation(ns?: string | readonly string[]): { t: TFunction; i18n: I18n } {
  const i18n = useContext(I18nContext) ?? getI18n(defaultLocale);
  return { t: i18n.fixedT(ns), i18n };
}

import { useMemo, type ReactNode } from "react";
import { ConfigProvider, theme as antdTheme } from "antd";
import type { Locale as AntdLocale } from "antd/es/locale";
import zhCNModule from "antd/locale/zh_CN";
import enUSModule from "antd/locale/en_US";
import { useTranslation } from "../lib/i18n.tsx";
import { lightTokens, themeConfig } from "../lib/theme.ts";
import { EyeIcon, EyeOffIcon } from "./icons.tsx";

/**
 * The server imports antd's locale files as CommonJS, where the locale is the module's `default`;
 * the browser build gets the locale itself.
 */
const moduleDefault = (locale: AntdLocale): AntdLocale => (locale as AntdLocale & { default?: AntdLocale }).default ?? locale;
const zhCN = moduleDefault(zhCNModule);
const enUS = moduleDefault(enUSModule);

/** The password eye draws our icons, hidden from screen readers (antd's are named in English). */
const passwordIcon = (visible: boolean) => (visible ? <EyeIcon /> : <EyeOffIcon />);

/**
 * Ant Design's theme and locale for the part of a page that uses its components. The shell and
 * the read-only pages are plain HTML and CSS, so they load none of Ant Design's JavaScript.
 */
export function AntdScope({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation("common");
  const locale = useMemo(() => {
    const base = i18n.language === "en" ? enUS : zhCN;
    // antd names the password eye with global.show/hide (only the password box uses them): say what it shows.
    return { ...base, global: { ...base.global, show: t("form.show_password"), hide: t("form.hide_password") } };
  }, [i18n.language, t]);
  return (
    <ConfigProvider
      theme={{ ...themeConfig, token: { ...themeConfig.token, ...lightTokens }, algorithm: antdTheme.defaultAlgorithm }}
      locale={locale}
      button={{ autoInsertSpace: false }}
      inputPassword={{ iconRender: passwordIcon }}
    >
      {children}
    </ConfigProvider>
  );
}

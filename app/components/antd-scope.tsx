import type { ReactNode } from "react";
import { ConfigProvider, theme as antdTheme } from "antd";
import zhCN from "antd/locale/zh_CN";
import enUS from "antd/locale/en_US";
import { useTranslation } from "react-i18next";
import { lightTokens, themeConfig } from "../lib/theme.ts";

/**
 * Ant Design's theme and locale for the part of a page that uses its components. The shell and
 * the read-only pages are plain HTML and CSS, so they load none of Ant Design's JavaScript.
 */
export function AntdScope({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation();
  return (
    <ConfigProvider theme={{ ...themeConfig, token: { ...themeConfig.token, ...lightTokens }, algorithm: antdTheme.defaultAlgorithm }} locale={i18n.language === "en" ? enUS : zhCN} button={{ autoInsertSpace: false }}>
      {children}
    </ConfigProvider>
  );
}

import { writeFileSync } from "node:fs";
import path from "node:path";
import { createElement, type ReactElement } from "react";
import { ConfigProvider, theme as antdTheme } from "antd";
import { extractStyle } from "@ant-design/static-style-extract";
import { darkTokens, lightTokens, themeConfig, styledComponents } from "../app/lib/theme.ts";

/**
 * Writes Ant Design's CSS for our theme before the Vite build, which then hashes and links it:
 * antd.generated.css (light, all components) and antd-dark.generated.css (only the dark
 * variables, linked with media="(prefers-color-scheme: dark)"), so no page flashes unstyled.
 */
process.env.NODE_ENV = "production";
const outDirectory = path.resolve(import.meta.dirname, "../app/styles");

const render = (algorithm: typeof antdTheme.darkAlgorithm, tokens: object) => (node: ReactElement) =>
  createElement(
    ConfigProvider,
    { theme: { ...themeConfig, token: { ...themeConfig.token, ...tokens }, zeroRuntime: false, algorithm } },
    node,
  );

const light = extractStyle({ customTheme: render(antdTheme.defaultAlgorithm, lightTokens), includes: [...styledComponents] });
const dark = extractStyle({ customTheme: render(antdTheme.darkAlgorithm, darkTokens), includes: [...styledComponents] });

writeFileSync(path.join(outDirectory, "antd.generated.css"), light);
writeFileSync(path.join(outDirectory, "antd-dark.generated.css"), variableRules(dark));
console.log(
  `antd styles: ${(light.length / 1024).toFixed(0)} KiB light, dark variables ${(variableRules(dark).length / 1024).toFixed(0)} KiB`,
);

/** Keeps only the rules that declare CSS variables: in cssVar mode the dark theme differs only there. */
function variableRules(css: string): string {
  const rules: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < css.length; index++) {
    const character = css[index];
    if (character === "{") depth++;
    else if (character === "}" && --depth === 0) {
      const rule = css.slice(start, index + 1);
      const body = rule.slice(rule.indexOf("{") + 1, -1);
      if (/^\s*(--[\w-]+\s*:[^;]*;?\s*)+$/.test(body)) rules.push(rule.trim());
      start = index + 1;
    }
  }
  return rules.join("\n");
}

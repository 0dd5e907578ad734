import type { ThemeConfig } from "antd";

export const primaryColor = "#1E90FF";
/** The primary colour's shade for text and filled buttons: 5.2:1 against white (WCAG AA). */
export const primaryTextColor = "#0A6CD0";

/**
 * Shared by the build-time style extraction and the runtime ConfigProvider: the fixed cssVar key,
 * `hashed: false` and `zeroRuntime` make the server-rendered markup match the extracted CSS file,
 * so pages are styled before (and without) JavaScript.
 */
export const themeConfig: ThemeConfig = {
  token: { colorPrimary: primaryColor, borderRadius: 8 },
  cssVar: { key: "circles" },
  hashed: false,
  zeroRuntime: true,
  components: {
    // Light tooltips.
    Tooltip: { colorBgSpotlight: "#ffffff", colorTextLightSolid: "rgba(0, 0, 0, 0.88)" },
    // White text on a filled button needs the darker shade to stay readable.
    Button: { colorPrimary: primaryTextColor, colorPrimaryHover: primaryColor, colorPrimaryActive: "#0858A8" },
  },
};

/** Token overrides per colour scheme, for contrast: secondary text at 0.62 opacity instead of 0.45. */
export const lightTokens = { colorLink: primaryTextColor, colorTextDescription: "rgba(0, 0, 0, 0.62)", colorTextTertiary: "rgba(0, 0, 0, 0.62)" };
export const darkTokens = { colorLink: primaryColor, colorTextDescription: "rgba(255, 255, 255, 0.62)", colorTextTertiary: "rgba(255, 255, 255, 0.62)" };

/** The Ant Design components whose CSS the build extracts; add a component here when a page starts using it. */
export const styledComponents = ["Alert", "Button", "Checkbox", "Divider", "Form", "Input", "Radio", "Select", "Space", "Tooltip", "Typography"] as const;

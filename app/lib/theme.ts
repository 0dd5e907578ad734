import type { ThemeConfig } from "antd";

export const primaryColor = "#1E90FF";

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
  },
};

/** The Ant Design components whose CSS the build extracts; add a component here when a page starts using it. */
export const styledComponents = [
  "Alert", "Avatar", "Badge", "Breadcrumb", "Button", "Card", "Checkbox", "Divider", "Dropdown", "Empty", "Form", "Input",
  "Layout", "List", "Menu", "Radio", "Result", "Select", "Space", "Tabs", "Tag", "Tooltip", "Typography",
] as const;

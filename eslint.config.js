import js from "@eslint/js";
import tseslint from "typescript-eslint";

/**
 * Layers, lowest first: common/ (locale, translator, error codes: imports no other layer) →
 * server/db, server/lib (infrastructure) → features/ (domains) → app/ (pages) and server/app.ts +
 * server/plugins (the composition root). A layer never imports one above it. Our imports are
 * relative paths, so each rule names the folders a file of that layer must not reach.
 */
/** Pages and messages translate through `common/i18n.ts` and `app/lib/i18n.tsx` (i18next's format, our code). */
const translators = ["i18next", "react-i18next"].map((name) => ({
  name,
  message: "Translate with common/i18n.ts (server) or useTranslation from app/lib/i18n.tsx (pages).",
}));
const layer = (files, patterns, message) => ({
  files,
  rules: { "no-restricted-imports": ["error", { paths: translators, patterns: [{ group: patterns, message }] }] },
});
const boundaries = [
  layer(
    ["common/**"],
    ["**/app/**", "**/server/**", "**/features/**", "**/tests/**"],
    "common/ is shared by every layer and imports none of them.",
  ),
  layer(
    ["features/**"],
    ["**/app/**", "**/server/plugins/**", "**/server/app.ts", "**/server/main.ts"],
    "Features never import pages or the composition root.",
  ),
  layer(
    ["server/lib/**"],
    ["**/app/**", "**/features/**", "../plugins/**", "**/server/plugins/**"],
    "server/lib is infrastructure: no pages, no domains.",
  ),
  layer(["server/db/**"], ["**/app/**", "**/plugins/**", "../lib/**"], "The database layer imports no pages and no services."),
  layer(["app/routes/**"], ["**/server/db/**"], "Route modules call services; they never touch the database layer."),
  layer(
    ["app/components/**"],
    ["**/server/**", "**/features/*/service.ts", "**/*.server.ts"],
    "Components run in the browser: no server code.",
  ),
];

export default tseslint.config(
  { ignores: ["build/**", "node_modules/**", ".react-router/**", "data/**", "server/db/migrations/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      "no-console": ["error", { allow: ["error", "warn"] }],
    },
  },
  { rules: { "no-restricted-imports": ["error", { paths: translators }] } },
  ...boundaries,
  {
    // The translator's own test reads every catalog with i18next too, to prove they agree.
    files: ["common/i18n-format.test.ts"],
    rules: { "no-restricted-imports": "off" },
  },
  {
    files: ["scripts/**", "bench/**", "tests/**", "server/main.ts"],
    rules: { "no-console": "off" },
  },
);

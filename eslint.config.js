import js from "@eslint/js";
import tseslint from "typescript-eslint";
import importX from "eslint-plugin-import-x";

/**
 * Layers, lowest first: common/ (locale, translator, error codes: imports no other layer) →
 * server/db, server/lib (infrastructure) → features/ (domains) → app/ (pages) and server/app.ts +
 * server/plugins (the composition root). A layer never imports one above it.
 */
const boundaries = [
  { target: "./common", from: ["./app", "./server", "./features", "./tests"], message: "common/ is shared by every layer and imports none of them." },
  { target: "./features", from: ["./app", "./server/plugins", "./server/app.ts", "./server/main.ts"], message: "Features never import pages or the composition root." },
  { target: "./server/lib", from: ["./app", "./features", "./server/plugins"], message: "server/lib is infrastructure: no pages, no domains." },
  { target: "./server/db", from: ["./app", "./server/plugins", "./server/lib/request-facts.ts"], message: "The database layer imports no pages." },
  { target: "./app/routes", from: ["./server/db"], message: "Route modules call services; they never touch the database layer." },
  { target: "./app/components", from: ["./server/**", "./features/*/service.ts", "./features/*/*.server.ts"], message: "Components run in the browser: no server code." },
];

export default tseslint.config(
  { ignores: ["build/**", "node_modules/**", ".react-router/**", "data/**", "server/db/migrations/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { "import-x": importX },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" }],
      "no-console": ["error", { allow: ["error", "warn"] }],
      "import-x/no-restricted-paths": ["error", { zones: boundaries }],
    },
  },
  {
    files: ["scripts/**", "bench/**", "tests/**", "server/main.ts"],
    rules: { "no-console": "off" },
  },
);

import "../../common/i18n-core-en.ts";

/** The site layout of the English pages: it brings that language's core catalogs, and only those. */
export { default, ErrorBoundary } from "./site-layout.tsx";

import "../../common/i18n-core-zh.ts";

/** The site layout of the Chinese pages: it brings that language's core catalogs, and only those. */
export { default, ErrorBoundary } from "./site-layout.tsx";

import type { Route } from "./+types/sitemap";
import { getAppContext } from "../lib/context.server.ts";
import { localizePath, locales } from "../../common/locale.ts";
import { listCircleTree, type CircleNode } from "../../features/circles/service.ts";

const staticPaths = ["/", "/circles", "/about", "/about/privacy", "/help", "/help/formatting", "/app", "/app/download"];

/** Both languages of every public page, with hreflang alternates. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const app = getAppContext(context);
  const origin = new URL(request.url).origin;
  const circlePaths: string[] = [];
  const walk = (nodes: CircleNode[]) => {
    for (const node of nodes) {
      circlePaths.push(`/circles/${node.id}`);
      walk(node.children);
    }
  };
  walk(await listCircleTree(app.db, "zh-CN"));
  const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;");
  const urls = [...staticPaths, ...circlePaths].flatMap((path) =>
    locales.map((locale) => {
      const alternates = locales.map((other) => `<xhtml:link rel="alternate" hreflang="${other}" href="${escape(origin + localizePath(path, other))}"/>`).join("");
      return `<url><loc>${escape(origin + localizePath(path, locale))}</loc>${alternates}</url>`;
    }),
  );
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join("\n")}\n</urlset>\n`;
  return new Response(body, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}

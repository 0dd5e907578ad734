/**
 * Which methods the API answers on a path, so a request with another method gets 405 and an
 * `Allow` header instead of a 404 (Fastify's router only knows "no route").
 */
export class RouteMethods {
  private readonly routes: { pattern: RegExp; methods: Set<string> }[] = [];

  add(url: string, methods: string | string[]): void {
    const source = url
      .split("/")
      .map((segment) => (segment.startsWith(":") ? "[^/]+" : segment === "*" ? ".*" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("/");
    this.routes.push({ pattern: new RegExp(`^${source}$`), methods: new Set(Array.isArray(methods) ? methods : [methods]) });
  }

  /** The methods some route answers on this path (empty when no route has the path at all). */
  allowed(path: string): string[] {
    const methods = new Set<string>();
    for (const route of this.routes) if (route.pattern.test(path)) for (const method of route.methods) methods.add(method);
    return [...methods].sort();
  }
}

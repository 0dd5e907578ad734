import { redirect } from "react-router";
import type { Route } from "./+types/legacy-redirect";
import { getAppContext, here, notFound } from "../lib/context.server.ts";
import { isLocale, pageUrl, stripLocale } from "../../common/locale.ts";

/** Old addresses → the same item under circle 1 (301), in the page's language. */
export function legacyTarget(path: string): string | "invalid" | null {
  const parts = path.split("/").filter(Boolean);
  const id = (value: string | undefined) => value !== undefined && /^\d{1,12}$/.test(value);
  const withLang = (base: string, lang: string | undefined) => (lang === undefined ? base : isLocale(lang) ? `${base}/${lang}` : "invalid");
  const [first, second, third, fourth, fifth, ...rest] = parts;
  if (rest.length > 0) return null;
  if (first === "wiki" && second === "details" && id(third) && fifth === undefined)
    return withLang(`/circles/1/encyclopedia/${third}`, fourth);
  if (first === "books" && id(second) && third === undefined) return `/circles/1/books/${second}`;
  if (first === "books" && id(second) && third === "chapters" && id(fourth) && fifth === undefined)
    return `/circles/1/books/${second}/chapters/${fourth}`;
  if (first === "community" && second === undefined) return "/circles";
  if (first === "community" && second === "circles" && third === undefined) return "/circles";
  if (first === "community" && second === "posts" && id(third) && fourth === undefined) return `/circles/1/posts/${third}`;
  if (first === "community" && second === "questions" && id(third) && fourth === undefined) return `/circles/1/questions/${third}`;
  if ((first === "writing" || first === "writings") && id(second) && fourth === undefined)
    return withLang(`/circles/1/writing/${second}`, third);
  return null;
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const url = pageUrl(request.url);
  const target = legacyTarget(stripLocale(url.pathname));
  if (!target || target === "invalid") notFound(request);
  throw redirect(here(getAppContext(context), target) + url.search, 301);
}

export default function LegacyRedirect() {
  return null;
}

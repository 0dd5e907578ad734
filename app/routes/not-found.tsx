import type { Route } from "./+types/not-found";
import { notFound } from "../lib/context.server.ts";

/** Any address no page claims: the not-found screen with a real 404 status. */
export async function loader({ request }: Route.LoaderArgs) {
  notFound(request);
}

export default function NotFound() {
  return null;
}

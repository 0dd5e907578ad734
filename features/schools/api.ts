import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import { schoolOperation, schoolZoneOperation } from "./operations.ts";

/** The school zone: schools from users' profiles and the Hogwarts houses (public reads). */
export async function schoolsApi(app: FastifyInstance): Promise<void> {
  const tags = ["schools"];
  jsonRoute(app, "GET", "/api/schools/", schoolZoneOperation, {
    tags,
    summary: "Schools named in profiles, with member counts, and the four Hogwarts houses",
    cache: "none",
  });
  jsonRoute(app, "GET", "/api/schools/:name/", schoolOperation, { tags, summary: "One school's members and their newest writings" });
}

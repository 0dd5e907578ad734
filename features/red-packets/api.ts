import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import { claimRedPacketOperation, fundRedPacketOperation } from "./operations.ts";

export async function redPacketsApi(app: FastifyInstance): Promise<void> {
  const tags = ["wallet"];
  jsonRoute(app, "POST", "/api/writings/:id/red_packets/", fundRedPacketOperation, {
    status: 201,
    tags,
    summary: "Fund a red packet on one's writing: total, shares, random or equal split, expiry up to 7 days (Idempotency-Key required)",
  });
  jsonRoute(app, "POST", "/api/red_packets/:id/claim/", claimRedPacketOperation, {
    tags,
    summary: "Open a red packet once (409 red_packet_empty or already_claimed; Idempotency-Key required)",
  });
}

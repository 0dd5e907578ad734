import type { FastifyRequest } from "fastify";

/** Cookies get `Secure` when the request came over HTTPS (directly or, with TRUST_PROXY, through the proxy). */
export function isSecure(request: FastifyRequest): boolean {
  return request.protocol === "https";
}

/** The client facts services record (sign-ins, throttling). */
export function clientOf(request: FastifyRequest) {
  return { ip: request.ip, userAgent: request.headers["user-agent"] ?? "" };
}

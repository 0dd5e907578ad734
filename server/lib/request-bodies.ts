import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";

/**
 * Node answers `Expect: 100-continue` at once, before any route has looked at the request, so a
 * client announcing 20 MB for a 64 KiB form was invited to send it all. Here "100 Continue" goes
 * out only when the application starts reading the body: a request refused from its headers alone
 * (Content-Length over the route's limit) gets its 413 and never sends the body.
 */
export function continueOnlyWhenBodyIsRead(server: Server): void {
  server.on("checkContinue", (request: IncomingMessage, response: ServerResponse) => {
    // Readable streams emit "resume" when something starts consuming them (Fastify's body reader).
    request.once("resume", () => {
      if (!response.headersSent) response.writeContinue();
    });
    server.emit("request", request, response);
  });
}

/** How long a refused request's remaining body is read and dropped before the connection is cut. */
export const lingerMs = 3_000;

/**
 * An answer sent before the request body arrived (413 from the headers, a form refused early)
 * ends the connection, but not at once: a client still sending would get a TCP reset for it and
 * lose the answer it has not read yet. So the server stops writing (FIN), keeps reading and
 * dropping what still comes for at most `lingerMs`, then closes (nginx calls it lingering close).
 */
export function lingerBeforeClosing(socket: Socket | null): void {
  if (!socket || socket.destroyed) return;
  // Node's HTTP server ends a "Connection: close" response with destroySoon(), which drops the
  // socket as soon as the answer is flushed; this socket waits for the client instead.
  socket.destroySoon = function lingeringDestroySoon(this: Socket) {
    const timer = setTimeout(() => this.destroy(), lingerMs);
    timer.unref();
    this.once("close", () => clearTimeout(timer));
    this.end();
    this.resume();
  };
}

import Fastify from "fastify";

/** Baseline: a bare Fastify hello route. */
const port = Number(process.argv[2]);
const app = Fastify();
app.get("/hello", async () => ({ hello: "world" }));
await app.listen({ port, host: "127.0.0.1" });
process.send?.("ready");

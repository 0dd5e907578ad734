import { ensureBuild } from "./build-if-needed.ts";

/** `npm start`: build when the sources changed since the last build, then serve. */
process.env.NODE_ENV ??= "production";
await ensureBuild();
await import("../server/main.ts");

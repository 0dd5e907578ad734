const t = performance.now();
await import("../build/server/index.js");
console.log("import ms", Math.round(performance.now() - t));

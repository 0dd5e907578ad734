export * from "./accounts.ts";
export * from "./circles.ts";
export * from "./messages.ts";
export * from "./captcha.ts";
export * from "./events.ts";
export * from "./verification.ts";

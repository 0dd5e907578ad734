import { afterAll, beforeAll, describe, it } from "vitest";
import { closeBrowser, launchBrowser } from "./browser.ts";
import { axePages, expectNoSeriousViolation } from "./axe-pages.ts";

beforeAll(launchBrowser);
afterAll(closeBrowser);

describe("accessibility in dark mode (axe-core, no serious or critical violation)", () => {
  it.each(axePages)("%s (dark)", (path) => expectNoSeriousViolation(path, "dark"));
});

import path from "node:path";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");

/** The layer rule of eslint.config.js, checked on imports a careless change might add. */
describe("layer boundaries", () => {
  const eslint = new ESLint({ cwd: root });
  const messagesFor = async (file: string, code: string) =>
    (await eslint.lintText(code, { filePath: path.join(root, file) }))[0]!.messages.map((message) => message.ruleId);

  it("refuses features importing pages, route modules importing the database, common importing anything of ours", async () => {
    expect(await messagesFor("features/accounts/probe.ts", 'import "../../app/lib/meta.ts";\n')).toContain("no-restricted-imports");
    expect(await messagesFor("app/routes/probe.tsx", 'import "../../server/db/client.ts";\n')).toContain("no-restricted-imports");
    expect(await messagesFor("common/probe.ts", 'import "../server/lib/invalidation.ts";\n')).toContain("no-restricted-imports");
    expect(await messagesFor("server/lib/probe.ts", 'import "../../features/accounts/service.ts";\n')).toContain("no-restricted-imports");
  });

  it("allows the intended direction", async () => {
    expect(await messagesFor("app/routes/probe.tsx", 'import "../../features/accounts/policy.ts";\n')).not.toContain(
      "no-restricted-imports",
    );
    expect(await messagesFor("features/accounts/probe.ts", 'import "../../server/lib/transactions.ts";\n')).not.toContain(
      "no-restricted-imports",
    );
  });
});

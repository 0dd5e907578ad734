import type { FastifyInstance } from "fastify";
import escapeHtml from "escape-html";
import "../verification/catalog.ts";
import { translator } from "../../common/i18n.ts";
import { formatDate, localeFromPath, type Locale } from "../../common/locale.ts";
import { outboxFolder, readOutbox, type OutboxEntry } from "./outbox.server.ts";

/**
 * `/dev/outbox` (and `/en/dev/outbox`): the messages of the dev outbox, newest first, for
 * developers. Registered only when the configuration allows it (`Config.devOutboxPage`: outside
 * production, or a production demo without SMTP or SMS); otherwise these paths are ordinary 404s.
 * A small self-contained document: no scripts, its own strict policy, never cached.
 */
export async function outboxPage(app: FastifyInstance, { dataDir }: { dataDir: string }): Promise<void> {
  const folder = outboxFolder(dataDir);
  const handler = (locale: Locale) => async (_request: unknown, reply: import("fastify").FastifyReply) => {
    const entries = await readOutbox(folder, 200);
    reply
      .header("content-type", "text/html; charset=utf-8")
      .header("cache-control", "no-store")
      .header(
        "content-security-policy",
        "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
      )
      .header("x-robots-tag", "noindex");
    return renderOutbox(entries, locale, folder);
  };
  app.get("/dev/outbox", handler(localeFromPath("/dev/outbox")));
  app.get("/en/dev/outbox", handler(localeFromPath("/en/dev/outbox")));
}

export function renderOutbox(entries: OutboxEntry[], locale: Locale, folder: string): string {
  const t = translator(locale);
  const cell = (value: string) => `<td>${escapeHtml(value)}</td>`;
  const rows = entries
    .map((entry) =>
      [
        "<tr>",
        cell(entry.sent_at ? formatDate(entry.sent_at, locale, { dateStyle: "short", timeStyle: "medium" }) : ""),
        cell(t(`codes:outbox.${entry.channel}`)),
        cell(entry.to),
        cell(entry.subject),
        `<td class="code">${escapeHtml(entry.code ?? "")}</td>`,
        `<td><pre>${escapeHtml(entry.text)}</pre></td>`,
        "</tr>",
      ].join(""),
    )
    .join("\n");
  const headings = ["sent_at", "channel", "to", "subject", "code", "text"]
    .map((key) => `<th scope="col">${escapeHtml(t(`codes:outbox.${key}`))}</th>`)
    .join("");
  const title = escapeHtml(t("codes:outbox.title"));
  return `<!doctype html>
<html lang="${locale}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>${title}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;margin:24px;color:#1f1f1f}table{border-collapse:collapse;width:100%}th,td{border:1px solid #d0d0d0;padding:6px 8px;text-align:left;vertical-align:top}pre{margin:0;white-space:pre-wrap;font:inherit}.code{font:600 18px/1.2 ui-monospace,monospace;letter-spacing:2px}</style>
</head>
<body>
<main>
<h1>${title}</h1>
<p>${escapeHtml(t("codes:outbox.intro", { folder }))}</p>
${entries.length === 0 ? `<p>${escapeHtml(t("codes:outbox.empty"))}</p>` : `<table><thead><tr>${headings}</tr></thead><tbody>\n${rows}\n</tbody></table>`}
</main>
</body>
</html>
`;
}

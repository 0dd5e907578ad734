import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import { contentAnalysisOperation, contentCsvOperation, profitAnalysisOperation, profitCsvOperation } from "./operations.ts";

/** The creator's analysis (signed in; docs/features/analysis.md). */
export async function analysisApi(app: FastifyInstance): Promise<void> {
  const tags = ["creator"];
  jsonRoute(app, "GET", "/api/creator/analysis/content/", contentAnalysisOperation, {
    tags,
    summary: "The viewer's content figures per Asia/Shanghai day, summed, and per piece (or one piece: subject_type, subject_id)",
  });
  jsonRoute(app, "GET", "/api/creator/analysis/profit/", profitAnalysisOperation, {
    tags,
    summary: "The viewer's income per day by source, summed, and per piece, from the ledger (whole sinecoin)",
  });
  const csv = "text/csv; charset=utf-8";
  jsonRoute(app, "GET", "/api/creator/analysis/content.csv", contentCsvOperation, {
    tags,
    contentType: csv,
    summary: "The content analysis as CSV",
  });
  jsonRoute(app, "GET", "/api/creator/analysis/profit.csv", profitCsvOperation, {
    tags,
    contentType: csv,
    summary: "The income analysis as CSV",
  });
}

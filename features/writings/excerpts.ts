import { and, asc, eq, gt, like, sql } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { writings } from "../../server/db/schema/index.ts";
import { excerptOfHtml, formulaMarkers } from "../content/excerpt.ts";
import { invalidate } from "../../server/lib/invalidation.ts";
import { excerptLength, writingTags } from "./service.ts";

/** A regular expression for one character of TeX source: `\`, `{`, `}`, `^` or `_`. */
const texSource = "[\\\\{}^_]";

/** A regular expression for MathML with structure (powers, indices, fractions, roots, limits), which excerpts show as a marker. */
const structuredFormula = "<(msup|msub|msubsup|mfrac|msqrt|mroot|munder|mover|munderover|mmultiscripts|mtable)[ >]";

/** A regular expression for the formula marker in either language. */
const markerPattern = `(${Object.values(formulaMarkers)
  .map((marker) => marker.replace(/[[\]]/g, "\\$&"))
  .join("|")})`;

/**
 * Writings published before excerpts were read from the rendered formulas kept TeX source in
 * their excerpt, and those published before structured formulas became a marker kept them
 * flattened ("a2+b2=c2"). Run at start-up: every such stored writing gets the excerpt its stored
 * HTML gives now (no re-rendering); rows already right are left alone, so a second run writes
 * nothing, and so are rows whose author wrote a summary (it is their excerpt). Only excerpts with
 * a character of TeX source in them, or without a marker while the HTML has a structured formula,
 * are read: parsing every stored formula's HTML at each start took a core for a minute at 100k
 * writings. (Writings whose structured formulas all lie outside the excerpt's paragraphs are read
 * again at each start, without a write.) Returns how many rows changed.
 */
export async function refreshFormulaExcerpts(db: Database, batch = 200): Promise<number> {
  let after = 0;
  let changed = 0;
  for (;;) {
    const rows = await db
      .select({
        id: writings.id,
        html: writings.html,
        excerpt: writings.excerpt,
        circleId: writings.circleId,
        authorId: writings.authorId,
        translationOf: writings.translationOf,
        language: writings.language,
        seriesId: writings.seriesId,
      })
      .from(writings)
      .where(
        and(
          gt(writings.id, after),
          like(writings.html, '%class="katex"%'),
          eq(writings.summary, ""),
          sql`(${writings.excerpt} ~ ${texSource} or (${writings.html} ~ ${structuredFormula} and ${writings.excerpt} !~ ${markerPattern}))`,
        ),
      )
      .orderBy(asc(writings.id))
      .limit(batch);
    if (rows.length === 0) return changed;
    for (const row of rows) {
      const excerpt = excerptOfHtml(row.html, excerptLength, row.language);
      if (excerpt === row.excerpt) continue;
      await db.update(writings).set({ excerpt }).where(eq(writings.id, row.id));
      await invalidate(writingTags(row));
      changed += 1;
    }
    after = rows.at(-1)!.id;
  }
}

import { desc, eq, inArray } from "drizzle-orm";
import type { AppContext } from "../context.ts";
import type { Locale } from "../../common/locale.ts";
import { loadCircleAccessMap } from "../../features/circles/access.server.ts";
import { localizedTexts } from "../../features/circles/presenter.ts";
import { canWriteIn } from "../../features/writings/policy.ts";
import { circles, questions, writings } from "../../server/db/schema/index.ts";

export type ChoiceKind = "write" | "ask";

export interface ChoiceCircle {
  id: number;
  name: string;
  /** The viewer is a member (joined circles come first). */
  joined: boolean;
}

/** The circle of the viewer's latest writing or question (by publication), or null. */
async function lastCircleOf(app: AppContext, userId: number, kind: ChoiceKind): Promise<number | null> {
  const [writing, question] = await Promise.all([
    app.db
      .select({ circleId: writings.circleId })
      .from(writings)
      .where(eq(writings.authorId, userId))
      .orderBy(desc(writings.publishedAt), desc(writings.id))
      .limit(1),
    app.db
      .select({ circleId: questions.circleId })
      .from(questions)
      .where(eq(questions.authorId, userId))
      .orderBy(desc(questions.publishedAt), desc(questions.id))
      .limit(1),
  ]);
  // The same kind's last circle first; else where the viewer last posted anything.
  const [own, other] = kind === "write" ? [writing[0], question[0]] : [question[0], writing[0]];
  return own?.circleId ?? other?.circleId ?? null;
}

/**
 * The circle choice that starts writing (`/write`) and asking (`/ask`): every circle the viewer
 * may post in, the circles they joined first, then the others, each by id; `last` is the circle
 * they last posted in (a writing for `write`, a question for `ask`, else either), when they may
 * still post there.
 */
export async function circleChoice(
  app: AppContext,
  viewer: NonNullable<AppContext["viewer"]>,
  kind: ChoiceKind,
  locale: Locale,
): Promise<{ circles: ChoiceCircle[]; last: number | null }> {
  const accesses = [...(await loadCircleAccessMap(app.db, viewer)).values()].filter((access) => canWriteIn(viewer, access));
  if (accesses.length === 0) return { circles: [], last: null };
  const joined = new Set(accesses.filter((access) => access.role !== null).map((access) => access.circle.id));
  const [rows, last] = await Promise.all([
    app.db
      .select()
      .from(circles)
      .where(
        inArray(
          circles.id,
          accesses.map((access) => access.circle.id),
        ),
      )
      .orderBy(circles.id)
      .limit(500),
    lastCircleOf(app, viewer.id, kind),
  ]);
  const choice = rows
    .map((row) => ({ id: row.id, name: localizedTexts(row, locale).name, joined: joined.has(row.id) }))
    .sort((a, b) => Number(b.joined) - Number(a.joined) || a.id - b.id);
  return { circles: choice, last: last !== null && choice.some((circle) => circle.id === last) ? last : null };
}

import { and, eq, max, ne, or, sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { circleMembers, circles } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import { authorize } from "../../common/policy.ts";
import type { Locale } from "../../common/locale.ts";
import { inTransaction, type ServiceOptions, type Transaction } from "../../server/lib/transactions.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { loadCircleAccess, loadCircleAccessMap, membershipTag, requireCircle } from "./access.server.ts";
import { circleRows } from "./tree.server.ts";
import { can, canViewCircle } from "./policy.ts";
import { circleHasContent } from "./counts.ts";
import { circleLanguages, defaultLanguageOf, localizedTexts, type CircleRow } from "./presenter.ts";
import { descriptionField, nameField, type CreateCircleInput, type UpdateCircleInput } from "./schema.ts";
import { emit } from "../events/bus.ts";
import { circleTags as circleTagsOf, circlesTag, homeTag, sitemapTag, userTag } from "../../server/lib/cache-tags.ts";

/** The global village: the root every circle hangs from; it is never moved, hidden or deleted. */
export const rootCircleId = 1;

/** Tags of the cached pages that show a circle: its own page (and its descendants', which carry it), its parent's, the lists. */
export function circleTags(...ids: (number | null | undefined)[]): string[] {
  return [...circleTagsOf(...ids), circlesTag, homeTag, sitemapTag];
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  return code === "23505";
}

type Names = Record<Locale, string>;

/**
 * Refuses a name a sibling already has (case-insensitive). Names are compared across languages
 * too, since a page falls back to the default language's name: two siblings must never show the
 * same name. `fields` names the form field per language.
 */
async function assertNamesFree(
  db: Executor,
  parentId: number,
  names: Names,
  fields: Record<Locale, string>,
  exceptId?: number,
): Promise<void> {
  const taken: Record<string, string> = {};
  for (const language of ["zh-CN", "en"] as const) {
    const name = names[language];
    if (!name) continue;
    const [clash] = await db
      .select({ id: circles.id })
      .from(circles)
      .where(
        and(
          eq(circles.parentId, parentId),
          or(sql`lower(${circles.nameZh}) = lower(${name})`, sql`lower(${circles.nameEn}) = lower(${name})`),
          exceptId ? ne(circles.id, exceptId) : undefined,
        ),
      )
      .limit(1);
    if (clash) taken[fields[language]] = "validation:circle_name_taken";
  }
  if (Object.keys(taken).length > 0) throw new AppError("circle_name_taken", { fields: taken });
}

/** A concurrent insert can still win the race; the unique index then says so, and so do we. */
async function withNameGuard<T>(fields: Record<Locale, string>, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError("circle_name_taken", { fields: { [fields["zh-CN"]]: "validation:circle_name_taken" } });
    throw error;
  }
}

/**
 * Creates a circle under `parent_id` (the global village by default). The name and description
 * serve every listed language until translated. The creator becomes its founder and first member.
 */
export async function createCircle(
  options: ServiceOptions,
  actor: Viewer,
  input: CreateCircleInput,
  uploaded: UploadedLogo = {},
): Promise<{ id: number }> {
  const fields: Record<Locale, string> = { "zh-CN": "name", en: "name" };
  return withNameGuard(fields, () =>
    inTransaction(options, async (tx) => {
      const parent = await loadCircleAccess(tx.db, actor, input.parent_id);
      if (!parent || !canViewCircle(parent)) throw new AppError("not_found");
      authorize(actor, can(actor, "create_subcircle", parent));
      const listed = (language: Locale) => input.languages.includes(language);
      const names: Names = { "zh-CN": listed("zh-CN") ? input.name : "", en: listed("en") ? input.name : "" };
      await assertNamesFree(tx.db, input.parent_id, names, fields);
      const [last] = await tx.db
        .select({ position: max(circles.position) })
        .from(circles)
        .where(eq(circles.parentId, input.parent_id));
      const [created] = await tx.db
        .insert(circles)
        .values({
          parentId: input.parent_id,
          nameZh: names["zh-CN"],
          nameEn: names.en,
          descriptionZh: listed("zh-CN") ? input.description : "",
          descriptionEn: listed("en") ? input.description : "",
          visibility: input.visibility,
          defaultLanguage: input.default_language,
          languages: input.languages,
          logo: uploaded.logo ?? null,
          position: (last?.position ?? -1) + 1,
          createdBy: actor.id,
        })
        .returning({ id: circles.id });
      const id = created!.id;
      await tx.db.insert(circleMembers).values({ circleId: id, userId: actor.id, role: "founder" });
      await emit(tx, {
        actorId: actor.id,
        verb: "circle.created",
        subjectId: id,
        data: { parentId: input.parent_id, name: input.name, visibility: input.visibility },
      });
      tx.invalidate(...circleTags(id, input.parent_id), membershipTag(actor.id), userTag(actor.id));
      return { id };
    }),
  );
}

/** Whether `candidate` is `circleId` or lies below it (a circle cannot move under itself). */
async function isWithin(db: Executor, candidate: number, circleId: number): Promise<boolean> {
  const rows = await circleRows(db);
  const parentOf = new Map(rows.map((row) => [row.id, row.parentId]));
  for (
    let current: number | null | undefined = candidate, depth = 0;
    current != null && depth < 64;
    current = parentOf.get(current), depth += 1
  ) {
    if (current === circleId) return true;
  }
  return false;
}

/** What a PATCH changes, applied to the row: texts per language, languages, visibility, parent, logo. */
function nextState(row: CircleRow, input: UpdateCircleInput) {
  const defaultLanguage = input.default_language ?? defaultLanguageOf(row);
  let languages = input.languages ?? circleLanguages(row);
  if (!languages.includes(defaultLanguage)) {
    if (input.languages) throw new AppError("validation_failed", { fields: { languages: "validation:circle_languages_default" } });
    languages = [defaultLanguage, ...languages];
  }
  const names: Names = { "zh-CN": row.nameZh, en: row.nameEn };
  const descriptions: Names = { "zh-CN": row.descriptionZh, en: row.descriptionEn };
  if (input.name !== undefined) names[defaultLanguage] = input.name;
  if (input.description !== undefined) descriptions[defaultLanguage] = input.description;
  for (const language of ["zh-CN", "en"] as const) {
    const name = input[nameField(language)];
    const description = input[descriptionField(language)];
    if (name !== undefined) names[language] = name;
    if (description !== undefined) descriptions[language] = description;
  }
  if (!names[defaultLanguage]) {
    const field = input.name !== undefined && input[nameField(defaultLanguage)] === undefined ? "name" : nameField(defaultLanguage);
    throw new AppError("validation_failed", { fields: { [field]: "validation:circle_name_required" } });
  }
  return { defaultLanguage, languages, names, descriptions };
}

/**
 * A logo uploaded with the form: the URL of an image already checked, re-encoded and stored by
 * `storeImage` (before the transaction). `input.logo: null` removes the logo instead.
 */
export interface UploadedLogo {
  logo?: string;
}

/** The settings pages and PATCH: administrators and above; moving also needs the right to create under the new parent. */
export async function updateCircle(
  options: ServiceOptions,
  actor: Viewer,
  circleId: number,
  input: UpdateCircleInput,
  uploaded: UploadedLogo = {},
): Promise<void> {
  const fields: Record<Locale, string> = {
    "zh-CN": input.name_zh !== undefined ? "name_zh" : "name",
    en: input.name_en !== undefined ? "name_en" : "name",
  };
  await withNameGuard(fields, () =>
    inTransaction(options, async (tx) => {
      const access = await requireCircle(tx.db, actor, circleId, "edit_settings", { signedIn: true });
      const [row] = await tx.db.select().from(circles).where(eq(circles.id, circleId)).for("update");
      if (!row) throw new AppError("not_found");
      const isRoot = row.parentId === null;
      if (
        isRoot &&
        ((input.parent_id !== undefined && input.parent_id !== null) ||
          (input.visibility !== undefined && input.visibility !== row.visibility))
      ) {
        throw new AppError("circle_root_fixed");
      }
      const parentId = input.parent_id ?? row.parentId;
      if (!isRoot && parentId !== row.parentId) await checkNewParent(tx, actor, circleId, parentId!);
      const next = nextState(row, input);
      if (!isRoot) await assertNamesFree(tx.db, parentId!, next.names, fields, circleId);
      const changes = {
        parentId,
        nameZh: next.names["zh-CN"],
        nameEn: next.names.en,
        descriptionZh: next.descriptions["zh-CN"],
        descriptionEn: next.descriptions.en,
        defaultLanguage: next.defaultLanguage,
        languages: next.languages,
        visibility: input.visibility ?? row.visibility,
        logo: input.logo === null ? null : (uploaded.logo ?? row.logo),
      };
      const changed = Object.entries(changes)
        .filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(row[key as keyof CircleRow]))
        .map(([key]) => key);
      if (changed.length === 0) return;
      if (parentId !== row.parentId) {
        const [last] = await tx.db
          .select({ position: max(circles.position) })
          .from(circles)
          .where(eq(circles.parentId, parentId!));
        Object.assign(changes, { position: (last?.position ?? -1) + 1 });
      }
      await tx.db.update(circles).set(changes).where(eq(circles.id, circleId));
      await emit(tx, {
        actorId: actor.id,
        verb: "circle.updated",
        subjectId: circleId,
        data: { changed, role: access.role },
      });
      tx.invalidate(...circleTags(circleId, row.parentId, parentId));
    }),
  );
}

async function checkNewParent(tx: Transaction, actor: Viewer, circleId: number, parentId: number): Promise<void> {
  const parent = await loadCircleAccess(tx.db, actor, parentId);
  if (!parent || !canViewCircle(parent) || !can(actor, "create_subcircle", parent)) {
    throw new AppError("circle_parent_invalid", { fields: { parent_id: "validation:circle_parent_not_allowed" } });
  }
  if (await isWithin(tx.db, parentId, circleId))
    throw new AppError("circle_parent_invalid", { fields: { parent_id: "validation:circle_parent_cycle" } });
}

/** Deletes an empty circle (no sub-circles, no content): super administrators and the founder, after confirming. */
export async function deleteCircle(options: ServiceOptions, actor: Viewer, circleId: number): Promise<void> {
  await inTransaction(options, async (tx) => {
    await requireCircle(tx.db, actor, circleId, "delete", { signedIn: true });
    const [row] = await tx.db.select().from(circles).where(eq(circles.id, circleId)).for("update");
    if (!row) throw new AppError("not_found");
    if (row.parentId === null) throw new AppError("circle_root_fixed");
    const [child] = await tx.db.select({ id: circles.id }).from(circles).where(eq(circles.parentId, circleId)).limit(1);
    if (child) throw new AppError("circle_has_subcircles");
    if (await circleHasContent(tx.db, circleId)) throw new AppError("circle_has_content");
    await tx.db.delete(circles).where(eq(circles.id, circleId));
    await emit(tx, {
      actorId: actor.id,
      verb: "circle.deleted",
      subjectId: circleId,
      data: { parentId: row.parentId, nameZh: row.nameZh, nameEn: row.nameEn },
    });
    tx.invalidate(...circleTags(circleId, row.parentId));
  });
}

export interface ParentChoice {
  id: number;
  name: string;
  depth: number;
}

/**
 * Where a circle may move: its current parent and the circles the viewer may create sub-circles
 * in, minus the circle itself and everything below it, as an indented list in tree order.
 */
export async function parentChoices(db: Executor, actor: Viewer, circleId: number, locale: Locale): Promise<ParentChoice[]> {
  const [rows, accesses] = await Promise.all([circleRows(db), loadCircleAccessMap(db, actor)]);
  const children = new Map<number | null, CircleRow[]>();
  for (const row of rows) children.set(row.parentId, [...(children.get(row.parentId) ?? []), row]);
  const currentParent = rows.find((row) => row.id === circleId)?.parentId ?? null;
  const choices: ParentChoice[] = [];
  const walk = (parentId: number | null, depth: number) => {
    for (const row of children.get(parentId) ?? []) {
      if (row.id === circleId) continue;
      const access = accesses.get(row.id);
      if (!access || !canViewCircle(access)) continue;
      if (row.id === currentParent || can(actor, "create_subcircle", access))
        choices.push({ id: row.id, name: localizedTexts(row, locale).name, depth });
      walk(row.id, depth + 1);
    }
  };
  walk(null, 0);
  return choices;
}

import { and, asc, eq, inArray, isNull, max, ne, sql } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { circleCategories } from "../../server/db/schema/index.ts";
import { registeredKinds } from "../subjects/registry.ts";
import { AppError } from "../../common/app-error.ts";
import { inTransaction, type ServiceOptions, type Transaction } from "../../server/lib/transactions.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { requireCircle } from "./access.server.ts";
import { emit } from "../events/bus.ts";
import { circleTag } from "../../server/lib/cache-tags.ts";

export type CategoryRow = typeof circleCategories.$inferSelect;

export interface CategoryView {
  id: number;
  name: string;
  parentId: number | null;
  position: number;
  /** Subclasses (always empty on a subclass: there is one level of them). */
  children: CategoryView[];
}

function present(row: CategoryRow): CategoryView {
  return { id: row.id, name: row.name, parentId: row.parentId, position: row.position, children: [] };
}

/** A circle's writing categories in order, each with its subclasses. The caller checks that the viewer may read the circle. */
export async function listCategories(db: Executor, circleId: number): Promise<CategoryView[]> {
  const rows = await db
    .select()
    .from(circleCategories)
    .where(eq(circleCategories.circleId, circleId))
    .orderBy(asc(circleCategories.position), asc(circleCategories.id));
  const top = rows.filter((row) => row.parentId === null).map(present);
  const byId = new Map(top.map((category) => [category.id, category]));
  for (const row of rows) if (row.parentId !== null) byId.get(row.parentId)?.children.push(present(row));
  return top;
}

/** Categories content is filed under must be its circle's own (writings, questions); returns them deduplicated. */
export async function checkCircleCategories(db: Executor, circleId: number, ids: number[]): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return unique;
  const found = await db
    .select({ id: circleCategories.id })
    .from(circleCategories)
    .where(and(eq(circleCategories.circleId, circleId), inArray(circleCategories.id, unique)));
  if (found.length !== unique.length)
    throw new AppError("validation_failed", { fields: { categories: "validation:category_not_in_circle" } });
  return unique;
}

/**
 * Whether anything still uses the category, so it cannot be deleted: its subclasses or content of
 * any registered kind filed under it (a category is deletable once they have moved).
 */
export async function categoryInUse(db: Executor, categoryId: number): Promise<boolean> {
  const [subclass] = await db
    .select({ id: circleCategories.id })
    .from(circleCategories)
    .where(eq(circleCategories.parentId, categoryId))
    .limit(1);
  if (subclass) return true;
  for (const kind of registeredKinds()) if (await kind.usesCategory?.(db, categoryId)) return true;
  return false;
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  return code === "23505";
}

const nameTaken = () => new AppError("category_name_taken", { fields: { name: "validation:category_name_taken" } });

async function assertNameFree(db: Executor, circleId: number, name: string, exceptId?: number): Promise<void> {
  const [clash] = await db
    .select({ id: circleCategories.id })
    .from(circleCategories)
    .where(
      and(
        eq(circleCategories.circleId, circleId),
        sql`lower(${circleCategories.name}) = lower(${name})`,
        exceptId ? ne(circleCategories.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  if (clash) throw nameTaken();
}

async function withNameGuard<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken();
    throw error;
  }
}

async function findCategory(db: Executor, circleId: number, categoryId: number): Promise<CategoryRow> {
  const [row] = await db
    .select()
    .from(circleCategories)
    .where(and(eq(circleCategories.id, categoryId), eq(circleCategories.circleId, circleId)))
    .for("update");
  if (!row) throw new AppError("not_found");
  return row;
}

const siblingsOf = (circleId: number, parentId: number | null) =>
  and(
    eq(circleCategories.circleId, circleId),
    parentId === null ? isNull(circleCategories.parentId) : eq(circleCategories.parentId, parentId),
  );

/** A category, or with `parent_id` a subclass of one of the circle's categories, placed last. */
export async function createCategory(
  options: ServiceOptions,
  actor: Viewer,
  circleId: number,
  input: { name: string; parent_id: number | null },
): Promise<CategoryView> {
  return withNameGuard(() =>
    inTransaction(options, async (tx) => {
      await requireCircle(tx.db, actor, circleId, "manage_categories", { signedIn: true });
      if (input.parent_id !== null) {
        const [parent] = await tx.db
          .select({ parentId: circleCategories.parentId })
          .from(circleCategories)
          .where(and(eq(circleCategories.id, input.parent_id), eq(circleCategories.circleId, circleId)));
        // Subclasses hang from a category of this circle, one level deep.
        if (!parent || parent.parentId !== null)
          throw new AppError("category_parent_invalid", { fields: { parent_id: "validation:category_parent_invalid" } });
      }
      await assertNameFree(tx.db, circleId, input.name);
      const [last] = await tx.db
        .select({ position: max(circleCategories.position) })
        .from(circleCategories)
        .where(siblingsOf(circleId, input.parent_id));
      const [row] = await tx.db
        .insert(circleCategories)
        .values({ circleId, parentId: input.parent_id, name: input.name, position: (last?.position ?? -1) + 1 })
        .returning();
      await emit(tx, {
        actorId: actor.id,
        verb: "circle.category_created",
        subjectId: circleId,
        data: { categoryId: row!.id, name: input.name, parentId: input.parent_id },
      });
      tx.invalidate(circleTag(circleId));
      return present(row!);
    }),
  );
}

/** Puts a category at `position` among its siblings and numbers them 0, 1, 2… again. */
async function reorder(tx: Transaction, row: CategoryRow, position: number): Promise<void> {
  const siblings = await tx.db
    .select({ id: circleCategories.id })
    .from(circleCategories)
    .where(siblingsOf(row.circleId, row.parentId))
    .orderBy(asc(circleCategories.position), asc(circleCategories.id));
  const order = siblings.map((sibling) => sibling.id).filter((id) => id !== row.id);
  order.splice(Math.min(position, order.length), 0, row.id);
  for (const [index, id] of order.entries()) {
    await tx.db.update(circleCategories).set({ position: index }).where(eq(circleCategories.id, id));
  }
}

/** Renames and/or moves a category among its siblings. */
export async function updateCategory(
  options: ServiceOptions,
  actor: Viewer,
  circleId: number,
  categoryId: number,
  input: { name?: string; position?: number },
): Promise<CategoryView> {
  return withNameGuard(() =>
    inTransaction(options, async (tx) => {
      await requireCircle(tx.db, actor, circleId, "manage_categories", { signedIn: true });
      const row = await findCategory(tx.db, circleId, categoryId);
      const changed: string[] = [];
      if (input.name !== undefined && input.name !== row.name) {
        await assertNameFree(tx.db, circleId, input.name, categoryId);
        await tx.db.update(circleCategories).set({ name: input.name }).where(eq(circleCategories.id, categoryId));
        changed.push("name");
      }
      if (input.position !== undefined) {
        await reorder(tx, row, input.position);
        changed.push("position");
      }
      const [updated] = await tx.db.select().from(circleCategories).where(eq(circleCategories.id, categoryId));
      if (changed.length > 0) {
        await emit(tx, {
          actorId: actor.id,
          verb: "circle.category_updated",
          subjectId: circleId,
          data: { categoryId, changed, name: updated!.name },
        });
        tx.invalidate(circleTag(circleId));
      }
      return present(updated!);
    }),
  );
}

/** Deletes a category nothing uses any more (see `categoryInUse`). */
export async function deleteCategory(options: ServiceOptions, actor: Viewer, circleId: number, categoryId: number): Promise<void> {
  await inTransaction(options, async (tx) => {
    await requireCircle(tx.db, actor, circleId, "manage_categories", { signedIn: true });
    const row = await findCategory(tx.db, circleId, categoryId);
    if (await categoryInUse(tx.db, categoryId)) throw new AppError("category_in_use");
    await tx.db.delete(circleCategories).where(eq(circleCategories.id, categoryId));
    await emit(tx, {
      actorId: actor.id,
      verb: "circle.category_deleted",
      subjectId: circleId,
      data: { categoryId, name: row.name },
    });
    tx.invalidate(circleTag(circleId));
  });
}

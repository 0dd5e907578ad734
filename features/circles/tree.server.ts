import { asc } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type { Executor } from "../../server/db/client.ts";
import { circles } from "../../server/db/schema/index.ts";
import { onInvalidate, onResync } from "../../server/lib/invalidation.ts";
import { countInstance } from "../../server/lib/single-instance.ts";
import type { CircleRow } from "./presenter.ts";
import { circlesTag } from "../../server/lib/cache-tags.ts";

/**
 * Every circle row, held in memory per database: the tree is small (hundreds of rows), read by
 * nearly every page (access checks, breadcrumbs, the circle itself) and changed rarely. Every
 * change to a circle row invalidates the tag `circles` after commit (`circleTags`), locally and,
 * with a PostgreSQL server, in every process (NOTIFY), which drops the memory; the next read
 * loads the rows again. Inside a transaction the rows are always read from the database, so a
 * use case sees its own uncommitted changes.
 */
countInstance("circles/tree");

/** The tag whose invalidation drops the memory: `circleTags` carries it on every circle write. */
export const circleTreeTag = circlesTag;

interface Tree {
  rows: readonly CircleRow[];
  byId: ReadonlyMap<number, CircleRow>;
}

let trees = new WeakMap<Executor, Promise<Tree>>();

onInvalidate((tags) => {
  if (tags.includes(circleTreeTag)) trees = new WeakMap();
});
onResync(() => {
  trees = new WeakMap();
});

function readRows(db: Executor): Promise<CircleRow[]> {
  return db.select().from(circles).orderBy(asc(circles.position), asc(circles.id));
}

function loadTree(db: Executor): Promise<Tree> {
  const inTransaction: boolean = db instanceof PgTransaction;
  if (inTransaction) return readRows(db).then(treeOf);
  const known = trees.get(db);
  if (known) return known;
  const map = trees;
  const loading = readRows(db).then((rows) =>
    treeOf(rows.map((row) => Object.freeze({ ...row, languages: Object.freeze([...row.languages]) as string[] }))),
  );
  map.set(db, loading);
  // A failed read is not remembered: the next call tries again.
  loading.catch(() => {
    if (map.get(db) === loading) map.delete(db);
  });
  return loading;
}

function treeOf(rows: CircleRow[]): Tree {
  return { rows: Object.freeze(rows), byId: new Map(rows.map((row) => [row.id, row])) };
}

/** Every circle, in display order (position among siblings, then age). Rows are frozen: copy to change. */
export async function circleRows(db: Executor): Promise<readonly CircleRow[]> {
  return (await loadTree(db)).rows;
}

/** One circle's row, or null when it does not exist. */
export async function circleRowById(db: Executor, id: number): Promise<CircleRow | null> {
  return (await loadTree(db)).byId.get(id) ?? null;
}

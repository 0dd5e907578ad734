import { and, desc, eq, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { Database } from "../../server/db/client.ts";
import { circles, tradeMissions, tradeProgress, users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { readableCircleIds } from "../circles/access.server.ts";

const pageSize = 20;

export type TaskStatus = "open" | "cancelled" | "expired";

export interface TaskListQuery {
  circle_id?: number | undefined;
  status?: TaskStatus | undefined;
  cursor?: number | undefined;
  /** `new` (default), `reward` (highest first) or `deadline` (soonest first). */
  sort?: "new" | "reward" | "deadline" | undefined;
  min_reward?: number | undefined;
  /** Days: only tasks whose deadline falls within them from now. */
  ends_within?: number | undefined;
  poster?: number | undefined;
}

const taskColumns = {
  id: tradeMissions.id,
  circleId: tradeMissions.circleId,
  circleNameZh: circles.nameZh,
  circleNameEn: circles.nameEn,
  posterId: tradeMissions.posterId,
  posterName: sql<string>`coalesce(nullif(${users.nickname}, ''), ${users.username})`,
  title: tradeMissions.title,
  description: tradeMissions.description,
  reward: tradeMissions.reward,
  slots: tradeMissions.slots,
  openSlots: tradeMissions.openSlots,
  status: tradeMissions.status,
  deadline: tradeMissions.deadline,
  createdAt: tradeMissions.createdAt,
};

export type TaskRow = Awaited<ReturnType<typeof selectTasks>>[number];

function selectTasks(db: Database, where: SQL | undefined) {
  return db
    .select(taskColumns)
    .from(tradeMissions)
    .innerJoin(circles, eq(circles.id, tradeMissions.circleId))
    .innerJoin(users, eq(users.id, tradeMissions.posterId))
    .where(where);
}

/** Tasks in circles the viewer may read, newest first by default; paged by offset cursor for the sorts other than `new`. */
export async function listTasks(db: Database, viewer: Pick<Viewer, "id"> | null, query: TaskListQuery) {
  const readable = await readableCircleIds(db, viewer);
  if (readable.length === 0) return { items: [] as TaskRow[], nextCursor: null as string | null };
  const sort = query.sort ?? "new";
  const conditions = [
    inArray(tradeMissions.circleId, readable),
    query.circle_id ? eq(tradeMissions.circleId, query.circle_id) : undefined,
    query.status ? eq(tradeMissions.status, query.status) : undefined,
    query.min_reward ? sql`${tradeMissions.reward} >= ${query.min_reward}` : undefined,
    query.ends_within ? sql`${tradeMissions.deadline} <= now() + make_interval(days => ${query.ends_within})` : undefined,
    query.poster ? eq(tradeMissions.posterId, query.poster) : undefined,
    sort === "new" && query.cursor ? lt(tradeMissions.id, query.cursor) : undefined,
  ];
  const order =
    sort === "reward"
      ? [desc(tradeMissions.reward), desc(tradeMissions.id)]
      : sort === "deadline"
        ? [tradeMissions.deadline, desc(tradeMissions.id)]
        : [desc(tradeMissions.id)];
  const offset = sort === "new" ? 0 : (query.cursor ?? 0);
  const rows = await selectTasks(db, and(...conditions))
    .orderBy(...order)
    .limit(pageSize + 1)
    .offset(offset);
  const more = rows.length > pageSize;
  const items = rows.slice(0, pageSize);
  const nextCursor = more ? String(sort === "new" ? items.at(-1)!.id : offset + pageSize) : null;
  return { items, nextCursor };
}

export async function getTask(db: Database, viewer: Pick<Viewer, "id"> | null, id: number) {
  const readable = await readableCircleIds(db, viewer);
  const [row] = await selectTasks(db, eq(tradeMissions.id, id));
  if (!row || !readable.includes(row.circleId)) throw new AppError("not_found");
  const mine = viewer
    ? await db
        .select({ id: tradeProgress.id, status: tradeProgress.status })
        .from(tradeProgress)
        .where(and(eq(tradeProgress.missionId, id), eq(tradeProgress.workerId, viewer.id)))
    : [];
  return { ...row, myProgress: mine[0] ?? null };
}

const progressColumns = {
  id: tradeProgress.id,
  missionId: tradeProgress.missionId,
  title: tradeMissions.title,
  reward: tradeMissions.reward,
  posterId: tradeMissions.posterId,
  workerId: tradeProgress.workerId,
  workerName: sql<string>`coalesce(nullif(${users.nickname}, ''), ${users.username})`,
  status: tradeProgress.status,
  content: tradeProgress.content,
  reason: tradeProgress.reason,
  autoApproved: tradeProgress.autoApproved,
  disputedAt: tradeProgress.disputedAt,
  submittedAt: tradeProgress.submittedAt,
  reviewedAt: tradeProgress.reviewedAt,
  createdAt: tradeProgress.createdAt,
};

export type ProgressRow = Awaited<ReturnType<typeof listProgress>>[number];

/** The viewer's progress records as a worker (the tasks they took) or as a poster (work on their tasks), newest first. */
export async function listProgress(db: Database, viewer: Pick<Viewer, "id">, role: "worker" | "poster", status?: string) {
  return db
    .select(progressColumns)
    .from(tradeProgress)
    .innerJoin(tradeMissions, eq(tradeMissions.id, tradeProgress.missionId))
    .innerJoin(users, eq(users.id, tradeProgress.workerId))
    .where(
      and(
        role === "worker" ? eq(tradeProgress.workerId, viewer.id) : eq(tradeMissions.posterId, viewer.id),
        status ? sql`${tradeProgress.status} = ${status}` : undefined,
      ),
    )
    .orderBy(desc(tradeProgress.id))
    .limit(200);
}

/** One progress record, for its worker and the task's poster only. */
export async function getProgress(db: Database, viewer: Pick<Viewer, "id">, id: number) {
  const [row] = await db
    .select(progressColumns)
    .from(tradeProgress)
    .innerJoin(tradeMissions, eq(tradeMissions.id, tradeProgress.missionId))
    .innerJoin(users, eq(users.id, tradeProgress.workerId))
    .where(eq(tradeProgress.id, id));
  if (!row || (row.workerId !== viewer.id && row.posterId !== viewer.id)) throw new AppError("not_found");
  return row;
}

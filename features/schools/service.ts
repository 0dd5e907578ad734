import { and, asc, count, desc, eq, isNull, ne } from "drizzle-orm";
import type { Executor } from "../../server/db/client.ts";
import { users } from "../../server/db/schema/index.ts";
import { AppError } from "../../common/app-error.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { listWritings, type WritingListItem } from "../writings/queries.ts";
import type { WritingLanguage } from "../writings/schema.ts";
import { hogwartsHouses, type HogwartsHouse } from "./constants.ts";

/*
 * The school zone: schools are what users wrote in their profile's `school` field (trimmed, matched
 * exactly), houses the spec's `Hogwarts_school`. Profiles hidden by moderation are left out.
 */

export interface SchoolSummary {
  name: string;
  members: number;
}

export interface SchoolMember {
  id: number;
  username: string;
  nickname: string;
  avatar: string | null;
}

export interface HouseSummary {
  house: HogwartsHouse;
  members: number;
  sample: SchoolMember[];
}

const memberColumns = { id: users.id, username: users.username, nickname: users.nickname, avatar: users.avatar };
const listed = isNull(users.hiddenAt);

/** Schools with the most members first (then by name), at most `limit`. */
export async function listSchools(db: Executor, limit = 200): Promise<SchoolSummary[]> {
  const members = count();
  return db
    .select({ name: users.school, members })
    .from(users)
    .where(and(ne(users.school, ""), listed))
    .groupBy(users.school)
    .orderBy(desc(members), asc(users.school))
    .limit(limit);
}

/** Each house with its member count and its newest few members. */
export async function listHouses(db: Executor, sampleSize = 12): Promise<HouseSummary[]> {
  const counts = await db
    .select({ house: users.hogwartsSchool, members: count() })
    .from(users)
    .where(and(ne(users.hogwartsSchool, ""), listed))
    .groupBy(users.hogwartsSchool);
  return Promise.all(
    hogwartsHouses.map(async (house) => ({
      house,
      members: counts.find((row) => row.house === house)?.members ?? 0,
      sample: await db
        .select(memberColumns)
        .from(users)
        .where(and(eq(users.hogwartsSchool, house), listed))
        .orderBy(desc(users.createdAt), desc(users.id))
        .limit(sampleSize),
    })),
  );
}

export interface SchoolPage {
  name: string;
  members: SchoolMember[];
  memberCount: number;
  writings: WritingListItem[];
}

/** One school: its members (newest first, at most `memberLimit`) and their newest writings the viewer may read; a school nobody names is a 404. */
export async function loadSchool(
  db: Executor,
  viewer: Viewer | null,
  name: string,
  locale: WritingLanguage,
  memberLimit = 100,
): Promise<SchoolPage> {
  const school = name.trim();
  if (school === "" || school.length > 50) throw new AppError("not_found");
  const where = and(eq(users.school, school), listed);
  const [total] = await db.select({ members: count() }).from(users).where(where);
  if (!total || total.members === 0) throw new AppError("not_found");
  const members = await db.select(memberColumns).from(users).where(where).orderBy(desc(users.createdAt), desc(users.id)).limit(memberLimit);
  const page = await listWritings(db, viewer, { tab: "all", authorIds: members.map((member) => member.id), limit: 20, locale });
  return { name: school, members, memberCount: total.members, writings: page.items };
}

import { z } from "zod";
import { defineOperation } from "../../server/lib/operation.ts";
import { writingPath } from "../writings/paths.ts";
import { defaultAvatar } from "../accounts/presenter.ts";
import { hogwartsHouses } from "./constants.ts";
import {
  listHouses,
  listSchools,
  loadSchool,
  type HouseSummary,
  type SchoolMember,
  type SchoolPage,
  type SchoolSummary,
} from "./service.ts";

/* The school zone: the API (features/schools/api.ts) and `/school`, `/school/{name}`. */

const memberSchema = z.strictObject({ username: z.string(), nickname: z.string(), avatar: z.string() });
export const presentMember = (member: SchoolMember) => ({
  username: member.username,
  nickname: member.nickname,
  avatar: member.avatar ?? defaultAvatar,
});

const zoneAnswer = z.strictObject({
  schools: z.array(z.strictObject({ name: z.string(), members: z.number() })),
  houses: z.array(z.strictObject({ house: z.enum(hogwartsHouses), members: z.number(), sample: z.array(memberSchema) })),
});

/** Every school with its member count, and the four houses. */
export const schoolZoneOperation = defineOperation({
  name: "schoolZone",
  input: {},
  viewer: "optional",
  run: async (services) => {
    const [schools, houses] = await Promise.all([listSchools(services.db), listHouses(services.db)]);
    return { schools, houses };
  },
  present: ({ schools, houses }: { schools: SchoolSummary[]; houses: HouseSummary[] }) => ({
    schools,
    houses: houses.map((house) => ({ house: house.house, members: house.members, sample: house.sample.map(presentMember) })),
  }),
  response: zoneAnswer,
  failures: [],
});

const schoolAnswer = z.strictObject({
  name: z.string(),
  member_count: z.number(),
  members: z.array(memberSchema),
  writings: z.array(
    z.strictObject({ id: z.number(), title: z.string(), type: z.string(), author: z.string(), path: z.string(), published_at: z.string() }),
  ),
});

/** One school's members and their newest writings the viewer may read. */
export const schoolOperation = defineOperation({
  name: "school",
  input: { params: z.object({ name: z.string().min(1).max(200) }) },
  viewer: "optional",
  run: (services, viewer, { params }) => loadSchool(services.db, viewer, params.name, services.locale),
  present: (school: SchoolPage) => ({
    name: school.name,
    member_count: school.memberCount,
    members: school.members.map(presentMember),
    writings: school.writings.map((item) => ({
      id: item.id,
      title: item.title,
      type: item.type,
      author: item.author.username,
      path: writingPath(item),
      published_at: item.publishedAt,
    })),
  }),
  response: schoolAnswer,
  failures: ["not_found"],
});

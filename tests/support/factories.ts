import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import type { Database } from "../../server/db/client.ts";
import { eq } from "drizzle-orm";
import {
  bookChapters,
  books,
  circleCategories,
  circleMembers,
  circles,
  comments,
  encyclopediaEntries,
  entryRevisionContents,
  entryRevisions,
  follows,
  sessions,
  unreadCounters,
  users,
  writings,
  questions,
  answers,
} from "../../server/db/schema/index.ts";
import escapeHtml from "escape-html";
import type { SiteRole, UserType } from "../../features/accounts/constants.ts";
import { hashPassword } from "../../features/accounts/passwords.server.ts";
import { hashToken, sessionDurations, type User } from "../../features/accounts/service.ts";
import { Visitor } from "./api.ts";
import { invalidate } from "../../server/lib/invalidation.ts";
import { circleTag, circlesTag, commentsTag, countsTag } from "../../server/lib/cache-tags.ts";
import { entryTags } from "../../features/encyclopedia/service.ts";
import { snapshotOfRow } from "../../features/encyclopedia/editing.ts";
import { snapshotHash } from "../../features/encyclopedia/revision-text.ts";
import { membershipTag } from "../../features/circles/access.server.ts";
import { followeesTag } from "../../features/follows/service.ts";
import { writingTags } from "../../features/writings/service.ts";
import { bookTags } from "../../features/books/service.ts";
import { questionTags } from "../../features/questions/service.ts";
import { questionStateTag } from "../../features/questions/viewer-state.ts";
import { titleWords } from "../../features/questions/words.ts";
// Factories write rows without events: they index what they make, as the write paths' handlers do.
import { indexSubjects } from "../../features/search/indexer.ts";

/**
 * Test data made directly (fast: one password hash per process), always valid, unique on every
 * call. API tests use these instead of hand-written rows; a test that is *about* registration or
 * sign-in goes through the API instead.
 */
export const factoryPassword = "secret123";
let passwordHash: Promise<string> | undefined;
let sequence = 0;

function unique(): string {
  sequence += 1;
  return `${process.pid % 10_000}${sequence}`;
}

export interface UserOverrides {
  username?: string;
  email?: string;
  nickname?: string;
  userType?: UserType;
  /** A site moderator (`moderator`) or administrator. */
  siteRole?: SiteRole;
  /** When the account signed up (now by default). */
  createdAt?: Date;
}

export async function createUser(db: Database, overrides: UserOverrides = {}): Promise<User> {
  const suffix = unique();
  passwordHash ??= hashPassword(factoryPassword);
  const [user] = await db
    .insert(users)
    .values({
      username: overrides.username ?? `u_${suffix}`,
      email: overrides.email ?? `u${suffix}@example.com`,
      nickname: overrides.nickname ?? `User ${suffix}`,
      passwordHash: await passwordHash,
      gender: "secret",
      birthday: "1995-06-15",
      country: "CN",
      userType: overrides.userType ?? "Registered users",
      siteRole: overrides.siteRole ?? "none",
      ...(overrides.createdAt ? { createdAt: overrides.createdAt } : {}),
    })
    .returning();
  await db.insert(unreadCounters).values({ userId: user!.id });
  await indexSubjects(db, "user", [user!.id]);
  return user!;
}

/** One user of each type of spec section 3. */
export async function createUsersOfEveryType(db: Database): Promise<Record<UserType, User>> {
  return {
    "Registered users": await createUser(db),
    "Official users": await createUser(db, { userType: "Official users" }),
    "VIP users": await createUser(db, { userType: "VIP users" }),
    "SVIP users": await createUser(db, { userType: "SVIP users" }),
  };
}

/** A session row for the user; returns the cookie value. */
export async function createSessionFor(db: Database, user: { id: number }, persistent = false): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const seconds = persistent ? sessionDurations.persistentSeconds : sessionDurations.browserSessionSeconds;
  await db
    .insert(sessions)
    .values({ tokenHash: hashToken(token), userId: user.id, persistent, expiresAt: new Date(Date.now() + seconds * 1000) });
  return token;
}

/** A browser-like visitor already signed in as `user` (session cookie set; CSRF fetched on first write). */
export async function signedInVisitor(
  app: FastifyInstance,
  db: Database,
  user: { id: number },
  headers: Record<string, string> = {},
): Promise<Visitor> {
  const visitor = new Visitor(app, headers);
  visitor.cookies.set("sessionid", await createSessionFor(db, user));
  return visitor;
}

/** A new user and a visitor signed in as them. */
export async function createSignedInUser(
  app: FastifyInstance,
  db: Database,
  overrides: UserOverrides = {},
): Promise<{ user: User; visitor: Visitor }> {
  const user = await createUser(db, overrides);
  return { user, visitor: await signedInVisitor(app, db, user) };
}

export interface CircleOverrides {
  parentId?: number | null;
  nameZh?: string;
  nameEn?: string;
  visibility?: (typeof circles.$inferInsert)["visibility"];
}

/** A circle under the global village unless another parent is named. */
export async function createCircle(db: Database, overrides: CircleOverrides = {}) {
  const suffix = unique();
  const [circle] = await db
    .insert(circles)
    .values({
      parentId: overrides.parentId === undefined ? 1 : overrides.parentId,
      nameZh: overrides.nameZh ?? `测试圈子${suffix}`,
      nameEn: overrides.nameEn ?? `Test circle ${suffix}`,
      visibility: overrides.visibility,
    })
    .returning();
  // As every circle write does after commit: pages and the in-memory tree forget the old circles.
  await invalidate([circlesTag]);
  await indexSubjects(db, "circle", [circle!.id]);
  return circle!;
}

/** A membership row with its role (the founder of a circle is a member with role "founder"). */
export async function addMember(
  db: Database,
  circleId: number,
  userId: number,
  role: (typeof circleMembers.$inferInsert)["role"] = "member",
) {
  const [membership] = await db.insert(circleMembers).values({ circleId, userId, role }).returning();
  // As every membership write does after commit: the remembered memberships of the user and the
  // remembered member counts (under the circle tree's tag) are dropped.
  await invalidate([membershipTag(userId), circleTag(circleId), circlesTag]);
  return membership!;
}

/** A writing category of a circle (a subclass when `parentId` names one). */
export async function addCategory(
  db: Database,
  circleId: number,
  overrides: { name?: string; parentId?: number | null; position?: number } = {},
) {
  const [category] = await db
    .insert(circleCategories)
    .values({
      circleId,
      name: overrides.name ?? `分类${unique()}`,
      parentId: overrides.parentId ?? null,
      position: overrides.position ?? 0,
    })
    .returning();
  return category!;
}

/** `follower` follows `followee` (the row only: no event, no counter; tests about following use the API). */
export async function createFollow(db: Database, follower: { id: number }, followee: { id: number }): Promise<void> {
  await db.insert(follows).values({ followerId: follower.id, followeeId: followee.id });
  // As following does after commit: the follower's remembered followees are dropped.
  await invalidate([followeesTag(follower.id)]);
}

export interface EntryOverrides {
  name?: string;
  aliases?: string[];
  disambiguation?: string | null;
  parentId?: number | null;
  description?: string;
  language?: "zh-CN" | "en";
}

/**
 * An encyclopedia entry of a circle, created by `creator` (made directly: the description becomes
 * one escaped paragraph instead of going through the Markdown pipeline; `createEntry` in
 * features/encyclopedia renders it for real).
 */
export async function createEntry(db: Database, circleId: number, creator: { id: number }, overrides: EntryOverrides = {}) {
  const description = overrides.description ?? `词条说明 ${unique()}`;
  const [entry] = await db
    .insert(encyclopediaEntries)
    .values({
      circleId,
      creatorId: creator.id,
      name: overrides.name ?? `词条${unique()}`,
      aliases: overrides.aliases ?? [],
      disambiguation: overrides.disambiguation ?? null,
      parentId: overrides.parentId ?? null,
      description,
      descriptionHtml: `<p>${escapeHtml(description)}</p>`,
      language: overrides.language ?? "zh-CN",
      editCount: 1,
    })
    .returning();
  // Its first revision, as every entry has.
  const snapshot = snapshotOfRow(entry!);
  const hash = snapshotHash(snapshot);
  await db.insert(entryRevisionContents).values({ hash, snapshot }).onConflictDoNothing();
  const [revision] = await db
    .insert(entryRevisions)
    .values({
      entryId: entry!.id,
      number: 1,
      authorId: creator.id,
      createdAt: entry!.createdAt,
      contentHash: hash,
      size: [...description].length,
      sizeDelta: [...description].length,
      language: entry!.language,
    })
    .returning();
  await db.update(encyclopediaEntries).set({ revisionId: revision!.id }).where(eq(encyclopediaEntries.id, entry!.id));
  entry!.revisionId = revision!.id;
  // As creating an entry does after commit: its circle's pages and the remembered counts.
  await invalidate(entryTags(entry!));
  await indexSubjects(db, "entry", [entry!.id]);
  return entry!;
}

export interface CommentOverrides {
  body?: string;
  /** The top-level comment a reply belongs to. */
  parentId?: number | null;
  replyToUserId?: number | null;
  createdAt?: Date;
  deleted?: boolean;
}

/**
 * A comment on a writing by `author` (the row only: no event, no notification, no rate limit; tests
 * about posting use the API). Drops the remembered first page of the writing's comments, as the
 * service's invalidation does.
 */
export async function createComment(db: Database, writingId: number, author: { id: number }, overrides: CommentOverrides = {}) {
  const [comment] = await db
    .insert(comments)
    .values({
      subjectType: "writing",
      subjectId: writingId,
      authorId: author.id,
      parentId: overrides.parentId ?? null,
      replyToUserId: overrides.replyToUserId ?? null,
      body: overrides.body ?? `评论 ${unique()}`,
      createdAt: overrides.createdAt,
      deletedAt: overrides.deleted ? new Date() : null,
    })
    .returning();
  await invalidate([commentsTag("writing", writingId), countsTag("writing", writingId)]);
  return comment!;
}

/** A paragraph of Markdown as the pipeline would store it, without running the pipeline. */
function renderedParagraph(markdown: string) {
  return { markdown, html: `<p>${escapeHtml(markdown)}</p>`, textLength: markdown.length };
}

export interface WritingOverrides {
  circleId?: number;
  title?: string;
  content?: string;
  type?: "article" | "post";
  language?: "zh-CN" | "en";
  /** Readers may tip it (赞赏). */
  tipEnabled?: boolean;
}

/**
 * A published writing by `author` (the row only: no event, no categories, the text stored as one
 * escaped paragraph; tests about publishing use the API). Drops what the service's invalidation drops.
 */
export async function createWriting(db: Database, author: { id: number }, overrides: WritingOverrides = {}) {
  const content = overrides.content ?? `正文 ${unique()}`;
  const { textLength, ...rendered } = renderedParagraph(content);
  const [writing] = await db
    .insert(writings)
    .values({
      circleId: overrides.circleId ?? 1,
      authorId: author.id,
      type: overrides.type ?? "article",
      language: overrides.language ?? "zh-CN",
      title: overrides.title ?? `文章${unique()}`,
      ...rendered,
      excerpt: content.slice(0, 120),
      textLength,
      tipEnabled: overrides.tipEnabled ?? false,
    })
    .returning();
  await invalidate(writingTags(writing!));
  await indexSubjects(db, "writing", [writing!.id]);
  return writing!;
}

/**
 * A book by `author` with chapters of the given titles (rows only: no event; each chapter's text is
 * one escaped paragraph; tests about writing books use the API or the pages).
 */
export async function createBook(
  db: Database,
  author: { id: number },
  overrides: { circleId?: number; name?: string; chapters?: string[] } = {},
) {
  const [book] = await db
    .insert(books)
    .values({ circleId: overrides.circleId ?? 1, authorId: author.id, name: overrides.name ?? `书${unique()}` })
    .returning();
  const chapters = [];
  for (const [index, title] of (overrides.chapters ?? []).entries()) {
    const [chapter] = await db
      .insert(bookChapters)
      .values({ bookId: book!.id, number: index + 1, title, ...renderedParagraph(`正文 ${index + 1}`) })
      .returning();
    chapters.push(chapter!);
  }
  await invalidate([...bookTags(book!), "circles"]);
  await indexSubjects(db, "book", [book!.id]);
  await indexSubjects(
    db,
    "chapter",
    chapters.map((chapter) => chapter.id),
  );
  return { ...book!, chapters };
}

/**
 * A question by `author` with answers by the given users (rows only: no events; each text one
 * escaped paragraph; tests about asking and answering use the API or the pages). Drops what the
 * service's invalidation drops.
 */
export async function createQuestion(
  db: Database,
  author: { id: number },
  overrides: { circleId?: number; title?: string; content?: string; answerers?: { id: number }[] } = {},
) {
  const title = overrides.title ?? `问题${unique()}`;
  const content = overrides.content ?? "";
  const rendered = content ? renderedParagraph(content) : { html: "", textLength: 0 };
  const answerers = overrides.answerers ?? [];
  const [question] = await db
    .insert(questions)
    .values({
      circleId: overrides.circleId ?? 1,
      authorId: author.id,
      title,
      titleWords: titleWords(title),
      markdown: content,
      ...rendered,
      excerpt: content.slice(0, 120),
      answerCount: answerers.length,
    })
    .returning();
  const answerRows = [];
  for (const [index, answerer] of answerers.entries()) {
    const [answer] = await db
      .insert(answers)
      .values({
        questionId: question!.id,
        authorId: answerer.id,
        ...renderedParagraph(`回答 ${index + 1}`),
        excerpt: `回答 ${index + 1}`,
      })
      .returning();
    answerRows.push(answer!);
  }
  await invalidate([...questionTags(question!), ...answerers.map((answerer) => questionStateTag(answerer.id))]);
  await indexSubjects(db, "question", [question!.id]);
  await indexSubjects(
    db,
    "answer",
    answerRows.map((answer) => answer.id),
  );
  return { ...question!, answers: answerRows };
}

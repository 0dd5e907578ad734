import { z } from "zod";
import { idSchema } from "../../common/id.ts";
import { defineOperation, noContent } from "../../server/lib/operation.ts";
import type { Viewer } from "../accounts/viewer.ts";
import { can } from "./policy.ts";
import { addEntryVersion, createEntry, deleteEntry, revertEntry, setEntryProtection, updateEntry } from "./editing.ts";
import { diffRevisions, getRevision, listRevisions, type RevisionSummary } from "./revisions.ts";
import { entryVersions, loadReadableEntry, versionIdOf, visibleCiteCount } from "./service.ts";
import { entryPath } from "./paths.ts";
import {
  createEntrySchema,
  createVersionSchema,
  entryLanguageValues,
  protectionSchema,
  revertSchema,
  updateEntrySchema,
  versionQuery,
} from "./schema.ts";
import type { EntrySnapshot } from "./revision-text.ts";
import type { DiffBlock } from "./revision-text.ts";

/*
 * The encyclopedia's operations, served by the API (features/encyclopedia/api.ts) and the
 * entry pages' forms (app/lib/entry-editor.server.ts, app/routes/encyclopedia-*.tsx).
 */

const circleParams = z.object({ circleId: idSchema });
const entryParams = z.object({ id: idSchema });
const revisionParams = z.object({ id: idSchema, revision: idSchema });

const referenceAnswer = z.strictObject({
  label: z.string(),
  authors: z.array(z.string()),
  title: z.string(),
  container: z.string().optional(),
  publisher: z.string().optional(),
  year: z.string().optional(),
  pages: z.string().optional(),
  url: z.string().optional(),
  accessed: z.string().optional(),
  doi: z.string().optional(),
});
const citationAnswer = z.strictObject({
  format: z.enum(["numeric", "label", "none"]),
  bracket: z.enum(["square", "round"]),
  cite_type: z.enum(["single", "multiple"]),
  position: z.enum(["superscript", "subscript"]),
});
const snapshotAnswer = {
  name: z.string(),
  aliases: z.array(z.string()),
  disambiguation: z.string().nullable(),
  parent_id: z.number().nullable(),
  content: z.string(),
  references: z.array(referenceAnswer),
  citation: citationAnswer,
  photos: z.array(z.strictObject({ file_id: z.string(), caption: z.string(), url: z.string() })),
};

function presentSnapshot(snapshot: EntrySnapshot) {
  return {
    name: snapshot.name,
    aliases: snapshot.aliases,
    disambiguation: snapshot.disambiguation,
    parent_id: snapshot.parent_id,
    content: snapshot.content,
    references: snapshot.references.map((reference) =>
      Object.fromEntries(Object.entries(reference).filter(([, value]) => value !== undefined && value !== null)),
    ) as EntrySnapshot["references"],
    citation: snapshot.citation,
    photos: (snapshot.photos ?? []).map((photo) => ({ file_id: photo.file_id, caption: photo.caption, url: `/attach/${photo.file_id}` })),
  };
}

const revisionAnswer = z.strictObject({
  id: z.number(),
  number: z.number(),
  author: z.strictObject({ id: z.number(), username: z.string(), nickname: z.string() }).nullable(),
  created_at: z.string(),
  summary: z.string(),
  size: z.number(),
  size_delta: z.number(),
  language: z.enum(entryLanguageValues),
  revert_of: z.number().nullable(),
  current: z.boolean(),
});

export function presentRevision(revision: RevisionSummary): z.infer<typeof revisionAnswer> {
  return {
    id: revision.id,
    number: revision.number,
    author: revision.author,
    created_at: revision.createdAt,
    summary: revision.summary,
    size: revision.size,
    size_delta: revision.sizeDelta,
    language: revision.language,
    revert_of: revision.revertOf,
    current: revision.current,
  };
}

const savedAnswer = z.strictObject({ id: z.number(), url: z.string(), revision: z.number() });

/** `POST /api/circles/{cid}/encyclopedia/entries/`: a new entry with its first revision. */
export const createEntryOperation = defineOperation({
  name: "createEntry",
  input: { params: circleParams, body: createEntrySchema },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) => createEntry({ db: services.db }, viewer, params.circleId, body, services.now()),
  present: (result) => ({ id: result.id, url: result.url, revision: result.revisionId }),
  response: savedAnswer,
  failures: ["not_found", "forbidden", "validation_failed", "content_too_large", "content_too_complex"],
});

async function entryForApi(db: Parameters<typeof loadReadableEntry>[0], viewer: Viewer | null, id: number) {
  const { row, access } = await loadReadableEntry(db, viewer, id);
  return {
    row,
    versions: await entryVersions(db, row),
    citeCount: await visibleCiteCount(db, viewer, row.id),
    permissions: {
      edit: can(viewer, "edit", access, row),
      delete: can(viewer, "delete", access, row),
      protect: can(viewer, "protect", access, row),
    },
  };
}

/** `POST /api/encyclopedia/entries/{id}/versions/`: the entry's version in another language, with its first revision. */
export const addVersionOperation = defineOperation({
  name: "addEntryVersion",
  input: { params: entryParams, body: createVersionSchema },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) => addEntryVersion({ db: services.db }, viewer, params.id, body, services.now()),
  present: (result) => ({ id: result.id, url: result.url, revision: result.revisionId }),
  response: savedAnswer,
  failures: ["not_found", "forbidden", "validation_failed", "content_too_large", "content_too_complex"],
});

/** `GET /api/encyclopedia/entries/{id}/?language=`: the entry (or its version in that language) with its current revision. */
export const getEntryOperation = defineOperation({
  name: "getEntry",
  input: { params: entryParams, query: versionQuery },
  viewer: "optional",
  run: async (services, viewer, { params, query }) =>
    entryForApi(services.db, viewer, await versionIdOf(services.db, params.id, query.language)),
  present: ({ row, versions, citeCount, permissions }) => ({
    id: row.id,
    translation_of: row.translationOf,
    versions: versions.map((version) => ({ id: version.id, language: version.language, name: version.name, url: entryPath(version) })),
    circle_id: row.circleId,
    ...presentSnapshot({
      name: row.name,
      aliases: row.aliases,
      disambiguation: row.disambiguation,
      parent_id: row.parentId,
      content: row.description,
      references: row.references,
      citation: row.citation,
      photos: row.photos,
    }),
    content_html: row.descriptionHtml,
    language: row.language,
    revision: row.revisionId ?? 0,
    protected: row.protected,
    creator_id: row.creatorId,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    edit_count: row.editCount,
    views: row.views,
    cite_count: citeCount,
    url: entryPath(row),
    permissions,
  }),
  response: z.strictObject({
    id: z.number(),
    translation_of: z.number().nullable(),
    versions: z.array(z.strictObject({ id: z.number(), language: z.enum(entryLanguageValues), name: z.string(), url: z.string() })),
    circle_id: z.number(),
    ...snapshotAnswer,
    content_html: z.string(),
    language: z.enum(entryLanguageValues),
    revision: z.number(),
    protected: z.boolean(),
    creator_id: z.number(),
    created_at: z.string(),
    updated_at: z.string(),
    edit_count: z.number(),
    views: z.number(),
    cite_count: z.number(),
    url: z.string(),
    permissions: z.strictObject({ edit: z.boolean(), delete: z.boolean(), protect: z.boolean() }),
  }),
  failures: ["not_found"],
});

/** `PATCH /api/encyclopedia/entries/{id}/`: an edit on top of `base_revision` (merged three ways when others saved since). */
export const updateEntryOperation = defineOperation({
  name: "updateEntry",
  input: { params: entryParams, query: versionQuery, body: updateEntrySchema },
  viewer: "signed-in",
  run: async (services, viewer, { params, query, body }) =>
    updateEntry({ db: services.db }, viewer, await versionIdOf(services.db, params.id, query.language), body, services.now()),
  present: (result) => ({ id: result.id, url: result.url, revision: result.revisionId, merged: result.merged }),
  response: z.strictObject({ id: z.number(), url: z.string(), revision: z.number(), merged: z.boolean() }),
  failures: ["not_found", "forbidden", "validation_failed", "edit_conflict", "content_too_large", "content_too_complex"],
});

/** `DELETE /api/encyclopedia/entries/{id}/`: for good, by the circle's moderators. */
export const deleteEntryOperation = defineOperation({
  name: "deleteEntry",
  input: { params: entryParams },
  viewer: "signed-in",
  run: (services, viewer, { params }) => deleteEntry({ db: services.db }, viewer, params.id),
  present: () => null,
  response: noContent,
  failures: ["not_found", "forbidden"],
});

/** `POST /api/encyclopedia/entries/{id}/protection/`: only moderators edit a protected entry. */
export const protectEntryOperation = defineOperation({
  name: "protectEntry",
  input: { params: entryParams, body: protectionSchema },
  viewer: "signed-in",
  run: (services, viewer, { params, body }) => setEntryProtection({ db: services.db }, viewer, params.id, body.protected),
  present: (result) => result,
  response: z.strictObject({ protected: z.boolean() }),
  failures: ["not_found", "forbidden"],
});

/** `GET /api/encyclopedia/entries/{id}/revisions/?cursor=`: newest first, 50 a page. */
export const listRevisionsOperation = defineOperation({
  name: "listEntryRevisions",
  input: { params: entryParams, query: versionQuery.extend({ cursor: idSchema.optional() }) },
  viewer: "optional",
  run: async (services, viewer, { params, query }) =>
    listRevisions(services.db, viewer, await versionIdOf(services.db, params.id, query.language), query.cursor ?? null),
  present: (page) => ({
    results: page.revisions.map(presentRevision),
    next_cursor: page.nextCursor === null ? null : String(page.nextCursor),
  }),
  response: z.strictObject({ results: z.array(revisionAnswer), next_cursor: z.string().nullable() }),
  failures: ["not_found"],
});

/** `GET /api/encyclopedia/entries/{id}/revisions/{rev}/`: one revision as it was saved. */
export const getRevisionOperation = defineOperation({
  name: "getEntryRevision",
  input: { params: revisionParams, query: versionQuery },
  viewer: "optional",
  run: async (services, viewer, { params, query }) =>
    getRevision(services.db, viewer, await versionIdOf(services.db, params.id, query.language), params.revision),
  present: ({ revision, snapshot }) => ({ ...presentRevision(revision), ...presentSnapshot(snapshot) }),
  response: revisionAnswer.extend(snapshotAnswer),
  failures: ["not_found"],
});

const diffPartAnswer = z.strictObject({ kind: z.enum(["same", "added", "removed"]), text: z.string() });
const diffBlockAnswer = z.union([
  z.strictObject({ kind: z.enum(["same", "moved_from", "moved_to"]), text: z.string() }),
  z.strictObject({ kind: z.literal("changed"), parts: z.array(diffPartAnswer) }),
]);

/** `GET /api/encyclopedia/entries/{id}/diff/?from=&to=`: any two revisions. */
export const diffRevisionsOperation = defineOperation({
  name: "diffEntryRevisions",
  input: { params: entryParams, query: versionQuery.extend({ from: idSchema, to: idSchema }) },
  viewer: "optional",
  run: async (services, viewer, { params, query }) =>
    diffRevisions(services.db, viewer, await versionIdOf(services.db, params.id, query.language), query.from, query.to),
  present: (diff) => ({
    from: presentRevision(diff.from),
    to: presentRevision(diff.to),
    fields: diff.fields,
    blocks: diff.blocks as DiffBlock[],
  }),
  response: z.strictObject({
    from: revisionAnswer,
    to: revisionAnswer,
    fields: z.array(
      z.strictObject({
        field: z.enum(["name", "aliases", "disambiguation", "parent_id", "references", "citation", "photos"]),
        from: z.unknown(),
        to: z.unknown(),
      }),
    ),
    blocks: z.array(diffBlockAnswer),
  }),
  failures: ["not_found"],
});

/** `POST /api/encyclopedia/entries/{id}/revisions/{rev}/revert/`: the old revision becomes a new one. */
export const revertEntryOperation = defineOperation({
  name: "revertEntry",
  input: { params: revisionParams, query: versionQuery, body: revertSchema },
  viewer: "signed-in",
  run: async (services, viewer, { params, query, body }) =>
    revertEntry(
      { db: services.db },
      viewer,
      await versionIdOf(services.db, params.id, query.language),
      params.revision,
      body.summary,
      services.now(),
    ),
  present: (result) => ({ id: result.id, url: result.url, revision: result.revisionId }),
  response: savedAnswer,
  failures: ["not_found", "forbidden", "validation_failed", "edit_conflict"],
});

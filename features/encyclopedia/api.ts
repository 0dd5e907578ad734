import type { FastifyInstance } from "fastify";
import { jsonRoute } from "../../server/lib/operation.ts";
import {
  addVersionOperation,
  createEntryOperation,
  deleteEntryOperation,
  diffRevisionsOperation,
  getEntryOperation,
  getRevisionOperation,
  listRevisionsOperation,
  protectEntryOperation,
  revertEntryOperation,
  updateEntryOperation,
} from "./operations.ts";
import { searchEntriesOperation } from "./search-operation.ts";

/**
 * The encyclopedia API (the writing editor's picker for now; the entry editor comes with the full
 * encyclopedia). Answers depend on the viewer, so they are never cached by others.
 */
export async function encyclopediaApi(app: FastifyInstance): Promise<void> {
  const tags = ["encyclopedia"];

  jsonRoute(app, "GET", "/api/encyclopedia/entries/", searchEntriesOperation, {
    tags,
    summary:
      "Entries whose name or an alias contains `q` (name prefixes first; at most 10), in circles the viewer may read; an empty `q` lists the `circle`'s newest",
  });

  const writeLimit = { rateLimit: { max: 60, timeWindow: "1 minute" } };
  jsonRoute(app, "POST", "/api/circles/:circleId/encyclopedia/entries/", createEntryOperation, {
    status: 201,
    tags,
    summary:
      "Start an entry in a circle (its first revision): names, disambiguation, parent, Markdown content, references and citation settings",
    config: writeLimit,
  });
  jsonRoute(app, "GET", "/api/encyclopedia/entries/:id/", getEntryOperation, {
    tags,
    summary:
      "An entry (`language`: its version in that language) with its current `revision`, its language versions and what the viewer may do with it",
  });
  jsonRoute(app, "POST", "/api/encyclopedia/entries/:id/versions/", addVersionOperation, {
    status: 201,
    tags,
    summary: "Add the entry's version in another language (its own history); one version per language",
    config: writeLimit,
  });
  jsonRoute(app, "PATCH", "/api/encyclopedia/entries/:id/", updateEntryOperation, {
    tags,
    summary:
      "Edit an entry on top of `base_revision`: edits saved since merge three ways; the same place changed on both sides is 409 `edit_conflict`",
    config: writeLimit,
  });
  jsonRoute(app, "DELETE", "/api/encyclopedia/entries/:id/", deleteEntryOperation, {
    status: 204,
    tags,
    summary: "Delete an entry for good with its history (the circle's moderators)",
    cache: "none",
  });
  jsonRoute(app, "POST", "/api/encyclopedia/entries/:id/protection/", protectEntryOperation, {
    tags,
    summary: "Protect an entry (only moderators edit it) or lift the protection (the circle's moderators)",
  });
  jsonRoute(app, "GET", "/api/encyclopedia/entries/:id/revisions/", listRevisionsOperation, {
    tags,
    summary: "An entry's revisions, newest first, 50 a page (`cursor`: the `next_cursor` of the page before)",
  });
  jsonRoute(app, "GET", "/api/encyclopedia/entries/:id/revisions/:revision/", getRevisionOperation, {
    tags,
    summary: "One revision of an entry as it was saved",
  });
  jsonRoute(app, "GET", "/api/encyclopedia/entries/:id/diff/", diffRevisionsOperation, {
    tags,
    summary:
      "The difference between any two revisions: changed fields, and the text by paragraph (word level in English, character level in Chinese; moved paragraphs marked)",
  });
  jsonRoute(app, "POST", "/api/encyclopedia/entries/:id/revisions/:revision/revert/", revertEntryOperation, {
    tags,
    summary: "Restore an old revision as a new one (whoever may edit the entry)",
    config: writeLimit,
  });
}

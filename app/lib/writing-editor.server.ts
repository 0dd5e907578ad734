import { inArray } from "drizzle-orm";
import type { AppContext } from "../context.ts";
import { AppError } from "../../common/app-error.ts";
import { authorize } from "../../common/policy.ts";
import type { Locale } from "../../common/locale.ts";
import { notFound } from "./context.server.ts";
import { circleIdOf } from "./circle-pages.server.ts";
import { loadCircleAccessMap, requireCircle } from "../../features/circles/access.server.ts";
import { listCategories } from "../../features/circles/categories.ts";
import { localizedTexts } from "../../features/circles/presenter.ts";
import { getDraft } from "../../features/writings/drafts.ts";
import { can, canWriteIn } from "../../features/writings/policy.ts";
import { categoryIdsOf, loadReadableWriting, seriesIdOf } from "../../features/writings/service.ts";
import { seriesOfAuthor } from "../../features/writings/queries.ts";
import { writingLanguageValues, type WritingLanguage, type WritingType } from "../../features/writings/schema.ts";
import { circles } from "../../server/db/schema/index.ts";
import { entriesByIds } from "../../features/encyclopedia/service.ts";
import { presentEntrySummaries } from "../../features/encyclopedia/presenter.ts";
import type { EditorMode, EditorValues } from "../../features/writings/editor-values.ts";
export type { EditorMode, EditorValues } from "../../features/writings/editor-values.ts";

function defaults(type: WritingType, language: WritingLanguage): EditorValues {
  return {
    title: "",
    content: "",
    summary: "",
    type,
    kind: "ordinary",
    kind_name: "",
    language,
    categories: [],
    related_entries: "",
    cover_file_id: "",
    is_repost: false,
    source_url: "",
    disable_copy: false,
    disable_context_menu: false,
    tip_enabled: false,
    pay_to_view_price: "0",
    red_packet_amount: "0",
    series_id: "",
  };
}

const positiveId = (raw: string | null): number | null => (raw && /^\d{1,9}$/.test(raw) ? Number(raw) : null);

/** Circles the viewer may publish in, by name, for the circle chooser. */
async function writableCircles(
  app: AppContext,
  viewer: NonNullable<AppContext["viewer"]>,
  locale: Locale,
): Promise<{ id: number; name: string }[]> {
  const accesses = [...(await loadCircleAccessMap(app.db, viewer)).values()].filter((access) => canWriteIn(viewer, access));
  const ids = accesses.map((access) => access.circle.id);
  if (ids.length === 0) return [];
  const rows = await app.db.select().from(circles).where(inArray(circles.id, ids)).orderBy(circles.id).limit(200);
  return rows.map((row) => ({ id: row.id, name: localizedTexts(row, locale).name }));
}

/**
 * What the editor page needs: the circle (`write` allowed, else 404/403; visitors log in first),
 * the mode from the query (`edit`, `translate` + `language`, `series`), the values (a saved draft
 * wins over the writing, which wins over defaults), the circle's categories and the circles the
 * viewer may write in.
 */
export async function editorPage(
  app: AppContext,
  request: Request,
  circleParam: string | undefined,
  type: "article" | "post",
  search: URLSearchParams,
) {
  if (!app.viewer) throw new AppError("not_authenticated");
  const viewer = app.viewer;
  const circleId = circleIdOf(request, circleParam);
  try {
    await requireCircle(app.db, viewer, circleId, "write", { signedIn: true });
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound(request);
    throw error;
  }
  const editId = positiveId(search.get("edit"));
  const translateId = positiveId(search.get("translate"));
  const seriesId = positiveId(search.get("series"));
  let mode: EditorMode = { kind: "new" };
  let values = defaults(type, app.locale === "en" ? "en" : "zh-CN");
  let original: { title: string; language: WritingLanguage } | null = null;
  const linked = async (id: number, action: "edit" | "extend") => {
    let loaded: Awaited<ReturnType<typeof loadReadableWriting>>;
    try {
      loaded = await loadReadableWriting(app.db, viewer, id);
    } catch (error) {
      if (error instanceof AppError && error.code === "not_found") notFound(request);
      throw error;
    }
    if (loaded.row.circleId !== circleId) notFound(request);
    authorize(viewer, can(viewer, action, { writing: loaded.row, access: loaded.access }));
    return loaded.row;
  };
  if (editId) {
    const row = await linked(editId, "edit");
    mode = { kind: "edit", id: row.id, version: row.version };
    values = {
      ...values,
      title: row.title,
      content: row.markdown,
      summary: row.summary,
      type: row.type,
      kind: row.kind,
      kind_name: row.kindName ?? "",
      language: row.language,
      categories: await categoryIdsOf(app.db, row.id),
      related_entries: row.relatedEntryIds.join(", "),
      cover_file_id: row.coverFileId ?? "",
      is_repost: row.isRepost,
      source_url: row.sourceUrl ?? "",
      disable_copy: row.disableCopy,
      disable_context_menu: row.disableContextMenu,
      tip_enabled: row.tipEnabled,
      pay_to_view_price: String(row.payToViewPrice),
      red_packet_amount: String(row.redPacketAmount),
    };
  } else if (translateId) {
    const row = await linked(translateId, "extend");
    const requested = search.get("language");
    const language = writingLanguageValues.includes(requested as WritingLanguage)
      ? (requested as WritingLanguage)
      : row.language === "en"
        ? "zh-CN"
        : "en";
    mode = { kind: "translate", id: row.translationOf ?? row.id };
    original = { title: row.title, language: row.language };
    values = {
      ...values,
      type: row.type,
      kind: row.kind,
      kind_name: row.kindName ?? "",
      language,
      categories: await categoryIdsOf(app.db, row.id),
      cover_file_id: row.coverFileId ?? "",
    };
  } else if (seriesId) {
    const row = await linked(seriesId, "extend");
    if (row.type !== "serial") notFound(request);
    mode = { kind: "series", id: row.id };
    original = { title: row.title, language: row.language };
    values = {
      ...values,
      type: "serial",
      kind: row.kind,
      kind_name: row.kindName ?? "",
      language: row.language,
      categories: await categoryIdsOf(app.db, row.id),
      series_id: String(seriesIdOf(row)),
    };
  }
  const draftKey =
    mode.kind === "new"
      ? `new-${type}-${circleId}`
      : mode.kind === "translate"
        ? `translate-${mode.id}-${values.language}`
        : `${mode.kind}-${mode.id}`;
  const draft = await getDraft(app.db, viewer.id, draftKey);
  if (draft) {
    const fields = draft.fields as Partial<EditorValues>;
    values = { ...values, ...fields, title: draft.title, content: draft.body };
    if (mode.kind !== "new") values.type = mode.kind === "series" ? "serial" : values.type;
  }
  // The related entries by name, for the picker's chips; ids that name no entry the writer may read are dropped.
  const relatedIds = String(values.related_entries ?? "")
    .split(/[\s,，]+/)
    .filter((value) => /^\d{1,9}$/.test(value))
    .map(Number);
  const related = await presentEntrySummaries(app.db, await entriesByIds(app.db, viewer, relatedIds), app.locale);
  values = { ...values, related_entries: related.map((entry) => entry.id).join(", ") };
  const [categories, writable, series] = await Promise.all([
    listCategories(app.db, circleId),
    writableCircles(app, viewer, app.locale),
    // A new article may continue one of the author's series in this circle (publishing checks the same).
    mode.kind === "new" && type === "article" ? seriesOfAuthor(app.db, viewer.id, circleId) : Promise.resolve([]),
  ]);
  const circleName = writable.find((circle) => circle.id === circleId)?.name ?? String(circleId);
  return {
    circleId,
    circleName,
    page: type,
    mode,
    original,
    values,
    draft: draft
      ? { key: draft.key, version: draft.version, updatedAt: draft.updated_at }
      : { key: draftKey, version: 0, updatedAt: null as string | null },
    categories,
    series,
    writableCircles: writable,
    relatedEntries: related.map((entry) => ({
      id: entry.id,
      name: entry.name,
      disambiguation: entry.disambiguation,
      language: entry.language,
      circle_name: entry.circle_name,
    })),
  };
}

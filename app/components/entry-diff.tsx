import type { ReactNode } from "react";
import { useTranslation } from "../lib/i18n.tsx";
import type { DiffBlock, DiffPart } from "../../features/encyclopedia/revision-text.ts";

/** What the history page hands the view: the two revisions, the changed fields, the text's blocks. */
export interface EntryDiffData {
  from: { number: number };
  to: { number: number };
  fields: { field: string; from: unknown; to: unknown }[];
  blocks: DiffBlock[];
}

/** Unchanged paragraphs kept in view on each side of a change; longer unchanged stretches fold. */
const context = 1;

type Row = { kind: "block"; block: DiffBlock } | { kind: "fold"; blocks: DiffBlock[] };

/**
 * The blocks with each long unchanged stretch folded: a paragraph of context stays next to every
 * change, the rest of the stretch becomes one fold (opened without JavaScript, a `<details>`).
 */
export function foldUnchanged(blocks: DiffBlock[]): Row[] {
  const rows: Row[] = [];
  let index = 0;
  while (index < blocks.length) {
    if (blocks[index]!.kind !== "same") {
      rows.push({ kind: "block", block: blocks[index]! });
      index += 1;
      continue;
    }
    let end = index;
    while (end < blocks.length && blocks[end]!.kind === "same") end += 1;
    const keepBefore = index === 0 ? 0 : context;
    const keepAfter = end === blocks.length ? 0 : context;
    const stretch = blocks.slice(index, end);
    if (stretch.length <= keepBefore + keepAfter + 1) for (const block of stretch) rows.push({ kind: "block", block });
    else {
      for (const block of stretch.slice(0, keepBefore)) rows.push({ kind: "block", block });
      rows.push({ kind: "fold", blocks: stretch.slice(keepBefore, stretch.length - keepAfter) });
      for (const block of stretch.slice(stretch.length - keepAfter)) rows.push({ kind: "block", block });
    }
    index = end;
  }
  return rows;
}

function Parts({ parts, side }: { parts: DiffPart[]; side: "both" | "old" | "new" }) {
  return (
    <>
      {parts.map((part, index) => {
        if (part.kind === "same") return <span key={index}>{part.text}</span>;
        if (part.kind === "removed")
          return side === "new" ? null : (
            <del key={index} className="diff-removed">
              {part.text}
            </del>
          );
        return side === "old" ? null : (
          <ins key={index} className="diff-added">
            {part.text}
          </ins>
        );
      })}
    </>
  );
}

/** Whether a side of a changed block has any text (a paragraph only added has no old side). */
function hasSide(parts: DiffPart[], side: "old" | "new") {
  return parts.some((part) => part.kind === "same" || part.kind === (side === "old" ? "removed" : "added"));
}

function fieldText(value: unknown): string {
  if (Array.isArray(value))
    return value
      .map((item) =>
        typeof item === "string"
          ? item
          : ((item as { label?: string; caption?: string }).label ?? (item as { caption?: string }).caption ?? ""),
      )
      .join(", ");
  if (value === null || value === undefined) return "—";
  if (typeof value === "object") return Object.values(value as object).join(" · ");
  return String(value);
}

/** One side of a block in the two columns. */
function SideCell({ block, side, label }: { block: DiffBlock; side: "old" | "new"; label: ReactNode }) {
  const className = `diff-${side}`;
  if (block.kind === "same")
    return (
      <td className={className}>
        <p>{block.text}</p>
      </td>
    );
  if (block.kind === "changed")
    return hasSide(block.parts, side) ? (
      <td className={`${className} diff-cell-${side === "old" ? "removed" : "added"}`}>
        <p>
          <Parts parts={block.parts} side={side} />
        </p>
      </td>
    ) : (
      <td className={`${className} diff-cell-empty`} />
    );
  const here = (block.kind === "moved_from" && side === "old") || (block.kind === "moved_to" && side === "new");
  return here ? (
    <td className={`${className} diff-cell-moved`}>
      {label}
      <p>{block.text}</p>
    </td>
  ) : (
    <td className={`${className} diff-cell-empty`} />
  );
}

/**
 * The difference between two revisions: changed fields, then the text by paragraph, either inline
 * or in two aligned columns (old and new side by side, row by row), deletions red and insertions
 * green with their words (characters, in Chinese) marked, long unchanged stretches folded.
 */
export function EntryDiff({ diff, view }: { diff: EntryDiffData; view: "inline" | "side" }) {
  const { t } = useTranslation("encyclopedia");
  const rows = foldUnchanged(diff.blocks);
  const movedLabel = (block: DiffBlock) =>
    block.kind === "moved_from" || block.kind === "moved_to" ? (
      <p className="muted diff-moved-label">{t(`history.${block.kind}`)}</p>
    ) : null;
  const fold = (blocks: DiffBlock[]) => (
    <details className="diff-fold" data-testid="diff-fold">
      <summary>{t("history.unchanged", { count: blocks.length })}</summary>
      {blocks.map((block, index) => (
        <p key={index}>{block.kind === "same" ? block.text : null}</p>
      ))}
    </details>
  );
  return (
    <div className={`entry-diff entry-diff-${view}`} data-testid="entry-diff">
      {diff.fields.length > 0 ? (
        <table className="entry-diff-fields">
          <tbody>
            {diff.fields.map((change) => (
              <tr key={change.field}>
                <th scope="row">{t(`history.field.${change.field}`)}</th>
                <td className="diff-cell-removed">
                  <del className="diff-removed">{fieldText(change.from)}</del>
                </td>
                <td className="diff-cell-added">
                  <ins className="diff-added">{fieldText(change.to)}</ins>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {view === "inline" ? (
        <div className="diff-inline-text">
          {rows.map((row, index) =>
            row.kind === "fold" ? (
              <div key={index}>{fold(row.blocks)}</div>
            ) : (
              <div key={index} className={`diff-block diff-${row.block.kind}`}>
                {movedLabel(row.block)}
                <p>{row.block.kind === "changed" ? <Parts parts={row.block.parts} side="both" /> : row.block.text}</p>
              </div>
            ),
          )}
        </div>
      ) : (
        <table className="diff-columns" data-testid="diff-columns">
          <thead>
            <tr>
              <th scope="col">{t("history.revision_number", { number: diff.from.number })}</th>
              <th scope="col">{t("history.revision_number", { number: diff.to.number })}</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row, index) =>
              row.kind === "fold" ? (
                <tr key={index} className="diff-row diff-fold-row">
                  <td colSpan={2}>{fold(row.blocks)}</td>
                </tr>
              ) : (
                <tr key={index} className={`diff-block diff-row diff-${row.block.kind}`}>
                  <SideCell block={row.block} side="old" label={movedLabel(row.block)} />
                  <SideCell block={row.block} side="new" label={movedLabel(row.block)} />
                </tr>
              ),
            )}
          </tbody>
        </table>
      )}
    </div>
  );
}

/*
 * "Cite this entry": one revision of an entry cited in the five formats readers paste into papers
 * and reference managers, each pinned to the revision's permanent address (`?revision={rev}`).
 * Pure text formatting, run by the server render and again in the browser with the day of
 * access: no citation library in the entry page.
 */

export const citationStyles = ["gbt7714", "apa", "mla", "bibtex", "ris"] as const;
export type CitationStyle = (typeof citationStyles)[number];

export interface CitedRevision {
  entryId: number;
  revisionId: number;
  /** The entry's name, with its disambiguation note when it has one. */
  title: string;
  language: "zh-CN" | "en";
  /** The encyclopedia as a publication: "圈子百科", "Circles Encyclopedia". */
  site: string;
  /** When the revision was saved. */
  savedAt: Date;
  /** The revision's permanent address (absolute, with `?revision=`). */
  url: string;
  /** The day the reader cites it. */
  accessed: Date;
}

const months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
const mlaMonths = ["Jan.", "Feb.", "Mar.", "Apr.", "May", "June", "July", "Aug.", "Sept.", "Oct.", "Nov.", "Dec."];
const bibtexMonths = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];

/** The date parts in Asia/Shanghai, where the site's days are counted. */
function dayOf(moment: Date): { year: number; month: number; day: number } {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Shanghai", year: "numeric", month: "2-digit", day: "2-digit" })
    .formatToParts(moment)
    .reduce<Record<string, string>>((all, part) => ({ ...all, [part.type]: part.value }), {});
  return { year: Number(parts.year), month: Number(parts.month) - 1, day: Number(parts.day) };
}

const iso = (moment: Date) => {
  const { year, month, day } = dayOf(moment);
  return `${year}-${String(month + 1).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
};

/** GB/T 7714-2015, an online electronic resource: 题名[EB/OL]. 出版者, 更新日期[引用日期]. 网址. */
function gbt7714(cited: CitedRevision): string {
  return `${cited.title}[EB/OL]. ${cited.site}, (${iso(cited.savedAt)})[${iso(cited.accessed)}]. ${cited.url}.`;
}

/** APA 7, an entry of a wiki (no author; the revision's date; "In" the work; the permanent URL). */
function apa(cited: CitedRevision): string {
  const { year, month, day } = dayOf(cited.savedAt);
  return `${cited.title}. (${year}, ${months[month]} ${day}). In ${cited.site}. ${cited.url}`;
}

/** MLA 9, a page of a website: "Title." Site, day month year, URL. Accessed day month year. */
function mla(cited: CitedRevision): string {
  const saved = dayOf(cited.savedAt);
  const accessed = dayOf(cited.accessed);
  const url = cited.url.replace(/^https?:\/\//, "");
  return `“${cited.title}.” ${cited.site}, ${saved.day} ${mlaMonths[saved.month]} ${saved.year}, ${url}. Accessed ${accessed.day} ${mlaMonths[accessed.month]} ${accessed.year}.`;
}

/** Characters BibTeX treats specially, escaped inside a braced field. */
function bibtexText(text: string): string {
  return text.replace(/[\\{}]/g, (character) => (character === "\\" ? "\\textbackslash{}" : `\\${character}`)).replace(/[&%$#_]/g, "\\$&");
}

function bibtex(cited: CitedRevision): string {
  const saved = dayOf(cited.savedAt);
  return [
    `@misc{entry${cited.entryId}rev${cited.revisionId},`,
    `  title = {${bibtexText(cited.title)}},`,
    `  howpublished = {${bibtexText(cited.site)}},`,
    `  year = {${saved.year}},`,
    `  month = ${bibtexMonths[saved.month]},`,
    `  url = {${cited.url}},`,
    `  urldate = {${iso(cited.accessed)}},`,
    `  note = {Revision ${cited.revisionId}},`,
    `  language = {${cited.language === "en" ? "english" : "chinese"}}`,
    `}`,
  ].join("\n");
}

function ris(cited: CitedRevision): string {
  const saved = dayOf(cited.savedAt);
  const slash = (moment: Date) => iso(moment).replaceAll("-", "/");
  return [
    "TY  - ELEC",
    `TI  - ${cited.title}`,
    `T2  - ${cited.site}`,
    `PY  - ${saved.year}`,
    `DA  - ${slash(cited.savedAt)}`,
    `UR  - ${cited.url}`,
    `Y2  - ${slash(cited.accessed)}`,
    `LA  - ${cited.language}`,
    `N1  - Revision ${cited.revisionId}`,
    "ER  - ",
  ].join("\n");
}

/** The revision cited in every style. */
export function citeRevision(cited: CitedRevision): Record<CitationStyle, string> {
  return { gbt7714: gbt7714(cited), apa: apa(cited), mla: mla(cited), bibtex: bibtex(cited), ris: ris(cited) };
}

// Print files by format. A print's files are one entry per sheet and format (every PNG,
// then every PDF); the success modal only has their paths (repeated filePath parameters),
// so a file's format and sheet are also read back from its path.
import type { PrintFile } from "../../api/types";

export type PrintFileFormat = PrintFile["format"];

export const FORMAT_LABELS: Record<PrintFileFormat, string> = { png: "PNG", pdf: "PDF" };
export const FORMAT_ORDER: PrintFileFormat[] = ["png", "pdf"];

export interface ListedFile {
  format: PrintFileFormat;
  /** 1-based sheet number, when known. */
  sheet?: number;
  path: string;
  bytes?: number;
}

/** `/api/print/{id}/files/{n}` is sheet n as PNG, `/files/{n}/pdf` as PDF. */
export function fileOfPath(path: string): ListedFile {
  const m = /\/files\/(\d+)(?:\/(png|pdf))?\/?(?:[?#].*)?$/.exec(path);
  if (!m) return { format: /\.pdf(?:[?#].*)?$/i.test(path) ? "pdf" : "png", path };
  return { format: (m[2] as PrintFileFormat | undefined) ?? "png", sheet: Number(m[1]), path };
}

export const listedFiles = (files: PrintFile[]): ListedFile[] => files.map((f) => ({ format: f.format ?? "png", sheet: f.sheet, path: f.path, bytes: f.bytes }));

/** The files grouped by format in the canonical order (PNG, then PDF); empty groups left out. */
export function groupByFormat(files: ListedFile[]): { format: PrintFileFormat; files: ListedFile[] }[] {
  return FORMAT_ORDER.map((format) => ({ format, files: files.filter((f) => f.format === format) })).filter((g) => g.files.length > 0);
}

/** "Gang sheet (PDF)" for a one-sheet print, else "Sheet 2 of 3 (PDF)". */
export function fileLabel(f: ListedFile, index: number, count: number): string {
  const fmt = FORMAT_LABELS[f.format];
  return count === 1 ? `Gang sheet (${fmt})` : `Sheet ${f.sheet ?? index + 1} of ${count} (${fmt})`;
}

export function formatBytes(n: number | undefined): string | undefined {
  if (n === undefined) return undefined;
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(0)} KB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MB`;
}

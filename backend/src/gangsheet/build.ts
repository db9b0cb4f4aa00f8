/**
 * `gangsheet build`: JOB.json -> sheet PNGs and/or PDFs, previews, layout.json, report.json.
 * The job's design paths are relative to the JSON file, whose folder is the storage root.
 */
import * as fs from 'fs';
import * as path from 'path';
import { FixedPlacement, LabelSpace } from './pack/footprint';
import { compareNesting, layoutSheets, LayoutResult, resolveSettings, SheetSettings } from './pack/layout';
import { PrintFormat, renderSheets, RenderProgress } from './render/render-sheet';
import { designReport, DesignReportEntry, layoutSummary, LayoutSummary } from './report';
import { DesignInfo, inspectDesign } from './trim';

export interface BuildJob {
  /** Sheet settings plus the print file formats (default ["png"]). */
  sheet?: SheetSettings & { formats?: PrintFormat[] };
  /** `label`: space reserved beside every copy (inches), reported in layout.json. */
  designs: { file: string; width: number; quantity: number; id?: string; label?: LabelSpace }[];
  /** Copies already placed (by design id); the others are laid out around them. */
  fixed?: FixedPlacement[];
}

export interface BuildReport extends LayoutSummary {
  nesting: 'box' | 'shape';
  /** "shape" jobs: the rectangle layout's total length and the film saved against it (inches). */
  boxTotalLength?: number;
  savedLength?: number;
  /** Per sheet: the first print file (PNG when asked for) and every file by format. */
  files: { sheet: string; preview: string; bytes: number; formats: { format: PrintFormat; file: string; bytes: number }[] }[];
  designs: DesignReportEntry[];
}

export async function buildJob(
  jobPath: string,
  outDir: string,
  opts: { timeLimitMs?: number; threads?: number; onProgress?: (p: RenderProgress & { stage: string }) => void } = {},
): Promise<BuildReport> {
  const job = JSON.parse(fs.readFileSync(jobPath, 'utf8')) as BuildJob;
  if (!job || !Array.isArray(job.designs) || job.designs.length === 0) throw new Error('job needs a non-empty "designs" array');
  const root = path.dirname(jobPath);
  const ids = job.designs.map((d, i) => d.id ?? `${i + 1}:${d.file}`);
  const infos: DesignInfo[] = [];
  for (const d of job.designs) {
    if (typeof d.file !== 'string') throw new Error('every design needs a "file"');
    infos.push(await inspectDesign(d.file, { root }));
  }
  const { formats = ['png'], ...sheetSettings } = job.sheet ?? {};
  if (job.fixed !== undefined && !Array.isArray(job.fixed)) throw new Error('"fixed" must be a list of placements');
  if (!Array.isArray(formats) || formats.length === 0 || formats.some((f) => f !== 'png' && f !== 'pdf'))
    throw new Error('"sheet.formats" must be a non-empty list of "png" and/or "pdf"');
  const designs = job.designs.map((d, i) => ({
    id: ids[i],
    widthPx: infos[i].trim.width,
    heightPx: infos[i].trim.height,
    width: d.width,
    quantity: d.quantity,
    mask: infos[i].mask,
    label: d.label,
  }));
  const nesting = resolveSettings(sheetSettings).nesting;
  let layout: LayoutResult;
  let box: LayoutResult | undefined;
  if (nesting === 'shape') {
    const cmp = compareNesting(designs, sheetSettings, { timeLimitMs: opts.timeLimitMs ?? 10000, threads: opts.threads, fixed: job.fixed });
    layout = cmp.shape;
    box = cmp.box;
  } else layout = layoutSheets(designs, sheetSettings, { timeLimitMs: opts.timeLimitMs, fixed: job.fixed });
  fs.mkdirSync(outDir, { recursive: true });
  const rendered = await renderSheets({
    sheets: layout.sheets,
    // a shape-nested sheet's rasters are clipped to their ink masks (what the nester assumed)
    designs: job.designs.map((d, i) => ({ id: ids[i], path: d.file, ...infos[i], mask: nesting === 'shape' ? infos[i].mask : undefined })),
    dpi: layout.settings.dpi,
    root,
    output: (i) => ({
      png: formats.includes('png') ? path.join(outDir, `sheet-${i + 1}.png`) : undefined,
      pdf: formats.includes('pdf') ? path.join(outDir, `sheet-${i + 1}.pdf`) : undefined,
      preview: path.join(outDir, `sheet-${i + 1}.preview.webp`),
    }),
    onProgress: opts.onProgress,
  });
  const report: BuildReport = {
    ...layoutSummary(layout),
    nesting,
    ...(box ? { boxTotalLength: box.totalLength, savedLength: +(box.totalLength - layout.totalLength).toFixed(4) } : {}),
    files: rendered.map((r) => ({
      sheet: path.basename(r.path),
      preview: path.basename(r.previewPath!),
      bytes: r.bytes,
      formats: r.files.map((f) => ({ format: f.format, file: path.basename(f.path), bytes: f.bytes })),
    })),
    designs: designReport(job.designs.map((d, i) => ({ id: ids[i], trim: infos[i].trim, width: d.width, quantity: d.quantity, vector: infos[i].vector }))),
  };
  const settings = { ...layout.settings, maxLength: Number.isFinite(layout.settings.maxLength) ? layout.settings.maxLength : null };
  fs.writeFileSync(path.join(outDir, 'layout.json'), JSON.stringify({ ...layout, settings }, null, 2));
  fs.writeFileSync(path.join(outDir, 'report.json'), JSON.stringify(report, null, 2));
  return report;
}

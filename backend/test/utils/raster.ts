import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
/**
 * Reading rendered print files back in tests: PNG and PDF (through poppler) as raw RGBA, and
 * the largest pixel difference between two such images.
 */
import { execFileSync } from 'child_process';
import sharp from 'sharp';

export async function rawRgba(file: string): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(file, { limitInputPixels: false }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Renders page 1 of a PDF with poppler (cairo backend, transparent background) to RGBA. */
export async function popplerRgba(pdf: string, dpi: number): Promise<{ data: Buffer; width: number; height: number }> {
  const prefix = pdf.replace(/\.pdf$/, '-cairo');
  execFileSync('pdftocairo', ['-png', '-transp', '-singlefile', '-r', String(dpi), pdf, prefix]);
  return rawRgba(`${prefix}.png`);
}

/** Largest difference between two RGBA images compared premultiplied (colour under alpha 0 is meaningless). */
export function maxPremultipliedDiff(a: Buffer, b: Buffer): number {
  let max = 0;
  for (let i = 0; i < a.length; i += 4) {
    for (let c = 0; c < 3; c++) max = Math.max(max, Math.abs((a[i + c] * a[i + 3] - b[i + c] * b[i + 3]) / 255));
    max = Math.max(max, Math.abs(a[i + 3] - b[i + 3]));
  }
  return max;
}

/** The text of a PDF as pdftotext reads it (-raw: in drawing order, so turned words stay whole). */
export function pdfText(pdf: Uint8Array): string {
  const dir = mkdtempSync(join(tmpdir(), 'gs-pdf-'));
  try {
    writeFileSync(join(dir, 'f.pdf'), pdf);
    return execFileSync('pdftotext', ['-raw', join(dir, 'f.pdf'), '-']).toString('utf8');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

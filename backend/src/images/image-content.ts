/**
 * What an uploaded file really is, decided from its bytes and never from its name, and
 * whether an SVG is safe to keep. Pure functions over buffers; sharp lives in
 * image-inspector.service.ts.
 */

export type ImageKind = 'png' | 'jpeg' | 'svg';

export const MIME: Record<ImageKind, string> = { png: 'image/png', jpeg: 'image/jpeg', svg: 'image/svg+xml' };
export const EXTENSION: Record<ImageKind, string> = { png: 'png', jpeg: 'jpg', svg: 'svg' };

/** Messages shown next to the file's name in the upload result (and the UI's error tile). */
export const UploadError = {
  empty: 'The file is empty',
  tooLarge: (mb: number) => `The file is larger than ${mb} MB`,
  unsupported: 'Unsupported file type: only JPEG, PNG and SVG images are accepted',
  program: 'This file is a program, not an image',
  damaged: 'The image is damaged or incomplete and cannot be read',
  tooManyPixels: (w: number, h: number, maxPixels: number) =>
    `The image is too large: ${w} × ${h} pixels (the limit is ${Math.floor(maxPixels / 1_000_000)} megapixels)`,
  svgDoctype: 'SVG files with a DOCTYPE or entities are not accepted',
  svgScript: 'SVG files with scripts are not accepted',
  svgHandler: 'SVG files with event handlers (on…=) are not accepted',
  svgForeign: 'SVG files with embedded HTML (foreignObject) are not accepted',
  svgExternal: 'SVG files that load external resources are not accepted',
  svgNotSvg: 'The file is not a valid SVG image',
} as const;

export type Detection = { kind: ImageKind } | { error: string };

const startsWith = (buf: Buffer, bytes: number[]) => bytes.every((b, i) => buf[i] === b);

/**
 * Recognises PNG and JPEG by their signatures and SVG by its XML root element. `head` is
 * the start of the file (a few KB is enough for the binary formats; SVG needs the text
 * up to its root element).
 */
export function detectKind(head: Buffer): Detection {
  if (head.length === 0) return { error: UploadError.empty };
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { kind: 'png' };
  if (startsWith(head, [0xff, 0xd8, 0xff])) return { kind: 'jpeg' };
  // ELF, PE/DOS (MZ), Mach-O (both byte orders, fat), shebang scripts.
  if (
    startsWith(head, [0x7f, 0x45, 0x4c, 0x46]) ||
    startsWith(head, [0x4d, 0x5a]) ||
    startsWith(head, [0xcf, 0xfa, 0xed, 0xfe]) ||
    startsWith(head, [0xfe, 0xed, 0xfa, 0xcf]) ||
    startsWith(head, [0xca, 0xfe, 0xba, 0xbe]) ||
    startsWith(head, [0x23, 0x21])
  ) {
    return { error: UploadError.program };
  }
  const root = xmlRoot(head.toString('utf8'));
  if (root === 'doctype') return { error: UploadError.svgDoctype };
  if (root === 'svg') return { kind: 'svg' };
  return { error: UploadError.unsupported };
}

/**
 * The name of the root element of an XML text, skipping the BOM, the XML declaration,
 * comments and processing instructions; 'doctype' when a DOCTYPE comes first.
 */
function xmlRoot(text: string): 'svg' | 'doctype' | null {
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    while (i < text.length && /\s/.test(text[i])) i++;
    if (text.startsWith('<?', i)) {
      const end = text.indexOf('?>', i + 2);
      if (end < 0) return null;
      i = end + 2;
    } else if (text.startsWith('<!--', i)) {
      const end = text.indexOf('-->', i + 4);
      if (end < 0) return null;
      i = end + 3;
    } else if (/^<!DOCTYPE/i.test(text.slice(i, i + 9))) {
      return 'doctype';
    } else {
      return /^<(svg:)?svg[\s>/]/.test(text.slice(i, i + 10)) ? 'svg' : null;
    }
  }
}

/** Raster data URIs are fine inside an SVG; everything else must stay inside the document. */
function isLocalReference(value: string): boolean {
  const v = value.trim();
  return v === '' || v.startsWith('#') || /^data:image\/(png|jpe?g|gif|webp);/i.test(v);
}

/**
 * Null when the SVG is acceptable, else the reason. Conservative on purpose: an SVG is
 * artwork, so anything active or anything that reaches outside the file is refused
 * rather than cleaned.
 */
export function svgProblem(text: string): string | null {
  const body = text.replace(/<!--[\s\S]*?-->/g, '');
  if (/<!DOCTYPE|<!ENTITY/i.test(body)) return UploadError.svgDoctype;
  if (/<([\w-]+:)?script[\s>/]/i.test(body)) return UploadError.svgScript;
  if (/javascript:/i.test(body)) return UploadError.svgScript;
  if (/<([\w-]+:)?foreignObject[\s>/]/i.test(body)) return UploadError.svgForeign;
  if (/<([\w-]+:)?(iframe|embed|object|audio|video)[\s>/]/i.test(body)) return UploadError.svgForeign;
  // Only inside tags: an attribute whose name starts with "on".
  for (const tag of body.matchAll(/<[^!?/][^>]*>/g)) {
    const attrs = tag[0];
    if (/[\s"'/]on[a-z]+\s*=/i.test(attrs)) return UploadError.svgHandler;
    // animate/set can rewrite an href at run time
    if (/attributeName\s*=\s*["']\s*(xlink:)?href/i.test(attrs)) return UploadError.svgExternal;
    for (const m of attrs.matchAll(/[\s"'](?:[\w-]+:)?(href|src)\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/gi)) {
      const value = m[3] ?? m[4] ?? m[5] ?? '';
      if (!isLocalReference(value)) return UploadError.svgExternal;
    }
  }
  // CSS: url(...) or @import pointing outside the document
  for (const m of body.matchAll(/url\(\s*(['"]?)([^'")]*)\1\s*\)/gi)) {
    if (!isLocalReference(m[2])) return UploadError.svgExternal;
  }
  if (/@import/i.test(body)) return UploadError.svgExternal;
  return null;
}

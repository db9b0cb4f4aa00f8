/**
 * What an uploaded file really is, decided from its bytes and never from its name, and
 * whether an SVG is safe to keep. Pure functions over buffers; sharp lives in
 * image-inspector.service.ts.
 */

import { SaxesParser } from 'saxes';

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
  tooSlow: 'The file took too long to check and was not accepted',
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

const FOREIGN_ELEMENTS = new Set(['foreignobject', 'iframe', 'embed', 'object', 'audio', 'video']);

/** A reason to refuse, thrown out of the parser's handlers to stop at the first problem. */
class Refused extends Error {}

/**
 * Problems of CSS or attribute text: `javascript:`, `@import`, or a `url(...)` reaching
 * outside the document. Only indexOf scans, so the cost is linear in the text whatever it holds.
 */
function textProblem(text: string): string | null {
  const lower = text.toLowerCase();
  if (lower.includes('javascript:')) return UploadError.svgScript;
  if (lower.includes('@import')) return UploadError.svgExternal;
  for (let at = lower.indexOf('url('); at >= 0; at = lower.indexOf('url(', at)) {
    const close = lower.indexOf(')', at + 4);
    if (close < 0) break; // no url(...) is complete after this point
    const value = text.slice(at + 4, close).trim().replace(/^(['"])(.*)\1$/s, '$2');
    if (!isLocalReference(value)) return UploadError.svgExternal;
    at = close + 1;
  }
  return null;
}

/** The name after the namespace prefix, lower-cased: SVG element and attribute names are checked case-insensitively. */
const localName = (name: string) => name.slice(name.indexOf(':') + 1).toLowerCase();

/**
 * Null when the SVG is acceptable, else the reason. Conservative on purpose: an SVG is
 * artwork, so anything active or anything that reaches outside the file is refused
 * rather than cleaned. The file is read by a streaming XML parser (saxes), which is linear
 * in the file's size and refuses anything that is not well-formed XML, so no crafted input
 * can make the check slow (see docs/images.md). Entities and character references are
 * decoded by the parser before we look at a value, so they cannot hide a scheme.
 */
export function svgProblem(text: string): string | null {
  const parser = new SaxesParser({ position: false });
  let root: string | null = null;
  const refuse = (problem: string | null) => {
    if (problem) throw new Refused(problem);
  };
  parser.on('doctype', () => refuse(UploadError.svgDoctype));
  parser.on('processinginstruction', (pi) => {
    // <?xml-stylesheet href="..."?> loads a style sheet from anywhere
    if (pi.target.toLowerCase() === 'xml-stylesheet') refuse(UploadError.svgExternal);
  });
  parser.on('opentag', (tag) => {
    const name = localName(tag.name);
    root ??= name;
    if (name === 'script') refuse(UploadError.svgScript);
    if (FOREIGN_ELEMENTS.has(name)) refuse(UploadError.svgForeign);
    for (const [attrName, value] of Object.entries(tag.attributes)) {
      refuse(textProblem(value));
      const attr = localName(attrName);
      if (attr.startsWith('on')) refuse(UploadError.svgHandler);
      // animate/set can rewrite an href at run time
      if (attr === 'attributename' && /^(xlink:)?href$/i.test(value.trim())) refuse(UploadError.svgExternal);
      if ((attr === 'href' || attr === 'src') && !isLocalReference(value)) refuse(UploadError.svgExternal);
    }
  });
  // <style> sheets and anything else in the text: url(), @import, javascript:
  parser.on('text', (t) => refuse(textProblem(t)));
  parser.on('cdata', (t) => refuse(textProblem(t)));
  try {
    parser.write(text).close();
  } catch (e) {
    if (e instanceof Refused) return e.message;
    // Not well-formed XML; entity markup out of place gets the more helpful message.
    return /<!entity/i.test(text) ? UploadError.svgDoctype : UploadError.svgNotSvg;
  }
  return root === 'svg' ? null : UploadError.svgNotSvg;
}

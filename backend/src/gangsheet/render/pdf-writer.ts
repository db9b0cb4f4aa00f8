/**
 * Minimal streaming PDF file writer: numbered objects written straight to disk, stream
 * objects whose data arrives in chunks (with an indirect /Length written after them), and
 * the cross-reference table at the end. Only what a gang-sheet page needs (images, one
 * content stream, one page); see docs/gangsheet.md ("Print files") for why we write the
 * objects ourselves instead of using a PDF library.
 */
import { ByteSink, fileSink } from './byte-sink';

/**
 * The largest byte offset a classic cross-reference table can hold (ten digits per entry).
 * A page whose images compress badly could pass it (about 2.5 gigapixels of distinct
 * incompressible art); the writer then stops with an error instead of writing a file no
 * reader can open.
 */
export const PDF_MAX_OFFSET = 9_999_999_999;

export class PdfWriter {
  /** Byte offset of every object, by object number (0 is the free-list head). */
  private readonly offsets: number[] = [0];
  private pos = 0;

  private constructor(private readonly sink: ByteSink) {}

  /** Writes to the file `target`, or into a sink (see ByteSink). */
  static async create(target: string | ByteSink): Promise<PdfWriter> {
    const w = new PdfWriter(typeof target === 'string' ? await fileSink(target) : target);
    // the binary comment tells transfer tools the file is not plain text
    await w.write(Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'));
    return w;
  }

  /** Total bytes written so far. */
  get bytes(): number {
    return this.pos;
  }

  private async write(buf: Buffer): Promise<void> {
    await this.sink.write(buf);
    this.pos += buf.length;
  }

  /** Reserves an object number, for references written before the object itself. */
  alloc(): number {
    this.offsets.push(-1);
    return this.offsets.length - 1;
  }

  private begin(num: number): Buffer {
    if (this.offsets[num] !== -1) throw new Error(`PDF object ${num} is not reserved or already written`);
    if (this.pos > PDF_MAX_OFFSET) throw new Error(`PDF passes ${PDF_MAX_OFFSET} bytes, the largest offset its cross-reference table can hold`);
    this.offsets[num] = this.pos;
    return Buffer.from(`${num} 0 obj\n`, 'latin1');
  }

  /** Writes a non-stream object (`body` is PDF syntax, e.g. a dictionary). */
  async object(num: number, body: string): Promise<void> {
    await this.write(Buffer.concat([this.begin(num), Buffer.from(`${body}\nendobj\n`, 'latin1')]));
  }

  /**
   * Writes a stream object. `dict` holds the entries without /Length (it is added as an
   * indirect object, so the data can be streamed); `produce` writes the data through `put`.
   */
  async stream(num: number, dict: string, produce: (put: (data: Buffer) => Promise<void>) => Promise<void>): Promise<void> {
    const lengthNum = this.alloc();
    await this.write(Buffer.concat([this.begin(num), Buffer.from(`<< ${dict} /Length ${lengthNum} 0 R >>\nstream\n`, 'latin1')]));
    const start = this.pos;
    await produce((data) => this.write(data));
    const length = this.pos - start;
    await this.write(Buffer.from('\nendstream\nendobj\n', 'latin1'));
    await this.object(lengthNum, String(length));
  }

  /** Writes the cross-reference table and trailer, closes the file; returns its size. */
  async finish(catalog: number): Promise<number> {
    const missing = this.offsets.findIndex((o, i) => i > 0 && o < 0);
    if (missing > 0) throw new Error(`PDF object ${missing} was reserved but never written`);
    const xrefAt = this.pos;
    const lines = [`xref\n0 ${this.offsets.length}\n`, '0000000000 65535 f \n'];
    for (let i = 1; i < this.offsets.length; i++) lines.push(`${String(this.offsets[i]).padStart(10, '0')} 00000 n \n`);
    lines.push(`trailer\n<< /Size ${this.offsets.length} /Root ${catalog} 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`);
    await this.write(Buffer.from(lines.join(''), 'latin1'));
    await this.sink.finish();
    return this.pos;
  }

  /** Stops the writer and removes what it wrote. */
  async abort(): Promise<void> {
    await this.sink.abort();
  }
}

/** Formats a number for PDF content (no exponent, at most 4 decimals, no trailing zeros). */
export function pdfNum(v: number): string {
  const s = (Math.round(v * 10000) / 10000).toFixed(4);
  return s.replace(/\.?0+$/, '') || '0';
}

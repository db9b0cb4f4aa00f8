// Image files for the images/sizes browser specs, made in memory (no binary fixtures).
import { deflateSync } from "node:zlib";

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
};

/** An opaque RGB PNG with diagonal colour bands, `width` × `height` pixels. */
export function pngImage(width, height, [r, g, b] = [79, 70, 229]) {
  const row = 1 + width * 3;
  const raw = Buffer.alloc(row * height);
  for (let y = 0; y < height; y++) {
    raw[y * row] = 0;
    for (let x = 0; x < width; x++) {
      const band = Math.floor((x + y) / 40) % 2;
      const o = y * row + 1 + x * 3;
      raw[o] = band ? r : 255 - r / 3;
      raw[o + 1] = band ? g : 220;
      raw[o + 2] = band ? b : 120;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

/**
 * A transparent RGBA PNG of one filled disc (anti-aliased edge), `size` × `size` pixels:
 * round art whose ink covers about 79 % of its box, so true-shape nesting saves film.
 */
export function pngDisc(size, [r, g, b] = [220, 38, 38]) {
  const row = 1 + size * 4;
  const raw = Buffer.alloc(row * size);
  const c = (size - 1) / 2;
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const o = y * row + 1 + x * 4;
      const d = Math.hypot(x - c, y - c);
      raw[o] = r;
      raw[o + 1] = g;
      raw[o + 2] = b;
      raw[o + 3] = Math.round(255 * Math.max(0, Math.min(1, size / 2 - d)));
    }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // truecolour with alpha
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw)), chunk("IEND", Buffer.alloc(0))]);
}

export const files = {
  tiger: () => ({ name: "tiger.png", mimeType: "image/png", buffer: pngImage(1200, 900) }),
  lotus: () => ({ name: "lotus.png", mimeType: "image/png", buffer: pngImage(900, 900, [16, 185, 129]) }),
  disc: () => ({ name: "disc.png", mimeType: "image/png", buffer: pngDisc(600) }),
  /** Named like a PNG, but not one: the server must refuse it by content. */
  fake: () => ({ name: "broken.png", mimeType: "image/png", buffer: Buffer.from("MZ\x90\x00 this is not an image at all") }),
};

/** Uploads through the API (same cookies as the page) and returns the stored images. */
export async function uploadViaApi(context, baseUrl, fileList, fields = {}) {
  const multipart = { ...fields };
  const res = await context.request.fetch(`${baseUrl}/api/images/bulk-upload`, {
    method: "POST",
    headers: { "X-Requested-With": "XMLHttpRequest", Origin: baseUrl },
    multipart: { ...multipart, files: fileList[0] },
  });
  if (res.status() !== 201) throw new Error(`upload failed: ${res.status()} ${await res.text()}`);
  return (await res.json()).data;
}

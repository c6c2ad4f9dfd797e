/**
 * The pixel size of an image given as base64 (PNG, JPEG, GIF, WebP), read from its header only, for
 * counting an image's prompt tokens by each provider's documented rule. Null when the bytes are
 * none of those formats or the header is cut.
 */
export interface ImageSize {
  width: number;
  height: number;
}

/** The first bytes are enough for every header below except JPEG's, whose size marker may sit later. */
const HEAD_BYTES = 64 * 1024;

function jpegSize(b: Buffer): ImageSize | null {
  let at = 2;
  while (at + 9 < b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1]!;
    const length = b.readUInt16BE(at + 2);
    // SOF0–SOF15 carry the size, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      return { height: b.readUInt16BE(at + 5), width: b.readUInt16BE(at + 7) };
    at += 2 + length;
  }
  return null;
}

function webpSize(b: Buffer): ImageSize | null {
  const kind = b.toString('ascii', 12, 16);
  if (kind === 'VP8X' && b.length >= 30) return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
  if (kind === 'VP8L' && b.length >= 25) {
    const bits = b.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >> 14) & 0x3fff) };
  }
  if (kind === 'VP8 ' && b.length >= 30) return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  return null;
}

export function imageSizeOf(base64: string): ImageSize | null {
  // Decoding only the head: a multi-megabyte image is not copied to be measured.
  const b = Buffer.from(base64.slice(0, Math.ceil((HEAD_BYTES * 4) / 3 / 4) * 4), 'base64');
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47) return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  if (b.length >= 10 && b.toString('ascii', 0, 3) === 'GIF') return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) return jpegSize(b);
  if (b.length >= 16 && b.toString('ascii', 0, 4) === 'RIFF' && b.toString('ascii', 8, 12) === 'WEBP') return webpSize(b);
  return null;
}

// Owns the sample signature images served at GET /_sim/samples, so the comparator can be tried by hand
// without a scanner: small black-on-white grayscale PNGs drawn here (node:zlib), two "scans" of one
// signature that differ by a stroke, and copies carrying each magic marker in a PNG tEXt chunk.
import { crc32, deflateSync } from 'node:zlib';
import { MARKERS } from './compare.js';

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A 48×16 8-bit grayscale PNG of a wavy stroke; `jitter` shifts the stroke, `text` adds a tEXt chunk. */
function signaturePng(jitter: number, text?: string): Buffer {
  const w = 48;
  const h = 16;
  const rows: Buffer[] = [];
  for (let y = 0; y < h; y++) {
    const row = Buffer.alloc(w + 1, 0xff);
    row[0] = 0; // filter: none
    for (let x = 0; x < w; x++) {
      const ink = Math.round(8 + 5 * Math.sin((x + jitter) / 4));
      if (Math.abs(y - ink) <= 1) row[x + 1] = 0x10;
    }
    rows.push(row);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr.set([8, 0, 0, 0, 0], 8); // bit depth 8, grayscale, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', ihdr),
    ...(text ? [chunk('tEXt', Buffer.from(`Comment\0${text}`, 'latin1'))] : []),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Base64 PNGs by name; compare any two of them. */
export function samples(): Record<string, string> {
  return {
    signature: signaturePng(0).toString('base64'),
    signature_rescan: signaturePng(1).toString('base64'),
    signature_nomatch: signaturePng(9, MARKERS.NOMATCH).toString('base64'),
    signature_lowmatch: signaturePng(2, MARKERS.LOWMATCH).toString('base64'),
    no_signature: signaturePng(0, MARKERS.NOSIGNATURE).toString('base64'),
  };
}

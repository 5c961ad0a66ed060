// Owns the emulator's resident photos. eAadhaar `Pht` is a base64 JPEG (it starts `/9j/4AAQSkZJRg`, §1.8), so
// a PNG would not do. No JPEG encoder ships with the project, and a portrait needs very little of one: this
// writes a baseline JFIF whose 8×8 blocks are each one flat colour (only DC coefficients, every AC block
// ends at once), which makes a blocky but valid head-and-shoulders picture from a seed.
import { SeededRandom } from '../../shared/random.js';

const W = 64;
const H = 80;

// Huffman tables: the standard luminance DC table (ITU T.81 K.3) and an AC table holding only EOB.
const DC_BITS = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
const DC_VALS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const AC_BITS = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
const AC_VALS = [0x00];

function canonicalCodes(bits: number[], vals: number[]): Map<number, { code: number; len: number }> {
  const out = new Map<number, { code: number; len: number }>();
  let code = 0;
  let k = 0;
  for (let len = 1; len <= 16; len++) {
    for (let i = 0; i < (bits[len - 1] ?? 0); i++) out.set(vals[k++] ?? 0, { code: code++, len });
    code <<= 1;
  }
  return out;
}
const DC_CODES = canonicalCodes(DC_BITS, DC_VALS);

class BitWriter {
  private bytes: number[] = [];
  private acc = 0;
  private n = 0;
  write(value: number, len: number): void {
    for (let i = len - 1; i >= 0; i--) {
      this.acc = (this.acc << 1) | ((value >> i) & 1);
      if (++this.n === 8) this.flushByte();
    }
  }
  private flushByte(): void {
    this.bytes.push(this.acc);
    if (this.acc === 0xff) this.bytes.push(0x00); // byte stuffing
    this.acc = 0;
    this.n = 0;
  }
  finish(): Buffer {
    while (this.n !== 0) this.write(1, 1); // pad with 1-bits
    return Buffer.from(this.bytes);
  }
}

const segment = (marker: number, body: number[]) => Buffer.from([0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body]);

function encodeDc(w: BitWriter, diff: number): void {
  const cat = diff === 0 ? 0 : Math.floor(Math.log2(Math.abs(diff))) + 1;
  const c = DC_CODES.get(cat);
  if (!c) throw new Error(`DC category ${cat} out of range`);
  w.write(c.code, c.len);
  if (cat > 0) w.write(diff > 0 ? diff : diff + (1 << cat) - 1, cat);
  w.write(0, 1); // AC: EOB, the only code in the AC table
}

function ycbcr([r, g, b]: number[]): number[] {
  const R = r ?? 0;
  const G = g ?? 0;
  const B = b ?? 0;
  return [0.299 * R + 0.587 * G + 0.114 * B, 128 - 0.168736 * R - 0.331264 * G + 0.5 * B, 128 + 0.5 * R - 0.418688 * G - 0.081312 * B];
}

/** A W×H JPEG portrait whose colours derive from `seed`. */
export function portraitJpeg(seed: string): Buffer {
  const r = new SeededRandom(`photo:${seed}`);
  const bg = [200 + r.int(50), 200 + r.int(50), 200 + r.int(50)];
  const skin = [150 + r.int(80), 100 + r.int(60), 70 + r.int(50)];
  const cloth = [r.int(160), r.int(160), r.int(160)];
  const colourAt = (x: number, y: number) => {
    if ((x - W / 2) ** 2 / 14 ** 2 + (y - 30) ** 2 / 17 ** 2 <= 1) return skin;
    if (y > 54 && (x - W / 2) ** 2 / 28 ** 2 + (y - 84) ** 2 / 28 ** 2 <= 1) return cloth;
    return bg;
  };
  const w = new BitWriter();
  const prev = [0, 0, 0];
  for (let by = 0; by < H / 8; by++) {
    for (let bx = 0; bx < W / 8; bx++) {
      // Each block is the mean colour of its 64 pixels; with a DC quantiser of 8 the coefficient is mean − 128.
      const sum = [0, 0, 0];
      for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) ycbcr(colourAt(bx * 8 + x, by * 8 + y)).forEach((v, i) => (sum[i] = (sum[i] ?? 0) + v));
      for (let c = 0; c < 3; c++) {
        const dc = Math.max(-128, Math.min(127, Math.round((sum[c] ?? 0) / 64 - 128)));
        encodeDc(w, dc - (prev[c] ?? 0));
        prev[c] = dc;
      }
    }
  }
  const dht = (cls: number, bits: number[], vals: number[]) => [cls << 4, ...bits, ...vals];
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0x00, 1, 1, 0, 0, 1, 0, 1, 0, 0]), // JFIF 1.1, 1:1 aspect
    segment(0xdb, [0x00, 8, ...new Array<number>(63).fill(16)]), // one quantisation table; only DC matters
    segment(0xc0, [8, H >> 8, H & 0xff, W >> 8, W & 0xff, 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]),
    segment(0xc4, [...dht(0, DC_BITS, DC_VALS), ...dht(1, AC_BITS, AC_VALS)]),
    segment(0xda, [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0]),
    w.finish(),
    Buffer.from([0xff, 0xd9]),
  ]);
}

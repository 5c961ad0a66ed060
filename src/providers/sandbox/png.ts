// Owns the sandbox's identity photos: a small real PNG (a head-and-shoulders silhouette in colours
// drawn from the seed), encoded here with zlib so that no image file ships with the code.
import { crc32, deflateSync } from 'node:zlib';
import { SeededRandom } from '../../../shared/random.js';

const W = 60;
const H = 72;

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

export function portraitPng(seed: string): Buffer {
  const r = new SeededRandom(`photo:${seed}`);
  const bg = [200 + r.int(50), 200 + r.int(50), 200 + r.int(50)];
  const skin = [150 + r.int(80), 100 + r.int(60), 70 + r.int(50)];
  const cloth = [r.int(160), r.int(160), r.int(160)];
  const raw = Buffer.alloc((W * 3 + 1) * H);
  for (let y = 0; y < H; y++) {
    raw[y * (W * 3 + 1)] = 0; // filter: none
    for (let x = 0; x < W; x++) {
      const head = (x - W / 2) ** 2 / 13 ** 2 + (y - 28) ** 2 / 16 ** 2 <= 1;
      const body = y > 50 && (x - W / 2) ** 2 / 26 ** 2 + (y - 76) ** 2 / 26 ** 2 <= 1;
      const c = head ? skin : body ? cloth : bg;
      raw.set(c, y * (W * 3 + 1) + 1 + x * 3);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(W, 0);
  ihdr.writeUInt32BE(H, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

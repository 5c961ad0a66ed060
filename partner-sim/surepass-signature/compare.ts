// Owns the emulated comparison: turn the two inputs into bytes, check they are what `use_pdf` says,
// then score the pair. The score is a pure function of the two inputs, the same whichever comes first:
// identical files score 100, and otherwise the pair's hash picks a score in a band chosen by the magic
// markers below (docs/PARTNER-EMULATORS.md). `matched = score ≥ threshold` [P]. How a real comparator
// scores is not documented; the bands are [G].
import { createHash } from 'node:crypto';
import { failure } from './errors.js';
import type { ComparatorInput, InputItem } from './form.js';

/** ASCII markers looked for in a file's bytes (or, for a link not fetched, in its URL, any case). */
export const MARKERS = {
  /** Score 5.00–34.99: not the same signer. */
  NOMATCH: 'NOMATCH',
  /** Score in the 30 points just below the threshold: close, but not matched. */
  LOWMATCH: 'LOWMATCH',
  /** A 422 "no signature detected": the error a real comparator gives an unusable image [G]. */
  NOSIGNATURE: 'NOSIGNATURE',
} as const;

export interface Compared {
  score: number;
  matched: boolean;
  digests: [string, string];
  sizes: [number, number];
  /** Links not on loopback are never fetched: their URL text stands in for the file. */
  fetched: boolean;
}

export interface CompareDeps {
  threshold: number;
  maxBytes: number;
}

const isLoopback = (u: URL) => u.hostname === 'localhost' || u.hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(u.hostname);

/** A file's bytes; a loopback link is downloaded [G: the emulator never leaves the machine]. */
async function content(item: InputItem, field: string, d: CompareDeps): Promise<{ bytes: Buffer; fetched: boolean }> {
  if ('bytes' in item) return { bytes: item.bytes, fetched: true };
  if (!isLoopback(item.link)) return { bytes: Buffer.from(item.link.href.toUpperCase()), fetched: false };
  try {
    const res = await fetch(item.link, { signal: AbortSignal.timeout(5000), redirect: 'error' });
    const bytes = Buffer.from(await res.arrayBuffer());
    if (res.ok && bytes.length <= d.maxBytes) return { bytes, fetched: true };
  } catch {
    // answered below
  }
  throw failure(422, `Unable to download the file from ${field}`, 'file_download_failed');
}

/** Image formats a signature scan comes in, by their leading bytes. */
function isImage(b: Buffer): boolean {
  const starts = (hex: string, at = 0) => b.subarray(at, at + hex.length / 2).toString('hex') === hex;
  return (
    starts('ffd8ff') || // JPEG
    starts('89504e470d0a1a0a') || // PNG
    starts('47494638') || // GIF
    starts('424d') || // BMP
    starts('49492a00') ||
    starts('4d4d002a') || // TIFF
    (starts('52494646') && starts('57454250', 8)) // WEBP
  );
}

function checkKind(bytes: Buffer, field: string, usePdf: boolean): void {
  if (bytes.length === 0) throw failure(422, `${field} is empty`, 'invalid_file');
  // [P] `use_pdf` (default false) says the inputs are PDFs; [G] texts and codes of the refusals.
  if (usePdf && !bytes.subarray(0, 5).equals(Buffer.from('%PDF-'))) throw failure(422, `${field} is not a valid PDF`, 'invalid_pdf');
  if (!usePdf && !isImage(bytes)) throw failure(422, `${field} is not a valid image (JPEG, PNG, GIF, BMP, TIFF or WEBP)`, 'invalid_image');
}

export async function compare(input: ComparatorInput, d: CompareDeps): Promise<Compared> {
  const names = input.kind === 'link' ? ['link_1', 'link_2'] : input.kind === 'file' ? ['file_1', 'file_2'] : ['base64_1', 'base64_2'];
  const [a, b] = await Promise.all(input.items.map((item, i) => content(item, names[i]!, d)));
  const files = [a!, b!];
  files.forEach((f, i) => {
    if (f.fetched) checkKind(f.bytes, names[i]!, input.usePdf);
    if (f.bytes.includes(MARKERS.NOSIGNATURE)) throw failure(422, `No signature detected in ${names[i]}`, 'signature_not_detected');
  });
  const digests = files.map((f) => createHash('sha256').update(f.bytes).digest('hex')) as [string, string];
  const h = createHash('sha256').update([...digests].sort().join(':')).digest().readUInt32BE(0);
  const has = (m: string) => files.some((f) => f.bytes.includes(m));
  const t = d.threshold;
  let score: number;
  if (digests[0] === digests[1]) score = 100;
  else if (has(MARKERS.NOMATCH)) score = 5 + (h % 3000) / 100;
  else if (has(MARKERS.LOWMATCH)) score = Math.max(0, t - 30) + (h % Math.max(1, Math.min(30, t) * 100 - 1)) / 100;
  else score = t + (h % ((100 - t) * 100 + 1)) / 100;
  score = Math.round(score * 100) / 100;
  return { score, matched: score >= t, digests, sizes: [files[0]!.bytes.length, files[1]!.bytes.length], fetched: files.every((f) => f.fetched) };
}

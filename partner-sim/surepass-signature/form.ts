// Owns reading a comparator request (PARTNERS.md §6.1): a form with exactly one pair of inputs —
// `file_1`+`file_2` (files), `base64_1`+`base64_2` (strings) or `link_1`+`link_2` (URLs) — and `use_pdf`
// (bool, default false). The body is parsed by the platform's own multipart parser (the WHATWG
// `Response.formData()` of Node's fetch), which also reads url-encoded forms.
import { validationFailed, failure } from './errors.js';

export type InputKind = 'file' | 'base64' | 'link';

export interface ComparatorInput {
  kind: InputKind;
  /** Decoded bytes for file/base64; for a link, the URL (fetched later, and only when on loopback). */
  items: [InputItem, InputItem];
  usePdf: boolean;
}

export type InputItem = { bytes: Buffer; filename?: string } | { link: URL };

const PAIRS: ReadonlyArray<readonly [InputKind, string, string]> = [
  ['file', 'file_1', 'file_2'],
  ['base64', 'base64_1', 'base64_2'],
  ['link', 'link_1', 'link_2'],
];
const ONE_PAIR = 'Provide one pair: file_1 and file_2, base64_1 and base64_2, or link_1 and link_2';

export async function readForm(raw: Buffer, contentType: string): Promise<ComparatorInput> {
  let form: FormData;
  try {
    form = await new Response(new Blob([new Uint8Array(raw)]), { headers: { 'content-type': contentType } }).formData();
  } catch {
    throw failure(400, 'The request body is not a valid form', 'bad_request');
  }
  const given = PAIRS.filter(([, a, b]) => form.has(a) || form.has(b));
  if (given.length === 0) throw validationFailed({ file_1: ONE_PAIR });
  // [G] the docs say "pick one pair"; a second pair is refused rather than silently ignored.
  if (given.length > 1) throw validationFailed({ [given[1]![1]]: ONE_PAIR });
  const [kind, f1, f2] = given[0]!;
  const errors: Record<string, string> = {};
  const items = await Promise.all([f1, f2].map((name) => readItem(kind, name, form.get(name), errors)));
  const usePdf = readBool(form.get('use_pdf'), errors);
  if (Object.keys(errors).length > 0) throw validationFailed(errors);
  return { kind, items: items as [InputItem, InputItem], usePdf };
}

async function readItem(kind: InputKind, name: string, v: FormDataEntryValue | null, errors: Record<string, string>): Promise<InputItem | undefined> {
  if (v === null) {
    errors[name] = kind === 'file' ? 'Missing required parameter in an uploaded file' : 'Missing required parameter in the post body';
    return undefined;
  }
  if (kind === 'file') {
    if (typeof v === 'string') {
      errors[name] = 'must be a file upload';
      return undefined;
    }
    return { bytes: Buffer.from(await v.arrayBuffer()), filename: v.name };
  }
  const text = typeof v === 'string' ? v.trim() : '';
  if (kind === 'link') {
    if (!/^https?:\/\//i.test(text) || !URL.canParse(text)) {
      errors[name] = 'must be an http(s) URL';
      return undefined;
    }
    return { link: new URL(text) };
  }
  // [G] a data URL prefix (`data:image/png;base64,`) is tolerated; whitespace and line breaks are ignored.
  const b64 = text.replace(/^data:[\w.+-]+\/[\w.+-]+;base64,/i, '').replace(/\s+/g, '');
  if (b64 === '' || b64.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) {
    errors[name] = 'must be a base64 encoded file';
    return undefined;
  }
  return { bytes: Buffer.from(b64, 'base64') };
}

/** [P] bool, default false; [G] form spellings true/false/1/0 (any case). */
function readBool(v: FormDataEntryValue | null, errors: Record<string, string>): boolean {
  if (v === null || v === '') return false;
  const s = typeof v === 'string' ? v.toLowerCase() : '';
  if (s === 'true' || s === '1') return true;
  if (s === 'false' || s === '0') return false;
  errors.use_pdf = 'must be a boolean (true or false)';
  return false;
}

// The Surepass Signature Comparator emulator over real HTTP on loopback: Bearer auth, the three documented
// input pairs (multipart files, base64, links), the documented 200 envelope, deterministic and symmetric
// scores, the magic markers, Surepass's error shapes and every fault. No database: it is in-memory.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { startCli } from '../common/testing.js';
import { startSurepassSignatureEmulator, SUREPASS_SIGNATURE_PATH, type SurepassSignatureEmulator } from './index.js';

const ENVELOPE_KEYS = ['data', 'message', 'message_code', 'status_code', 'success'];
const FAILURE_KEYS = ['data', 'message', 'message_code', 'status_code', 'success'];

describe('Surepass Signature Comparator emulator', () => {
  let emu: SurepassSignatureEmulator;
  let files: Server;
  let filesUrl: string;
  let s: Record<string, string>;
  const png = (name: string) => Buffer.from(s[name]!, 'base64');

  before(async () => {
    emu = await startSurepassSignatureEmulator({ latencyMs: 0, maxBytes: 64 * 1024 });
    s = ((await (await fetch(`${emu.url}/_sim/samples`)).json()) as any).samples;
    // A loopback file server for link_1 / link_2.
    files = createServer((req, res) => {
      const name = req.url!.slice(1).replace(/\.png$/, '');
      if (!s[name]) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'image/png' }).end(png(name));
    });
    await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
    filesUrl = `http://127.0.0.1:${(files.address() as { port: number }).port}`;
  });
  after(async () => {
    await emu.close();
    await new Promise((r) => files.close(r));
  });
  beforeEach(() => emu.setFaults({}));

  async function post(body: FormData | URLSearchParams | string, headers: Record<string, string> = {}, path = SUREPASS_SIGNATURE_PATH): Promise<{ status: number; body: any }> {
    const res = await fetch(emu.url + path, { method: 'POST', headers: { authorization: `Bearer ${emu.settings.token}`, ...headers }, body });
    return { status: res.status, body: await res.json() };
  }
  const form = (fields: Record<string, string | Blob>) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.append(k, v);
    return f;
  };
  const b64 = (a: string, b: string, extra: Record<string, string> = {}) => post(form({ base64_1: s[a]!, base64_2: s[b]!, ...extra }));
  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(emu.url + path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as any };
  };

  describe('authentication', () => {
    it('answers the documented 401 for a missing, wrong or non-Bearer token, before reading the body', async () => {
      for (const authorization of [undefined, 'Bearer wrong', `Token ${emu.settings.token}`, emu.settings.token]) {
        const res = await fetch(emu.url + SUREPASS_SIGNATURE_PATH, { method: 'POST', headers: authorization ? { authorization } : {}, body: form({ base64_1: s.signature!, base64_2: s.signature! }) });
        assert.equal(res.status, 401);
        assert.deepEqual(await res.json(), { error: null, message: 'Your token is invalid. Please ensure that correct token is being used.', status_code: 401, success: false });
      }
      assert.equal(emu.comparisons().length, 0);
      assert.match(emu.settings.token, /^[\w-]+\.[\w-]+\.[\w-]+$/, 'a JWT');
    });
  });

  describe('comparing', () => {
    it('answers the documented envelope; the same image scores 100 and matches', async () => {
      const res = await b64('signature', 'signature');
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(Object.keys(res.body).sort(), ENVELOPE_KEYS);
      assert.deepEqual({ ...res.body, data: undefined }, { data: undefined, status_code: 200, success: true, message: 'success', message_code: 'success' });
      assert.deepEqual(Object.keys(res.body.data), ['client_id', 'threshold', 'score', 'matched']);
      assert.match(res.body.data.client_id, /^signature_comparator_[A-Za-z]{20}$/);
      assert.deepEqual({ threshold: res.body.data.threshold, score: res.body.data.score, matched: res.body.data.matched }, { threshold: 90, score: 100, matched: true });
    });

    it('scores two scans of one signature at or above the threshold, the same either way round and every time', async () => {
      const ab = (await b64('signature', 'signature_rescan')).body.data;
      const ba = (await b64('signature_rescan', 'signature')).body.data;
      const again = (await b64('signature', 'signature_rescan')).body.data;
      assert.ok(ab.score >= 90 && ab.score < 100, String(ab.score));
      assert.equal(ab.matched, true);
      assert.equal(ba.score, ab.score);
      assert.equal(again.score, ab.score);
      assert.notEqual(again.client_id, ab.client_id, 'a new client_id per call');
      assert.equal(Math.round(ab.score * 100) / 100, ab.score, 'two decimals at most');
    });

    it('magic markers: NOMATCH scores low, LOWMATCH just under the threshold, NOSIGNATURE is a 422', async () => {
      const no = (await b64('signature', 'signature_nomatch')).body.data;
      assert.ok(no.score >= 5 && no.score < 35, String(no.score));
      assert.equal(no.matched, false);
      const low = (await b64('signature_lowmatch', 'signature')).body.data;
      assert.ok(low.score >= 60 && low.score < 90, String(low.score));
      assert.equal(low.matched, false);
      const err = await b64('signature', 'no_signature');
      assert.equal(err.status, 422);
      assert.deepEqual(Object.keys(err.body).sort(), FAILURE_KEYS);
      assert.deepEqual([err.body.data, err.body.success, err.body.status_code, err.body.message_code], [null, false, 422, 'signature_not_detected']);
    });

    it('takes files (multipart), base64 and loopback links alike: the same images get the same score', async () => {
      const viaB64 = (await b64('signature', 'signature_rescan')).body.data.score;
      const viaFile = await post(form({ file_1: new Blob([png('signature')], { type: 'image/png' }), file_2: new File([png('signature_rescan')], 'rescan.png', { type: 'image/png' }) }));
      assert.equal(viaFile.status, 200, JSON.stringify(viaFile.body));
      assert.equal(viaFile.body.data.score, viaB64);
      const viaLink = await post(form({ link_1: `${filesUrl}/signature.png`, link_2: `${filesUrl}/signature_rescan.png` }));
      assert.equal(viaLink.body.data.score, viaB64);
      const urlencoded = await post(new URLSearchParams({ base64_1: s.signature!, base64_2: s.signature_rescan! }));
      assert.equal(urlencoded.body.data.score, viaB64);
      const dataUrl = await post(form({ base64_1: `data:image/png;base64,${s.signature}`, base64_2: s.signature_rescan! }));
      assert.equal(dataUrl.body.data.score, viaB64);

      const log = (await admin('GET', '/_sim/comparisons')).body.comparisons.slice(-5);
      assert.deepEqual(log.map((c: any) => c.input), ['base64', 'file', 'link', 'base64', 'base64']);
      assert.deepEqual(log.map((c: any) => c.content_type), ['multipart/form-data', 'multipart/form-data', 'multipart/form-data', 'application/x-www-form-urlencoded', 'multipart/form-data']);
      assert.deepEqual(log[1].filenames, ['blob', 'rescan.png']);
      assert.equal(log[2].fetched, true);
    });

    it('never leaves the machine: a link elsewhere is scored from its URL; a loopback link that fails is a 422', async () => {
      const a = await post(form({ link_1: 'https://example.com/a.png', link_2: 'https://example.com/b.png' }));
      assert.equal(a.status, 200);
      assert.equal((await post(form({ link_1: 'https://example.com/a.png', link_2: 'https://example.com/b.png' }))).body.data.score, a.body.data.score);
      assert.equal(emu.comparisons().at(-1)!.fetched, false);
      assert.equal((await post(form({ link_1: 'https://example.com/a.png', link_2: 'https://example.com/nomatch.png' }))).body.data.matched, false);
      const gone = await post(form({ link_1: `${filesUrl}/missing.png`, link_2: `${filesUrl}/signature.png` }));
      assert.equal(gone.status, 422);
      assert.equal(gone.body.message_code, 'file_download_failed');
    });

    it('checks the files are images, or PDFs with use_pdf', async () => {
      const pdf = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\n%%EOF\n').toString('base64');
      const notImage = await post(form({ base64_1: pdf, base64_2: s.signature! }));
      assert.equal(notImage.status, 422);
      assert.equal(notImage.body.message_code, 'invalid_image');
      const pdfs = await post(form({ base64_1: pdf, base64_2: pdf, use_pdf: 'true' }));
      assert.equal(pdfs.status, 200);
      assert.equal(pdfs.body.data.score, 100);
      assert.equal(emu.comparisons().at(-1)!.use_pdf, true);
      const pngAsPdf = await b64('signature', 'signature', { use_pdf: 'true' });
      assert.equal(pngAsPdf.body.message_code, 'invalid_pdf');
    });
  });

  describe('validation', () => {
    it('answers Input payload validation failed naming the field', async () => {
      const cases: Array<[FormData, string]> = [
        [form({ use_pdf: 'false' }), 'file_1'],
        [form({ base64_1: 'aGk=' }), 'base64_2'],
        [form({ file_1: new Blob([png('signature')]) }), 'file_2'],
        [form({ file_1: 'not a file', file_2: new Blob([png('signature')]) }), 'file_1'],
        [form({ base64_1: s.signature!, base64_2: s.signature!, link_1: 'https://example.com/a.png', link_2: 'https://example.com/b.png' }), 'link_1'],
        [form({ base64_1: 'not base64!', base64_2: s.signature! }), 'base64_1'],
        [form({ link_1: 'ftp://example.com/a.png', link_2: 'https://example.com/b.png' }), 'link_1'],
        [form({ base64_1: s.signature!, base64_2: s.signature!, use_pdf: 'maybe' }), 'use_pdf'],
      ];
      for (const [body, field] of cases) {
        const res = await post(body);
        assert.equal(res.status, 400, field);
        assert.equal(res.body.message, 'Input payload validation failed');
        assert.deepEqual(Object.keys(res.body.errors), [field]);
      }
    });

    it('refuses JSON (415), an unknown path (404) and an oversized body (413) in the Surepass shape', async () => {
      const json = await post(JSON.stringify({ base64_1: s.signature, base64_2: s.signature }), { 'content-type': 'application/json' });
      assert.equal(json.status, 415);
      assert.deepEqual(Object.keys(json.body).sort(), FAILURE_KEYS);
      const unknown = await post(form({}), {}, '/api/v1/face/face-match');
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.success, false);
      const big = await post(form({ base64_1: 'A'.repeat(70 * 1024), base64_2: s.signature! }));
      assert.equal(big.status, 413);
      assert.equal(big.body.status_code, 413);
    });
  });

  describe('faults', () => {
    it('error_next answers the 5xx before comparing; error_after_accept_next compares, records, then answers the 5xx', async () => {
      const before = emu.comparisons().length;
      await admin('POST', '/_sim/faults', { error_next: 1, error_status: 502 });
      const err = await b64('signature', 'signature_rescan');
      assert.equal(err.status, 502);
      assert.deepEqual([err.body.data, err.body.success, err.body.message_code], [null, false, 'internal_server_error']);
      assert.equal(emu.comparisons().length, before, 'nothing compared');

      emu.setFaults({ error_after_accept_next: 1 });
      assert.equal((await b64('signature', 'signature_rescan')).status, 500);
      const retry = await b64('signature', 'signature_rescan');
      assert.equal(retry.status, 200);
      const log = emu.comparisons().slice(before);
      assert.deepEqual(log.map((c) => c.outcome), ['error_after_accept', 'answered'], 'no idempotency: the retry compares again');
      assert.equal(log[0]!.score, log[1]!.score);
    });

    it('timeout_next hangs for timeout_ms; throttle_next answers 429; bad faults are refused', async () => {
      await admin('POST', '/_sim/faults', { timeout_next: 1, timeout_ms: 150 });
      const t0 = Date.now();
      assert.equal((await b64('signature', 'signature')).status, 200);
      assert.ok(Date.now() - t0 >= 140, 'hung for timeout_ms');
      await admin('POST', '/_sim/faults', { throttle_next: 1 });
      const limited = await b64('signature', 'signature');
      assert.equal(limited.status, 429);
      assert.equal(limited.body.status_code, 429);
      assert.equal((await b64('signature', 'signature')).status, 200);
      assert.equal((await admin('POST', '/_sim/faults', { drop_webhooks: true })).status, 400, 'no webhooks here');
    });
  });

  it('serves another path and threshold when told, and runs from the CLI printing SANGAM_PARTNER_SUREPASS_* variables', async () => {
    const { child, printed } = await startCli(['--kind', 'surepass-signature', '--port', '0', '--comparator-path', '/api/v1/signature-match', '--threshold', '99', '--latency-ms', '0']);
    try {
      assert.deepEqual(printed.env, {
        SANGAM_PARTNER_SUREPASS_KIND: 'surepass-signature',
        SANGAM_PARTNER_SUREPASS_URL: printed.url,
        SANGAM_PARTNER_SUREPASS_TOKEN: emu.settings.token,
        SANGAM_PARTNER_SUREPASS_SIGNATURE_PATH: '/api/v1/signature-match',
      });
      const res = await fetch(`${printed.url}/api/v1/signature-match`, { method: 'POST', headers: { authorization: `Bearer ${printed.token}` }, body: form({ base64_1: s.signature!, base64_2: s.signature_rescan! }) });
      const data = ((await res.json()) as any).data;
      assert.equal(data.threshold, 99);
      assert.equal(data.matched, data.score >= 99);
    } finally {
      child.kill('SIGTERM');
    }
  });
});

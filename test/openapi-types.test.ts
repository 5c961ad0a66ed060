// A typed client can live on the published document: openapi-typescript turns /openapi.json into
// TypeScript types, and a strict program using them for signature-match gets a typed success `data`
// and a typed error envelope — while a misspelt field is a compile error, not an `any`.
// (Needs the response schemas of the routes: `Op['responses'][422]` exists once they are declared.)
// With openapi-fetch over the same types, a strict client that narrows an operation's answer on
// `statuscode` reads the success fields without `!`, and a request missing a field and its alias is
// a compile error, as it is a 422 at the server.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import openapiTS, { astToString } from 'openapi-typescript';
import { fileURLToPath } from 'node:url';
import { startApp, type TestApp } from './harness.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

const PROGRAM = `
import type { paths } from './schema';
type Op = paths['/api/v1/document-ocr/signature-match']['post'];
type Success = Op['responses'][200]['content']['application/json'];
type Failure = Op['responses'][422]['content']['application/json'];
/** Compiles only for a type that is neither any nor unknown. */
type Typed<T> = 0 extends 1 & T ? never : unknown extends T ? never : T;

export function read(ok: Success, bad: Failure): string[] {
  const data: Typed<Success['data']> = ok.data;
  const status: string = data.status;
  const reference: string = data.reference_id;
  const score: number | null | undefined = data.name_match_score;
  const error: Typed<Failure['data']> = bad.data;
  const code: number = error.Errorcode;
  const fields: string[] = (error.errors ?? []).map((e) => e.field + ': ' + e.message);
  const message: string = bad.message;
  const flag: boolean = bad.ok;
  return [status, reference, String(score), String(code), message, String(flag), ...fields];
}
`;

// An operation's data is open (a live partner may add fields, typed unknown), so a wrong type on a
// declared field is the compile error there; the error envelope is closed, so a misspelt field is one.
const WRONG = `
import type { paths } from './schema';
type Op = paths['/api/v1/document-ocr/signature-match']['post'];
type Success = Op['responses'][200]['content']['application/json'];
type Failure = Op['responses'][422]['content']['application/json'];
export const wrongType = (ok: Success): number => ok.data.reference_id;
export const noSuchField = (bad: Failure) => bad.data.no_such_field;
`;

// Every operation's success fields read after narrowing on statuscode, with no `!` and no cast.
const FETCH_PROGRAM = `
import createClient from 'openapi-fetch';
import type { paths } from './schema';
const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:8080', headers: { Authorization: 'Bearer sk_test_x' } });
const base = { consent: true as const };

export async function reads(): Promise<Array<string | number | boolean | null>> {
  const out: Array<string | number | boolean | null> = [];
  const init = (await client.POST('/api/v1/aadhaar-identity-kyc/doclocker-initialize', { body: { ...base, reference_id: 'i' } })).data;
  if (init?.statuscode === 'TUP') {
    out.push(init.data.doclocker__client__id, init.data.authorization_url, init.data.verified_at);
  }
  const aadhaar = (await client.POST('/api/v1/aadhaar-identity-kyc/doclocker-download-aadhaar', { body: { ...base, reference_id: 'a', input: 'client-12345678' } })).data;
  if (aadhaar?.statuscode === 'TXN') out.push(aadhaar.data.Aadhaar_Xml_Data.Full_Name, aadhaar.data.Xml_Url, aadhaar.data.verified_at);
  const bank = (await client.POST('/api/v1/bank-account/mobile-to-bank-account', { body: { ...base, reference_id: 'b', mobile: '9876543210' } })).data;
  if (bank?.statuscode === 'TXN') out.push(bank.data.account.account_holder_name, bank.data.account.ifsc, bank.data.service);
  if (bank?.statuscode === 'ERR') out.push(bank.data.Errorcode, bank.data.Message, bank.data.request_id, bank.data.status === 'failed');
  const upi = (await client.GET('/api/v1/upi-payment/upi-payment-status', { params: { query: { ...base, reference_id: 'u', vpa: 'success@sandbox', amount: 1, idempotency_key: 'k' } } })).data;
  if (upi?.statuscode === 'TXN') out.push(upi.data.txn_id, upi.data.amount, upi.data.utr);
  const rc = (await client.POST('/api/v1/mobile-recharge/recharge-commission', { body: { ...base, reference_id: 'r', mobile: '9876543210', amount: 199 } })).data;
  if (rc?.statuscode === 'TXN') out.push(rc.data.commission, rc.data.utr, rc.data.txn_id);
  const dth = (await client.POST('/api/v1/dth/dth-recharge', { body: { ...base, reference_id: 'd', mobile: '1234567890', operator: 'TS', amount: 350 } })).data;
  if (dth?.statuscode === 'TXN') out.push(dth.data.commission, dth.data.utr);
  const sig = (await client.POST('/api/v1/document-ocr/signature-match', { body: { ...base, reference_id: 's', input: 'https://example.com/s.png' } })).data;
  if (sig?.statuscode === 'TXN') out.push(sig.data.name_match_score);
  return out;
}
`;

// Without narrowing, a success field is optional (a pending or failed answer may lack it); with neither a
// field nor its alias, the request does not compile.
const FETCH_WRONG = `
import createClient from 'openapi-fetch';
import type { paths } from './schema';
const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:8080' });
export async function wrong(): Promise<number> {
  const rc = (await client.POST('/api/v1/mobile-recharge/recharge-commission', { body: { consent: true, reference_id: 'r', mobile: '9876543210', amount: 199 } })).data;
  await client.POST('/api/v1/dth/dth-recharge', { body: { consent: true, reference_id: 'd', operator: 'TS', amount: 350 } });
  return rc ? rc.data.commission : 0;
}
`;

/** The compiler's errors for `main` next to the generated schema, under strict options. */
function compile(dir: string, main: string): string[] {
  const file = path.join(dir, 'main.ts');
  writeFileSync(file, main);
  const program = ts.createProgram([file], {
    strict: true,
    noUncheckedIndexedAccess: true,
    exactOptionalPropertyTypes: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    skipLibCheck: true,
    types: [],
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    paths: { 'openapi-fetch': [path.join(root, 'node_modules/openapi-fetch/dist/index.d.mts')] },
  });
  return ts.getPreEmitDiagnostics(program).map((d) => `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
}

describe('types generated by openapi-typescript from /openapi.json', () => {
  let t: TestApp;
  let dir: string;
  before(async () => {
    t = await startApp();
    dir = mkdtempSync(path.join(tmpdir(), 'sangam-types-'));
    const doc = (await t.call('GET', '/openapi.json', { key: null })).body;
    writeFileSync(path.join(dir, 'schema.ts'), astToString(await openapiTS(doc)));
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  it('give a strict program a typed success data and a typed error for signature-match', () => {
    assert.deepEqual(compile(dir, PROGRAM), []);
  });

  it('let a strict openapi-fetch client that narrows on statuscode read every success field without !', () => {
    assert.deepEqual(compile(dir, FETCH_PROGRAM), []);
  });

  it('keep success fields optional before narrowing, and refuse a request with neither a field nor its alias', () => {
    const errors = compile(dir, FETCH_WRONG);
    assert.equal(errors.length, 2, errors.join('\n'));
    assert.match(errors[0]!, /^TS2322: Type '\{ consent: true; reference_id: string; operator: "TS"; amount: number; \}' is not assignable[\s\S]*subscriber_id: string/);
    assert.match(errors[1]!, /^TS2322: Type 'number \| undefined' is not assignable to type 'number'/);
  });

  it('refuse a wrong type for a declared field, and a field the error envelope does not have', () => {
    const errors = compile(dir, WRONG);
    assert.equal(errors.length, 2, errors.join('\n'));
    assert.match(errors[0]!, /^TS2322: Type 'string' is not assignable to type 'number'/);
    assert.match(errors[1]!, /^TS2339: Property 'no_such_field' does not exist/);
  });
});

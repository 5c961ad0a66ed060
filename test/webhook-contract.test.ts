// The webhook endpoint routes declare what they enforce (issue #27 item 2): the document and the server
// agree on each body below — the document's validator (test/contract.ts) calls it valid exactly when the
// server takes it, and the server refuses the others with 422 naming the field the document faults.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { strictAjv, rewriteRefs } from './contract.js';
import { startApp, type TestApp } from './harness.js';

type Body = Record<string, unknown> | undefined;

describe('webhook endpoint routes conform to the published document', () => {
  let t: TestApp;
  let create: ValidateFunction;
  let replay: ValidateFunction;
  let endpoint = '';
  before(async () => {
    t = await startApp({ SANGAM_WEBHOOK_ALLOW_PRIVATE: '1' });
    const doc = (await t.call('GET', '/openapi.json', { key: null })).body;
    const ajv = strictAjv(doc);
    const schemaOf = (path: string) => rewriteRefs(doc.paths[path].post.requestBody.content['application/json'].schema);
    create = ajv.compile(schemaOf('/api/v1/webhook-endpoints'));
    replay = ajv.compile(schemaOf('/api/v1/webhook-endpoints/{id}/replay'));
    endpoint = (await t.call('POST', '/api/v1/webhook-endpoints', { body: { url: 'http://127.0.0.1:9/hooks' } })).body.data.id;
  });
  after(() => t?.close());

  const fieldsOf = (r: { body: { data?: { errors?: Array<{ field: string }> } } }) => (r.body.data?.errors ?? []).map((e) => e.field);

  it('url is a URI: the document and the server refuse what is not one', async () => {
    for (const url of ['not a url', 'example.com/hooks', 'https://exa mple.com/']) {
      assert.equal(create({ url }), false, `the document calls ${url} valid`);
      const r = await t.call('POST', '/api/v1/webhook-endpoints', { body: { url } });
      assert.equal(r.status, 422, url);
      assert.deepEqual(fieldsOf(r), ['url']);
    }
    assert.equal(create({ url: 'https://example.com/hooks' }), true);
  });

  it('replay needs event_id or since: the document says so, and the server names the field', async () => {
    const cases: Array<[Body, string | null]> = [
      [undefined, 'event_id'],
      [{}, 'event_id'],
      [{ other: 1 }, 'event_id'],
      [{ since: 'yesterday' }, 'since'],
      [{ event_id: 'msg_short' }, 'event_id'],
      [{ since: new Date(0).toISOString() }, null],
    ];
    for (const [body, field] of cases) {
      if (body !== undefined) assert.equal(replay(body), field === null, `the document on ${JSON.stringify(body)}: ${JSON.stringify(replay.errors)}`);
      const r = await t.call('POST', `/api/v1/webhook-endpoints/${endpoint}/replay`, body === undefined ? {} : { body });
      if (field === null) assert.equal(r.status, 200, JSON.stringify(r.body));
      else {
        assert.equal(r.status, 422, `${JSON.stringify(body)}: ${JSON.stringify(r.body)}`);
        assert.equal(r.body.data.Errorcode, 104);
        assert.deepEqual(fieldsOf(r), [field], JSON.stringify(r.body));
      }
    }
  });
});

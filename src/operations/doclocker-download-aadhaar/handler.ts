// Document-locker Download Aadhaar: the identity XML record of a user who authorized the client id.
// The photo is never stored: it is stripped before the result is written and regenerated on read.
// Who may download: a client id issued by initialize belongs to the account and environment that
// initialized it; anyone else gets the 404 of an id issued by nobody, before anything is recorded or
// charged. In live an id issued by nobody here is that same 404 (no partner is asked). In the sandbox
// an id issued by nobody stays accepted with synthetic data (CONTRACT §3) — see docs/DECISIONS.md.
import { ApiError } from '../../errors.js';
import { answerOf } from '../../providers/answer.js';
import type { Outcome } from '../../providers/connector.js';
import { aadhaarDownloadSandbox } from './sandbox.js';
import { defineOperation } from '../operation.js';
import { unstored, XML_PATH } from './record.js';
import { clientIdOwner, sessionState } from '../doclocker-initialize/sessions.js';
import { DoclockerDownloadRequest, DoclockerDownloadResult } from './schema.js';

/** One answer for an id issued to someone else and one issued by nobody: in live the two are identical. */
export const NO_SUCH_CLIENT_ID = 'No document-locker request with this doclocker__client__id; initialize one with this API key';

const REFUSALS = {
  pending: 'Consent pending: the user has not yet authorized this document-locker request',
  denied: 'Consent denied: the user refused this document-locker request',
  expired: 'The document-locker request expired before the user authorized it',
} as const;

export const doclockerDownloadAadhaar = defineOperation({
  slug: 'doclocker-download-aadhaar',
  operationId: 'doclockerDownloadAadhaar',
  method: 'POST',
  path: '/api/v1/aadhaar-identity-kyc/doclocker-download-aadhaar',
  tag: 'Identity and KYC',
  summary: 'Document-locker Download Aadhaar',
  description:
    'Step 3 of the document-locker flow: the Aadhaar XML record (name, date of birth, gender, photo, address, ' +
    'masked number) and Xml_Url, a signed link to the XML document.',
  result: DoclockerDownloadResult,
  schema: DoclockerDownloadRequest,
  example: { reference_id: 'aadhaar-0001', consent: true, doclocker__client__id: 'client-12345678', aadhaar_number: '234123412346' },
  aliases: { input: 'doclocker__client__id' },
  idempotency: { by: 'reference_id' },
  charge: 'completion',
  feePaise: 500,
  dataClass: 'identity',
  unstored,
  sandbox: aadhaarDownloadSandbox,
  async admit(input, ctx) {
    const owner = await clientIdOwner(ctx.deps.db, ctx.accountId, ctx.environment, input.doclocker__client__id);
    if (owner === 'foreign' || (owner === 'unknown' && ctx.environment === 'live')) throw new ApiError('not_found', NO_SUCH_CLIENT_ID);
  },
  async execute(input, ctx): Promise<Outcome> {
    // admit() let through only the caller's own ids (and, in the sandbox, ids issued by nobody).
    const state = ctx.environment === 'sandbox' ? await sessionState(ctx.deps.db, ctx.accountId, ctx.environment, input.doclocker__client__id) : 'unknown';
    if (state === 'pending' || state === 'denied' || state === 'expired') {
      return answerOf({ status: 'failed', message: REFUSALS[state], aadhaar: { download: { done: false, message: REFUSALS[state] } } });
    }
    const outcome = await ctx.connector.execute({ operation: 'doclocker-download-aadhaar', txnId: ctx.txnId, clientId: input.doclocker__client__id, aadhaarNumber: input.aadhaar_number });
    if (outcome.status !== 'success') return outcome;
    const { urls, xmlUrlTtlS } = ctx.deps;
    const xmlUrl = urls.sign(`${XML_PATH}${ctx.txnId}`, new Date(Date.now() + xmlUrlTtlS * 1000));
    return { ...outcome, fields: { ...outcome.fields, Xml_Url: xmlUrl } };
  },
});

// Document-locker initialize: issues a doclocker__client__id and the URL where the user grants consent.
// The answer is pending; the user's decision on that page settles it (success or failed), and an
// undecided session fails when it expires. In both environments the client id is bound to the calling
// account and environment (sessions.ts) in the transaction that records the answer: a download
// accepts an issued id only from its owner.
import { newId } from '../../ids.js';
import { answerOf } from '../../providers/answer.js';
import { defineOperation } from '../operation.js';
import { DoclockerInitializeRequest, DoclockerInitializeResult } from './schema.js';
import { CONSENT_PATH, recordSession } from './sessions.js';

export const doclockerInitialize = defineOperation({
  slug: 'doclocker-initialize',
  operationId: 'doclockerInitialize',
  method: 'POST',
  path: '/api/v1/aadhaar-identity-kyc/doclocker-initialize',
  tag: 'Identity and KYC',
  summary: 'Document-locker Initialize',
  description:
    'Steps 1 and 2 of the document-locker flow: returns `doclocker__client__id` and `authorization_url`. ' +
    'Send the user to the URL; once they allow, call doclocker-download-aadhaar with the client id ' +
    '(with a key of the same account and environment: the id is usable by nobody else).',
  result: DoclockerInitializeResult,
  schema: DoclockerInitializeRequest,
  example: { reference_id: 'init-0001', consent: true, redirect_url: 'https://example.com/kyc/done' },
  idempotency: { by: 'reference_id' },
  charge: 'completion',
  feePaise: 0,
  dataClass: 'identity',
  async execute(input, ctx) {
    const { doclockerSessionTtlS, publicUrl } = ctx.deps;
    const expiresAt = new Date(Date.now() + doclockerSessionTtlS * 1000);
    // The session row references the transaction, so it is written with the recorded answer.
    const bind = (clientId: string) =>
      ctx.withAnswer.push((trx) =>
        recordSession(trx, {
          clientId,
          accountId: ctx.accountId,
          environment: ctx.environment,
          referenceId: input.reference_id,
          txnId: ctx.txnId,
          redirectUrl: input.redirect_url ?? null,
          expiresAt,
        }),
      );

    if (ctx.environment === 'live') {
      const outcome = await ctx.connector.execute({ operation: 'doclocker-initialize', txnId: ctx.txnId, redirectUrl: input.redirect_url });
      // Without a client id (the partner did not answer yet) nothing is bound, and no download can
      // name one: the safe side.
      const clientId = outcome.fields.doclocker__client__id;
      if (typeof clientId === 'string' && clientId) bind(clientId);
      return outcome;
    }
    const clientId = newId('doclocker', 24);
    bind(clientId);
    return answerOf({
      status: 'pending',
      message: 'Awaiting the user’s consent at authorization_url',
      session: { clientId, authorizationUrl: `${publicUrl}${CONSENT_PATH}${clientId}`, expiresAt },
      settle: {
        after_ms: doclockerSessionTtlS * 1000,
        final: { status: 'failed', message: 'The user did not authorize the request before it expired', session: {} },
      },
    });
  },
});

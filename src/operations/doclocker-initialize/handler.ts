// Document-locker initialize: issues a doclocker__client__id and the URL where the user grants consent.
// The answer is pending; the user's decision on that page settles it (success or failed), and an
// undecided session fails when it expires.
import { newId } from '../../ids.js';
import { defineOperation } from '../operation.js';
import { DoclockerInitializeRequest } from './schema.js';

export const CONSENT_PATH = '/sandbox/doclocker/authorize/';

export const doclockerInitialize = defineOperation({
  slug: 'doclocker-initialize',
  method: 'POST',
  path: '/api/v1/aadhaar-identity-kyc/doclocker-initialize',
  tag: 'Identity and KYC',
  summary: 'Document-locker Initialize',
  description:
    'Steps 1 and 2 of the document-locker flow: returns `doclocker__client__id` and `authorization_url`. ' +
    'Send the user to the URL; once they allow, call doclocker-download-aadhaar with the client id.',
  schema: DoclockerInitializeRequest,
  idempotency: { by: 'reference_id' },
  charge: 'completion',
  async execute(input, ctx) {
    const connector = ctx.services.connector(ctx.environment, 'doclocker-initialize');
    if (ctx.environment === 'live' && connector.aadhaarInitialize) {
      return connector.aadhaarInitialize({ txnId: ctx.txnId, redirectUrl: input.redirect_url });
    }
    const { config } = ctx.services;
    const clientId = newId('doclocker', 24);
    const expiresAt = new Date(Date.now() + config.doclockerSessionTtlS * 1000);
    const fields = {
      doclocker__client__id: clientId,
      authorization_url: `${config.publicUrl}${CONSENT_PATH}${clientId}`,
      expires_at: expiresAt.toISOString(),
    };
    // The session row references the transaction, which is written after execute: insert it then.
    ctx.afterRecord.push((trx) =>
      trx
        .insertInto('doclocker_sessions')
        .values({
          client_id: clientId,
          account_id: ctx.accountId,
          environment: ctx.environment,
          reference_id: input.reference_id,
          txn_id: ctx.txnId,
          status: 'pending',
          redirect_url: input.redirect_url ?? null,
          expires_at: expiresAt,
        })
        .execute()
        .then(() => undefined),
    );
    return {
      status: 'pending',
      message: 'Awaiting the user’s consent at authorization_url',
      fields,
      settle: {
        after_ms: config.doclockerSessionTtlS * 1000,
        final: { status: 'failed', message: 'The user did not authorize the request before it expired', fields: {} },
      },
    };
  },
});

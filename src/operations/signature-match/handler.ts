// Signature Match: reads the signature on a document and scores it against a name (0 to 100).
import { defineOperation } from '../operation.js';
import { SignatureMatchRequest, SignatureMatchResult } from './schema.js';
import { signatureMatchSandbox } from './sandbox.js';
import { comparingName } from '../name-match/compare.js';

export const signatureMatch = defineOperation({
  slug: 'signature-match',
  operationId: 'signatureMatch',
  method: 'POST',
  path: '/api/v1/document-ocr/signature-match',
  tag: 'Document OCR',
  summary: 'Signature Match',
  description:
    'Reads the signature on a document and returns name_match_score (0 to 100) against `name` when given. Partners that compare two signatures (live Surepass) score `input` against `reference_signature` instead.',
  result: SignatureMatchResult,
  schema: SignatureMatchRequest,
  example: { reference_id: 'sig-0001', consent: true, input: 'https://example.com/cheque.png', name: 'Priya Sharma' },
  bodyLimit: 5 * 1024 * 1024,
  idempotency: { by: 'reference_id' },
  charge: 'completion',
  feePaise: 300,
  dataClass: 'identity',
  sandbox: signatureMatchSandbox,
  // With `name` and a name read from the signature, the two are compared (CONTRACT §11).
  ...comparingName<SignatureMatchRequest>(
    (input, ctx) => ({ operation: 'signature-match', txnId: ctx.txnId, input: input.input, name: input.name, referenceSignature: input.reference_signature }),
    (f) => f.extracted_name,
  ),
});

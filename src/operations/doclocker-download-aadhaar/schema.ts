// Request schema of POST /api/v1/aadhaar-identity-kyc/doclocker-download-aadhaar (step 3 of the flow).
import { Type, type Static } from '@sinclair/typebox';
import { AadhaarNumber, Alias, Consent, ReferenceId } from '../fields.js';
import { CLIENT_ID_PATTERN } from '../doclocker-initialize/schema.js';

const ClientId = Type.String({
  pattern: CLIENT_ID_PATTERN,
  description: 'The client id from doclocker-initialize',
  errorMessage: 'doclocker__client__id must be 8 to 128 characters of A-Z a-z 0-9 . _ : -',
});

export const DoclockerDownloadRequest = Type.Object({
  reference_id: ReferenceId,
  consent: Consent,
  doclocker__client__id: ClientId,
  input: Type.Optional(Alias('doclocker__client__id', ClientId)),
  aadhaar_number: Type.Optional(AadhaarNumber),
});
export type DoclockerDownloadRequest = Static<typeof DoclockerDownloadRequest>;

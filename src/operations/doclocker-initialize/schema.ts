// Request schema of POST /api/v1/aadhaar-identity-kyc/doclocker-initialize (steps 1 and 2 of the flow).
import { Type, type Static } from '@sinclair/typebox';
import { Consent, ReferenceId } from '../fields.js';

export const DoclockerInitializeRequest = Type.Object({
  reference_id: ReferenceId,
  consent: Consent,
  redirect_url: Type.Optional(
    Type.String({
      format: 'uri',
      pattern: '^https?://',
      maxLength: 2048,
      description: 'Where the consent page sends the user afterwards, with ?doclocker__client__id=…&status=authorized|denied',
      errorMessage: 'redirect_url must be an http(s) URL of at most 2048 characters',
    }),
  ),
});
export type DoclockerInitializeRequest = Static<typeof DoclockerInitializeRequest>;

/** A well-formed document-locker client id (the ones we issue are `doclocker_` + 24 characters). */
export const CLIENT_ID_PATTERN = '^[A-Za-z0-9._:-]{8,128}$';

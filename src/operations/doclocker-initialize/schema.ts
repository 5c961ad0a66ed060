// Request schema of POST /api/v1/aadhaar-identity-kyc/doclocker-initialize (steps 1 and 2 of the flow).
import { Type, type Static } from '@sinclair/typebox';
import { PresentIn } from '../../http/responses.js';
import { Consent, ReferenceId } from '../../contract/fields.js';

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

/** Its own result fields: the client id and where the user consents (on every pending or successful answer), and, from some partners, when the id expires. */
export const DoclockerInitializeResult = {
  doclocker__client__id: PresentIn(['pending', 'success'], Type.String({ pattern: '^[A-Za-z0-9._:-]{8,128}$', description: 'Pass to doclocker-download-aadhaar once the user has authorized' })),
  authorization_url: PresentIn(['pending', 'success'], Type.String({ description: 'Send the user here to grant consent' })),
  expires_at: Type.Optional(Type.String({ format: 'date-time', description: 'The request fails if the user has not authorized by then' })),
};

/** A well-formed document-locker client id (the ones we issue are `doclocker_` + 24 characters). */
export const CLIENT_ID_PATTERN = '^[A-Za-z0-9._:-]{8,128}$';

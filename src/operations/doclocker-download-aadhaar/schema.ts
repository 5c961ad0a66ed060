// Request schema of POST /api/v1/aadhaar-identity-kyc/doclocker-download-aadhaar (step 3 of the flow).
import { Type, type Static } from '@sinclair/typebox';
import { PresentIn } from '../../http/responses.js';
import { AadhaarNumber, Alias, Consent, ReferenceId } from '../../contract/fields.js';
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

const text = (description: string) => Type.String({ description });

/** Its own result fields: the seed's §2.5 record, read from the signed eAadhaar XML. */
export const DoclockerDownloadResult = {
  Aadhaar_Xml_Data: PresentIn(
    ['success'],
    Type.Object(
      {
        Full_Name: Type.String(),
        Care_Of: Type.String(),
        Dob: text('Date of birth as the XML gives it (DD-MM-YYYY)'),
        Gender: Type.String(),
        Masked_Aadhaar: Type.String({ pattern: '^X{8}[0-9]{4}$', description: 'Only the last 4 digits are shown' }),
        Full_Address: Type.String(),
        Profile_Image: Type.Optional(text('The photo, base64 JPEG/PNG; not kept: absent from replays and GET /transactions in live')),
        Address: Type.Object({ Country: Type.String(), State: Type.String(), Dist: Type.String(), Street: Type.String() }, { additionalProperties: true }),
      },
      { additionalProperties: true },
    ),
  ),
  Xml_Url: PresentIn(['success'], text('A signed link to the XML document exactly as it was signed; it expires')),
};

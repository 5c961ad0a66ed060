// Owns how the simulator words its results: the partner's own field names, so that the HTTP
// connector's mapping back to ours is exercised for real.
import type { PARTNER_PATHS } from '../shared/protocol.js';
import { definedOnly } from './common/server.js';

type Op = keyof typeof PARTNER_PATHS;
type Obj = Record<string, unknown>;

export function toPartnerData(op: Op, f: Obj): Obj {
  switch (op) {
    case 'signatureMatch':
      return { score: f.name_match_score, extracted_name: f.extracted_name };
    case 'aadhaarInitialize':
      return { client_id: f.client_id, authorization_url: f.authorization_url };
    case 'aadhaarDownload': {
      const x = (f.Aadhaar_Xml_Data ?? {}) as Obj;
      const a = (x.Address ?? {}) as Obj;
      return x.Full_Name === undefined
        ? {}
        : {
            name: x.Full_Name,
            care_of: x.Care_Of,
            dob: x.Dob,
            gender: x.Gender,
            masked_uid: x.Masked_Aadhaar,
            address_line: x.Full_Address,
            photo_b64: x.Profile_Image,
            address: { country: a.Country, state: a.State, district: a.Dist, street: a.Street },
          };
    }
    case 'mobileToBank': {
      const acc = f.account as Obj | undefined;
      return acc
        ? {
            holder_name: acc.account_holder_name,
            account_number_masked: acc.account_number,
            ifsc: acc.ifsc,
            bank_name: acc.bank_name,
            branch: acc.branch,
            account_number_match: f.account_number_match,
            ifsc_match: f.ifsc_match,
            account_match: f.account_match,
          }
        : {};
    }
    case 'accountVerify':
    case 'vpaVerify': {
      const status = op === 'accountVerify' ? f.account_status : f.vpa_status;
      return { status, name_at_bank: f.name_at_bank ?? null, ...definedOnly({ reason: f.reason, method: f.method, utr: f.utr, ifsc: f.ifsc, account_type: f.account_type }) };
    }
    default:
      return {};
  }
}

// Owns the document-locker download's sandbox answer: a made-up identity derived from the Aadhaar
// number (or the client id), with a generated portrait and only the last four digits shown.
import type { OperationRequest, PartnerOutcome } from '../../providers/connector.js';
import { sandboxPhoto } from '../../providers/sandbox/index.js';
import { person } from '../../../shared/people.js';
import { SeededRandom } from '../../../shared/random.js';

export async function aadhaarDownloadSandbox(req: OperationRequest): Promise<PartnerOutcome> {
  if (req.operation !== 'doclocker-download-aadhaar') throw new Error(`the document-locker download cannot answer ${req.operation}`);
  const p = person(`aadhaar:${req.aadhaarNumber ?? req.clientId}`);
  const last4 = req.aadhaarNumber?.slice(-4) ?? new SeededRandom(`uid:${req.clientId}`).digits(4);
  const a = p.address;
  const message = 'Aadhaar XML downloaded';
  const record = {
    fullName: p.name,
    careOf: p.careOf,
    dob: p.dob,
    gender: p.gender,
    maskedAadhaar: `XXXXXXXX${last4}`,
    fullAddress: `${a.House}, ${a.Street}, ${a.Dist}, ${a.State} - ${a.Pincode}, ${a.Country}`,
    photo: sandboxPhoto(`${p.name}|${p.dob}`),
    address: { country: a.Country, state: a.State, district: a.Dist, street: a.Street },
  };
  return { status: 'success', message, aadhaar: { record, download: { done: true, message } } };
}

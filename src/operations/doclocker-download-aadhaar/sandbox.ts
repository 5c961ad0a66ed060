// Owns the document-locker download's sandbox answer: a made-up identity derived from the Aadhaar
// number (or the client id), with a generated portrait and only the last four digits shown.
import type { OperationRequest, Outcome } from '../../providers/connector.js';
import { sandboxPhoto } from '../../providers/sandbox/index.js';
import { person } from '../../../shared/people.js';
import { SeededRandom } from '../../../shared/random.js';

export async function aadhaarDownloadSandbox(req: OperationRequest): Promise<Outcome> {
  if (req.operation !== 'doclocker-download-aadhaar') throw new Error(`the document-locker download cannot answer ${req.operation}`);
  const p = person(`aadhaar:${req.aadhaarNumber ?? req.clientId}`);
  const last4 = req.aadhaarNumber?.slice(-4) ?? new SeededRandom(`uid:${req.clientId}`).digits(4);
  const a = p.address;
  return {
    status: 'success',
    message: 'Aadhaar XML downloaded',
    fields: {
      Aadhaar_Xml_Data: {
        Full_Name: p.name,
        Care_Of: p.careOf,
        Dob: p.dob,
        Gender: p.gender,
        Masked_Aadhaar: `XXXXXXXX${last4}`,
        Full_Address: `${a.House}, ${a.Street}, ${a.Dist}, ${a.State} - ${a.Pincode}, ${a.Country}`,
        Profile_Image: sandboxPhoto(`${p.name}|${p.dob}`),
        Address: { Country: a.Country, State: a.State, Dist: a.Dist, Street: a.Street },
      },
      Errorcode: 100,
      Status: 'success',
      Message: 'Aadhaar XML downloaded',
    },
  };
}

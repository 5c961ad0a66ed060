// Owns the emulator's synthetic DigiLocker users: made-up residents (no real person's data) whose fields have
// the shapes the token response (§1.4), /user (§1.6) and the eAadhaar XML (§1.8) carry. Two of them exercise
// the documented 404s of the eAadhaar endpoint (§1.7).

export type Behaviour =
  /** Aadhaar linked: eaadhaar "Y", the XML is served. */
  | 'ok'
  /** eaadhaar "N"; the XML endpoint answers 404 aadhaar_not_linked. */
  | 'aadhaar_not_linked'
  /** eaadhaar "Y" but the XML endpoint answers 404 aadhaar_not_available (eKYC must be redone). */
  | 'aadhaar_not_available';

export interface Address {
  co: string;
  country: string;
  dist: string;
  house: string;
  lm: string;
  loc: string;
  pc: string;
  po: string;
  state: string;
  street: string;
  subdist: string;
  vtc: string;
}

export interface Resident {
  /** The key used by the consent page and /_sim endpoints. */
  key: string;
  /** 36-character DigiLocker id (§1.6). */
  digilockerid: string;
  name: string;
  /** DDMMYYYY, as token and /user write it; the XML writes DD-MM-YYYY. */
  dob: string;
  gender: 'M' | 'F' | 'T';
  mobile: string;
  /** Last four digits of the (fictitious) Aadhaar number; the XML shows `xxxxxxxx` + these. */
  aadhaarLast4: string;
  behaviour: Behaviour;
  address: Address;
  /** Localised name and address for `LData`; [G] lang codes follow UIDAI's table (07 = Kannada, 06 = Hindi). */
  local?: { lang: string; name: string; address: Address };
}

const addr = (a: Partial<Address>): Address => ({
  co: '', country: 'India', dist: '', house: '', lm: '', loc: '', pc: '', po: '', state: '', street: '', subdist: '', vtc: '', ...a,
});

export const RESIDENTS: readonly Resident[] = [
  {
    key: 'ananya',
    digilockerid: '5a1c0e2b-7d3f-4c6a-9b1e-0f2d3c4b5a61',
    name: 'Ananya Rao',
    dob: '14081992',
    gender: 'F',
    mobile: '9000000001',
    aadhaarLast4: '4821',
    behaviour: 'ok',
    address: addr({ co: 'D/O Prakash Rao', house: '12', street: '17th Cross', lm: 'Near Forum Mall', loc: 'Koramangala', vtc: 'Bengaluru', po: 'Koramangala', subdist: 'Bengaluru South', dist: 'Bengaluru Urban', state: 'Karnataka', pc: '560034' }),
    local: {
      lang: '07',
      name: 'ಅನನ್ಯಾ ರಾವ್',
      address: addr({ co: 'ಪ್ರಕಾಶ್ ರಾವ್', country: ' ', house: '12', street: '17ನೇ ಅಡ್ಡರಸ್ತೆ', lm: 'ಫೋರಮ್ ಮಾಲ್ ಹತ್ತಿರ', loc: 'ಕೋರಮಂಗಲ', vtc: 'ಬೆಂಗಳೂರು', dist: 'ಬೆಂಗಳೂರು ನಗರ', state: 'ಕರ್ನಾಟಕ', pc: '560034' }),
    },
  },
  {
    key: 'rohan',
    digilockerid: '8c2e4f60-1a3b-4d5c-8e7f-9a0b1c2d3e42',
    name: 'Rohan Verma',
    dob: '02011985',
    gender: 'M',
    mobile: '9000000002',
    aadhaarLast4: '7305',
    behaviour: 'ok',
    address: addr({ co: 'S/O Anil Verma', house: 'C-45', street: 'Block C', lm: 'Opp. Community Park', loc: 'Malviya Nagar', vtc: 'New Delhi', po: 'Malviya Nagar', subdist: 'Hauz Khas', dist: 'South Delhi', state: 'Delhi', pc: '110017' }),
    local: {
      lang: '06',
      name: 'रोहन वर्मा',
      address: addr({ co: 'अनिल वर्मा', country: ' ', house: 'सी-45', street: 'ब्लॉक सी', lm: 'सामुदायिक पार्क के सामने', loc: 'मालवीय नगर', vtc: 'नई दिल्ली', dist: 'दक्षिण दिल्ली', state: 'दिल्ली', pc: '110017' }),
    },
  },
  {
    key: 'kiran',
    digilockerid: '3f9d7b15-6e2a-4c8d-b0a1-2c3d4e5f6a73',
    name: 'Kiran Das',
    dob: '30061999',
    gender: 'T',
    mobile: '9000000003',
    aadhaarLast4: '1190',
    behaviour: 'ok',
    // Sparse on purpose: every Poa attribute is optional and real payloads often leave some out (§1.8).
    address: addr({ co: 'C/O Mitali Das', street: 'Rash Behari Avenue', loc: 'Ballygunge', vtc: 'Kolkata', dist: 'Kolkata', state: 'West Bengal', pc: '700029' }),
  },
  {
    key: 'meera',
    digilockerid: 'b7a6c5d4-e3f2-4a1b-9c8d-7e6f5a4b3c84',
    name: 'Meera Pillai',
    dob: '21111978',
    gender: 'F',
    mobile: '9000000004',
    aadhaarLast4: '5562',
    behaviour: 'aadhaar_not_linked',
    address: addr({ co: 'W/O Suresh Pillai', house: '7/112', street: 'M G Road', loc: 'Ravipuram', vtc: 'Kochi', dist: 'Ernakulam', state: 'Kerala', pc: '682016' }),
  },
  {
    key: 'imran',
    digilockerid: 'e1d2c3b4-a5f6-4e7d-8c9b-0a1f2e3d4c95',
    name: 'Imran Qureshi',
    dob: '09051990',
    gender: 'M',
    mobile: '9000000005',
    aadhaarLast4: '2047',
    behaviour: 'aadhaar_not_available',
    address: addr({ co: 'S/O Farooq Qureshi', house: '22', street: 'C G Road', loc: 'Navrangpura', vtc: 'Ahmedabad', dist: 'Ahmedabad', state: 'Gujarat', pc: '380009' }),
  },
];

export function residentByKey(key: string | undefined): Resident | undefined {
  return RESIDENTS.find((r) => r.key === key);
}

// Owns the operations' names as a person reads them (the hosted consent page, the console), beside
// the slugs the API speaks: "UPI payment", not upi-payment-status. One line per operation; a slug
// without a name shows as itself, and test/consent-page.test.ts fails until every registered
// operation has one. Also the one way those pages write a moment: a date and time in India (IST).

export const OPERATION_NAMES: Readonly<Record<string, string>> = {
  'signature-match': 'Signature check on a document',
  'doclocker-initialize': 'DigiLocker sign-in (to fetch your Aadhaar)',
  'doclocker-download-aadhaar': 'Aadhaar from DigiLocker',
  'mobile-to-bank-account': 'Bank account from mobile number',
  'upi-payment-status': 'UPI payment',
  'recharge-commission': 'Mobile recharge',
  'dth-recharge': 'DTH recharge',
  'name-match': 'Name match',
  'account-verification': 'Bank account verification',
  'vpa-verification': 'UPI ID verification',
};

/** The person's name of an operation (the slug itself when it has none). */
export const operationName = (slug: string): string => OPERATION_NAMES[slug] ?? slug;

const IST = new Intl.DateTimeFormat('en-IN', { timeZone: 'Asia/Kolkata', day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit', hour12: true });

/** A moment as a person in India reads it: "28 Nov 2026, 7:06 pm IST". */
export const istDateTime = (at: string | Date): string => `${IST.format(typeof at === 'string' ? new Date(at) : at)} IST`;

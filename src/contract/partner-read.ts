// Owns which operations' success carries what the partner read (an account holder's name, an Aadhaar
// document, a signature's score): the fields their success answer always has (PresentIn success in
// their result schema). A person resolving a stuck transaction by hand (src/attention/) cannot supply
// them, so such a transaction is never marked success by hand: it waits for the partner's answer, or
// a person marks it failed (a verification still pays its fee once it ran) and the client asks again.
// operations/registry.ts checks at load that this list is exactly those operations.
export const SUCCESS_CARRIES_PARTNER_DATA: ReadonlySet<string> = new Set(['signature-match', 'doclocker-download-aadhaar', 'mobile-to-bank-account', 'account-verification', 'vpa-verification']);

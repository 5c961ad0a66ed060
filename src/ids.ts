// Owns the server's identifiers: `<prefix>_` and random base62 (newId). The random characters they are
// made of come from shared/ids.ts (the partner emulators mint theirs there too), re-exported here so
// that the server's modules take every identifier and secret from one place.
import { randomBase62 } from '../shared/ids.js';

export { randomBase62, randomDigits, randomHex } from '../shared/ids.js';

export const newId = (prefix: string, length = 20) => `${prefix}_${randomBase62(length)}`;

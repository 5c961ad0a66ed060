// Owns reading a word written in an Indian script as Latin letters. The letter tables are
// @indic-transliteration/sanscript's (Devanagari, Bengali/Assamese, Gurmukhi, Gujarati, Odia, Tamil,
// Telugu, Kannada, Malayalam), read once at load into one table per script; the walk over a word is
// ours, because the library keeps a single cached table (switching scripts rebuilds it, ~0.1 ms) and
// reads a consonant with a nukta as two letters. An inherent vowel comes out as '@' (see phonetic.ts).
// Perso-Arabic (Urdu, Kashmiri, Sindhi) goes through any-ascii, which gives the consonants and the
// long vowels the script writes; such a token is marked `consonantsOnly`, and the caller compares it
// on its consonant skeleton only and never with full confidence.
import Sanscript from '@indic-transliteration/sanscript';
import anyAscii from 'any-ascii';
import { fold } from './phonetic.js';

export type ScriptName =
  | 'Latin'
  | 'Devanagari'
  | 'Bengali'
  | 'Gurmukhi'
  | 'Gujarati'
  | 'Odia'
  | 'Tamil'
  | 'Telugu'
  | 'Kannada'
  | 'Malayalam'
  | 'Perso-Arabic';

interface Block {
  name: ScriptName;
  from: number;
  to: number;
  scheme: string;
}

const BRAHMIC: Block[] = [
  { name: 'Devanagari', from: 0x0900, to: 0x097f, scheme: 'devanagari' },
  { name: 'Bengali', from: 0x0980, to: 0x09ff, scheme: 'bengali' },
  { name: 'Gurmukhi', from: 0x0a00, to: 0x0a7f, scheme: 'gurmukhi' },
  { name: 'Gujarati', from: 0x0a80, to: 0x0aff, scheme: 'gujarati' },
  { name: 'Odia', from: 0x0b00, to: 0x0b7f, scheme: 'oriya' },
  { name: 'Tamil', from: 0x0b80, to: 0x0bff, scheme: 'tamil' },
  { name: 'Telugu', from: 0x0c00, to: 0x0c7f, scheme: 'telugu' },
  { name: 'Kannada', from: 0x0c80, to: 0x0cff, scheme: 'kannada' },
  { name: 'Malayalam', from: 0x0d00, to: 0x0d7f, scheme: 'malayalam' },
];

const isArabic = (cp: number) => (cp >= 0x0600 && cp <= 0x06ff) || (cp >= 0x0750 && cp <= 0x077f) || (cp >= 0x08a0 && cp <= 0x08ff) || (cp >= 0xfb50 && cp <= 0xfdff) || (cp >= 0xfe70 && cp <= 0xfeff);

/** The script of one letter, or null when it is a letter of a script we do not read. */
export function scriptOf(ch: string): ScriptName | null {
  const cp = ch.codePointAt(0)!;
  if (/\p{Script=Latin}/u.test(ch)) return 'Latin';
  for (const b of BRAHMIC) if (cp >= b.from && cp <= b.to) return b.name;
  if (isArabic(cp)) return 'Perso-Arabic';
  return null;
}

/** A readable name for a letter's script, for messages about scripts we do not read. */
export function describeScript(ch: string): string {
  for (const s of ['Sinhala', 'Ol_Chiki', 'Meetei_Mayek', 'Tibetan', 'Cyrillic', 'Greek', 'Han', 'Hiragana', 'Katakana', 'Hangul', 'Thai', 'Hebrew', 'Armenian', 'Georgian', 'Ethiopic', 'Myanmar', 'Khmer', 'Lepcha', 'Limbu', 'Chakma']) {
    if (new RegExp(`\\p{Script=${s}}`, 'u').test(ch)) return s.replace('_', ' ');
  }
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

type Kind = 'consonant' | 'dead' | 'vowel' | 'mark' | 'virama' | 'nasal' | 'other' | 'nukta';
interface Letter {
  kind: Kind;
  latin: string;
}

/** Latin for the IAST letters whose fold would mislead: च is "ch" in Indian names, छ "chh"; N an anusvara. */
const LATIN_OF_DEVANAGARI: Record<string, string> = { च: 'ch', छ: 'chh', 'ं': 'N', 'ँ': 'N', 'ः': '', 'ॅ': 'e', 'ॉ': 'o', ऍ: 'e', ऑ: 'o' };
/** What a nukta makes of the consonant before it (क़ q, ज़ z, ड़ r, फ़ f…). */
const NUKTA: Record<string, string> = { k: 'k', kh: 'kh', g: 'g', j: 'z', d: 'R', dh: 'Rh', ph: 'f', y: 'y', r: 'r', l: 'l', n: 'n', s: 'sh', b: 'b' };
/** Consonants whose nukta form is not their Latin's: Bengali য় and Odia ୟ are "y", though য/ଯ alone read "j". */
const NUKTA_OF_LETTER: Record<string, string> = { 'য': 'y', 'ଯ': 'y' };
/** Letters the library's tables leave out or read otherwise than names are written. */
const EXTRA: Record<string, Record<string, Letter>> = {
  Bengali: { 'ৎ': { kind: 'dead', latin: 't' }, 'ৰ': { kind: 'consonant', latin: 'r' }, 'ৱ': { kind: 'consonant', latin: 'v' } },
  Odia: { 'ୱ': { kind: 'consonant', latin: 'v' }, 'ୟ': { kind: 'consonant', latin: 'y' } },
  Gurmukhi: { 'ੱ': { kind: 'other', latin: '' }, 'ੰ': { kind: 'nasal', latin: 'N' }, 'ੜ': { kind: 'consonant', latin: 'R' } },
  Malayalam: {
    'ൺ': { kind: 'dead', latin: 'n' }, 'ൻ': { kind: 'dead', latin: 'n' }, 'ർ': { kind: 'dead', latin: 'r' },
    'ൽ': { kind: 'dead', latin: 'l' }, 'ൾ': { kind: 'dead', latin: 'l' }, 'ൿ': { kind: 'dead', latin: 'k' },
  },
};
const NUKTA_SIGNS = new Set(['\u093c', '\u09bc', '\u0a3c', '\u0abc', '\u0b3c', '\u0cbc', '\u0c3c']);

type Schemes = Record<string, Record<string, Record<string, string>>>;
const schemes = (Sanscript as unknown as { schemes: Schemes }).schemes;

function buildTable(block: Block): Map<string, Letter> {
  const native = schemes[block.scheme]!;
  const iast = schemes.iast!;
  const table = new Map<string, Letter>();
  const groups: Array<[string, Kind]> = [['consonants', 'consonant'], ['extra_consonants', 'consonant'], ['vowels', 'vowel'], ['vowel_marks', 'mark'], ['virama', 'virama'], ['yogavaahas', 'nasal'], ['candra', 'mark']];
  for (const [group, kind] of groups) {
    for (const [deva, letter] of Object.entries(native[group] ?? {})) {
      // The first Devanagari letter wins: Tamil க stands for क ख ग घ, and is written k.
      if ([...letter].length !== 1 || table.has(letter)) continue;
      const override = LATIN_OF_DEVANAGARI[deva];
      const roman = iast[group === 'candra' ? 'vowel_marks' : group]?.[deva];
      if (override === undefined && roman === undefined) continue;
      table.set(letter, { kind, latin: kind === 'virama' ? '' : (override ?? fold(roman!)) });
    }
  }
  for (const [letter, value] of Object.entries(EXTRA[block.name] ?? {})) table.set(letter, value);
  for (const n of NUKTA_SIGNS) table.set(n, { kind: 'nukta', latin: '' });
  return table;
}

const TABLES = new Map<ScriptName, Map<string, Letter>>(BRAHMIC.map((b) => [b.name, buildTable(b)]));

/**
 * One word of a Brahmic script in Latin letters, '@' for each inherent vowel. Bengali and Odia read
 * য/ଯ as "j" except after a virama (the "ya-phala"), and Bengali ব after a virama as "v" (বিশ্বাস Biswas).
 */
function brahmicToLatin(word: string, script: ScriptName): string {
  const table = TABLES.get(script)!;
  const out: string[] = [];
  let pending = false; // a consonant waiting for its vowel
  let afterVirama = false;
  let lastConsonant = -1;
  let lastLetter = '';
  for (const ch of word) {
    const l = table.get(ch);
    if (!l) continue; // digits, dandas, ZWJ/ZWNJ and signs we do not need
    if (l.kind === 'nukta') {
      if (lastConsonant >= 0) out[lastConsonant] = NUKTA_OF_LETTER[lastLetter] ?? NUKTA[out[lastConsonant]!] ?? out[lastConsonant]!;
      continue;
    }
    if (l.kind === 'mark' || l.kind === 'virama') {
      if (l.kind === 'mark') out.push(l.latin);
      pending = false;
      afterVirama = l.kind === 'virama';
      continue;
    }
    if (l.kind === 'other') continue; // Gurmukhi addak: gemination, which keys ignore
    if (pending) out.push('@');
    pending = false;
    let latin = l.latin;
    if (l.kind === 'consonant') {
      if ((script === 'Bengali' || script === 'Odia') && latin === 'y' && (ch === 'য' || ch === 'ଯ')) latin = afterVirama ? 'y' : 'j';
      if (script === 'Bengali' && latin === 'b' && afterVirama) latin = 'v';
      lastConsonant = out.length;
      lastLetter = ch;
      out.push(latin);
      pending = true;
    } else {
      lastConsonant = -1;
      out.push(latin);
    }
    afterVirama = false;
  }
  if (pending) out.push('@');
  // An anusvara before h is the velar nasal: सिंह is Singh. ज्ञ (j, virama, ñ) is said and written "gy" (ज्ञान Gyan).
  return out.join('').replace(/N(?=h)/g, 'ng').replace(/N/g, 'n').replace(/jn/g, 'gy');
}

/** Tamil writes க்ஷ (ksh) as ட்ச: லட்சுமி Lakshmi, மீனாட்சி Meenakshi. */
const TAMIL_KSH = /\u0b9f\u0bcd\u0b9a/g;

/** Arabic letters that Urdu says as z, s and t (ذ is "z" in Zakir, not "dh"). */
const URDU_SOUNDS: Record<string, string> = { 'ذ': 'ز', 'ض': 'ز', 'ظ': 'ز', 'ث': 'س', 'ص': 'س', 'ط': 'ت' };

/** One word of Perso-Arabic script as the consonants (and long vowels) it writes. */
function arabicToLatin(word: string): string {
  const urdu = [...word].map((ch) => URDU_SOUNDS[ch] ?? ch).join('');
  return fold(anyAscii(urdu).replace(/[`']/g, ''));
}

export interface Romanised {
  latin: string;
  script: ScriptName;
}

/** A word of one script (see scriptOf) in Latin letters, folded; Latin words are only folded. */
export function romanise(word: string, script: ScriptName): Romanised {
  if (script === 'Latin') return { latin: fold(word), script };
  if (script === 'Perso-Arabic') return { latin: arabicToLatin(word), script };
  return { latin: brahmicToLatin(script === 'Tamil' ? word.replace(TAMIL_KSH, 'க்ஷ') : word, script), script };
}

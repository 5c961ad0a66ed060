// Owns turning one name as given into the words the comparison uses: validation (CONTRACT §11: 1 to
// 200 characters, at most 256 after NFKC, Latin or an Indian script), Unicode NFKC, relation tails and
// aliases, words and initials, transliteration, honorifics (and the gender a title says: Mr, Smt), and
// each word's phonetic key and weight. It never compares; digits are dropped and only counted.
//
// Errors: NameMatchInputError (required, too_long, no_letters, unsupported_script), naming the field.
import { NameMatchInputError, type NameMatchField } from './errors.js';
import { ALIAS_MARKER, GENDERED_TITLES, HONORIFICS, NATIVE_HONORIFICS, RELATION_MARKER, SHORT_WORDS, SPELT_INITIALS, TRAILING_HONORIFICS } from './lexicon.js';
import { phoneticKey } from './phonetic.js';
import { describeScript, romanise, scriptOf, type ScriptName } from './script.js';
import type { NameMatchReason } from './types.js';
import { tokenWeight } from './vocabulary.js';

export const MAX_NAME_LENGTH = 200;
/**
 * The most characters a name may have once NFKC has expanded it. One character may become up to 18
 * (U+FDFA), and the comparison's cost grows with its words, so the bound is on what is compared, not
 * only on what was sent. 256 leaves room for the expansions real names have (a precomposed nukta
 * letter such as क़ is two, a ligature such as ﬁ two).
 */
export const MAX_NORMALISED_LENGTH = 256;

export interface Token {
  /** The word as written (after NFKC). */
  text: string;
  /** Folded Latin letters; '@' for an inherent vowel of an Indian script. */
  latin: string;
  key: string;
  script: ScriptName;
  /** The letter, when the word is an initial. */
  initial: string | null;
  /** Position in the name (0 = first word), after honorifics are dropped. */
  pos: number;
  weight: number;
  /** From Tamil or Malayalam script, which do not mark voicing. */
  loose: boolean;
  /** From Perso-Arabic script: only the consonants are reliable. */
  consonantsOnly: boolean;
}

export interface ParsedName {
  /** One list of words per form of the name (more than one only with an alias). */
  forms: Token[][];
  reasons: NameMatchReason[];
  /** Characters in the compared part (NFKC), for the truncation rule. */
  length: number;
  /** A title dropped from the front that says a man or a woman (Mr, Smt), with the title as written. */
  title: { gender: 'male' | 'female'; text: string } | null;
}

const TITLE_GENDER = new Map<string, 'male' | 'female'>([
  ...GENDERED_TITLES.male.map((t) => [t, 'male'] as const),
  ...GENDERED_TITLES.female.map((t) => [t, 'female'] as const),
  ['श्रीमान', 'male'],
  ['सुश्री', 'female'],
  ['कु', 'female'],
]);

const INVISIBLE = /[\u00ad\u200b-\u200f\u2060\ufeff]/g;
const SEPARATORS = /[\s,;:()[\]{}/\\_\-–—|+&*#!?<>=~^"“”]+/u;
const APOSTROPHES = /['’`´]/g;

function validate(raw: unknown, field: NameMatchField): string {
  if (typeof raw !== 'string') throw new NameMatchInputError(field, 'required', `${field} must be a string of 1 to ${MAX_NAME_LENGTH} characters`);
  if ([...raw].length > MAX_NAME_LENGTH) throw new NameMatchInputError(field, 'too_long', `${field} is longer than ${MAX_NAME_LENGTH} characters`);
  const normalised = raw.normalize('NFKC'); // at most 18 × MAX_NAME_LENGTH code units
  if ([...normalised].length > MAX_NORMALISED_LENGTH) {
    throw new NameMatchInputError(field, 'too_long', `${field} is longer than ${MAX_NORMALISED_LENGTH} characters once Unicode NFKC normalisation expands it`);
  }
  const s = normalised.replace(INVISIBLE, '').trim();
  if (s.length === 0) throw new NameMatchInputError(field, 'required', `${field} is empty`);
  let letters = 0;
  for (const ch of s) {
    if (!/\p{L}/u.test(ch)) continue;
    letters++;
    if (scriptOf(ch) === null) {
      throw new NameMatchInputError(field, 'unsupported_script', `${field} is written in a script the name match does not read (${describeScript(ch)}); give it in Latin or an Indian script`);
    }
  }
  if (letters === 0) throw new NameMatchInputError(field, 'no_letters', `${field} has no letters`);
  return s;
}

/** Splits a word into runs of one script each ("Rameshकुमार" is two words). */
function scriptRuns(word: string): Array<{ text: string; script: ScriptName }> {
  const runs: Array<{ text: string; script: ScriptName }> = [];
  for (const ch of word) {
    const sc = /\p{L}/u.test(ch) ? scriptOf(ch) : null;
    const last = runs[runs.length - 1];
    if (sc === null || (last && last.script === sc)) {
      if (last) last.text += ch;
      else if (sc !== null) runs.push({ text: ch, script: sc });
    } else runs.push({ text: ch, script: sc });
  }
  return runs;
}

interface RawWord {
  text: string;
  dotted: boolean;
}

function words(s: string): RawWord[] {
  const out: RawWord[] = [];
  for (const part of s.replace(APOSTROPHES, '').split(SEPARATORS)) {
    // A dot ends an abbreviation: "S.Ramesh" is two words, the first an initial.
    const pieces = part.split('.');
    pieces.forEach((p, i) => {
      if (p.length > 0) out.push({ text: p, dotted: i < pieces.length - 1 });
    });
  }
  return out;
}

const lexical = (latin: string) => latin.replace(/@$/, '').replace(/@/g, 'a');

function initialOf(text: string, latin: string, script: ScriptName, dotted: boolean, mixedCase: boolean): string[] | null {
  if (script === 'Latin') {
    if (latin.length === 1) return [latin];
    const upper = /^\p{Lu}+$/u.test(text);
    if (latin.length <= 3 && !SHORT_WORDS.has(latin) && (!/[aeiou]/.test(latin) || (upper && mixedCase && latin.length === 2))) return [...latin];
    return null;
  }
  if (!dotted || script === 'Perso-Arabic') return null;
  const spelt = SPELT_INITIALS[phoneticKey(lexical(latin))];
  if (spelt) return [spelt];
  if (/^[a-z]+@$/.test(latin) && latin.length <= 3) return [latin[0]!];
  return null;
}

/**
 * The words of one form of a name, honorifics dropped from the front (and "ji", "saheb"… from the end).
 * Reports what it dropped and which scripts it read.
 */
function tokenise(form: string, mixedCase: boolean, field: NameMatchField, reasons: NameMatchReason[], scripts: Set<ScriptName>, titles: Array<[string, string]>): Token[] {
  const out: Token[] = []; // pos: the index in out (words are only ever dropped from the end)
  let leading = true;
  const dropped: string[] = [];
  for (const w of words(form)) {
    for (const run of scriptRuns(w.text)) {
      const { latin, script } = romanise(run.text, run.script);
      if (latin.replace(/@/g, '').length === 0) continue;
      if (leading && (NATIVE_HONORIFICS.has(run.text) || HONORIFICS.has(lexical(latin)))) {
        dropped.push(run.text);
        titles.push([TITLE_GENDER.has(run.text) ? run.text : lexical(latin), run.text]);
        continue;
      }
      leading = false;
      if (script !== 'Latin') scripts.add(script);
      const loose = script === 'Tamil' || script === 'Malayalam';
      const initials = initialOf(run.text, latin, script, w.dotted, mixedCase);
      if (initials) {
        for (const letter of initials) out.push({ text: initials.length > 1 ? letter.toUpperCase() : run.text, latin: letter, key: letter, script, initial: letter, pos: out.length, weight: 0.35, loose, consonantsOnly: false });
        continue;
      }
      const key = phoneticKey(latin);
      out.push({ text: run.text, latin, key, script, initial: null, pos: out.length, weight: tokenWeight(key), loose, consonantsOnly: script === 'Perso-Arabic' });
    }
  }
  while (out.length > 1 && TRAILING_HONORIFICS.has(lexical(out[out.length - 1]!.latin))) dropped.push(out.pop()!.text);
  if (dropped.length) reasons.push({ code: 'HONORIFIC_REMOVED', detail: `${field}: ${dropped.join(', ')}` });
  return out;
}

/** Reads one name (field `name_1` or `name_2`). Throws NameMatchInputError for input it cannot compare. */
export function parseName(raw: unknown, field: NameMatchField): ParsedName {
  const s = validate(raw, field);
  const reasons: NameMatchReason[] = [];
  let text = s;
  const digitGroups = text.match(/\p{N}+/gu)?.length ?? 0;
  if (digitGroups > 0) {
    // How many, never which: a name may hold an Aadhaar, PAN or account number, and reasons are answered and stored.
    reasons.push({ code: 'DIGITS_IGNORED', detail: `${field}: ${digitGroups} ${digitGroups === 1 ? 'group' : 'groups'} of digits` });
    text = text.replace(/\p{N}+/gu, ' ');
  }
  const relation = RELATION_MARKER.exec(text.toLowerCase());
  if (relation) {
    const cut = relation.index + relation[0].indexOf(relation[1]!);
    reasons.push({ code: 'RELATION_REMOVED', detail: `${field}: "${text.slice(cut).trim()}" names another person` });
    text = text.slice(0, cut);
  }
  const formsText = text.split(ALIAS_MARKER).slice(0, 3);
  if (formsText.length > 1) reasons.push({ code: 'ALIAS_SPLIT', detail: `${field}: ${formsText.map((f) => `"${f.trim()}"`).join(' or ')}` });
  const mixedCase = /\p{Ll}/u.test(text) && /\p{Lu}/u.test(text);
  const scripts = new Set<ScriptName>();
  const titles: Array<[string, string]> = [];
  const forms = formsText.map((f) => tokenise(f, mixedCase, field, reasons, scripts, titles)).filter((f) => f.length > 0);
  if (scripts.size) reasons.push({ code: 'TRANSLITERATED', detail: `${field} read from ${[...scripts].join(' and ')}` });
  if (forms.length === 0) reasons.push({ code: 'NO_NAME_LEFT', detail: `${field}: nothing is left of "${s.replace(/\p{N}+/gu, ' ').replace(/\s+/g, ' ').trim()}"` });
  return { forms, reasons, length: [...text.trim()].length, title: titleOf(titles) };
}

/** The gender the titles say, if they say one and do not disagree among themselves. */
function titleOf(titles: Array<[key: string, text: string]>): ParsedName['title'] {
  const said = titles.filter(([key]) => TITLE_GENDER.has(key));
  const genders = new Set(said.map(([key]) => TITLE_GENDER.get(key)!));
  return genders.size === 1 ? { gender: [...genders][0]!, text: said[0]![1] } : null;
}


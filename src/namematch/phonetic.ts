// Owns how one token is spelt for comparison: the ASCII fold of Latin and transliterated text, the
// phonetic key (spellings Indian names are written in interchangeably collapse to one key), and the
// weighted edit distance between two keys, which counts how many edits were "hard" (a consonant
// changed, added or dropped, or the first vowel changed): one hard edit is what separates Anil from
// Sunil and Asha from Usha, so hard edits never pass as spelling variants.
//
// '@' in a key is an inherent vowel of an Indic script (the schwa that Hindi drops at the end and often
// in the middle of a word, and that Bengali and Odia say as "o"): it matches a, o or nothing for free.

/** IAST and ISO 15919 letters that fold to more than their base letter. */
const SPECIAL: Record<string, string> = {
  'ś': 'sh', 'Ś': 'sh', 'ṣ': 'sh', 'Ṣ': 'sh', 'ṛ': 'ri', 'Ṛ': 'ri', 'ṝ': 'ri', 'ṟ': 'r', 'ḷ': 'l', 'ḹ': 'l', 'ḻ': 'zh',
  'ṃ': 'n', 'ṁ': 'n', 'ḥ': '', 'ṉ': 'n', 'ñ': 'n', 'ṅ': 'n', 'ṇ': 'n', 'æ': 'ae', 'ß': 'ss', 'ø': 'o', 'đ': 'd', 'ł': 'l',
};

/** Lower-case ASCII letters (and '@' when the caller put one there), diacritics folded. */
export function fold(s: string): string {
  let out = '';
  for (const ch of s.normalize('NFC')) out += SPECIAL[ch] ?? ch;
  return out.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z@]/g, '');
}

const REWRITES: Array<[RegExp, string]> = [
  [/x/g, 'ks'],
  [/q/g, 'k'],
  [/ck/g, 'k'],
  [/ph/g, 'f'],
  [/ksh/g, 'ks'],
  [/chh/g, 'ch'],
  [/ch/g, 'c'],
  [/sh/g, 's'],
  [/zh/g, 'l'],
  [/([bdgjktr])h/g, '$1'],
  [/ow(?![aeiou@])/g, 'au'],
  [/w/g, 'v'],
  [/ee|ii/g, 'i'],
  [/oo|uu/g, 'u'],
  [/aa/g, 'a'],
  [/ou/g, 'au'],
  [/ei/g, 'ai'],
  [/ey$/g, 'e'],
  [/ay$/g, 'ai'],
  [/oy$/g, 'oi'],
  [/(?<=[^aeiou@])y$/g, 'i'],
  [/([a-z@])\1+/g, '$1'],
  [/n(?=[pbm])/g, 'm'],
];

/** The phonetic key of a folded token: aspiration, doubling and the usual Indian spelling pairs collapse. */
export function phoneticKey(folded: string): string {
  let k = folded;
  for (const [re, to] of REWRITES) k = k.replace(re, to);
  return k;
}

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u', '@']);
const isVowel = (c: string) => VOWELS.has(c);

/** Pairs written for one another in Indian names, at a fraction of a full edit. */
const CHEAP: Record<string, number> = { bv: 0.3, vb: 0.3, jz: 0.4, zj: 0.4, sz: 0.4, zs: 0.4, yi: 0.3, iy: 0.3 };
/** Tamil and Malayalam scripts do not mark voicing (க is k or g): these pairs cost little when either side came from them. */
const LOOSE: Record<string, number> = { kg: 0.2, gk: 0.2, cj: 0.2, jc: 0.2, cs: 0.2, sc: 0.2, sj: 0.3, js: 0.3, td: 0.2, dt: 0.2, pb: 0.2, bp: 0.2 };

interface Cost {
  cost: number;
  hard: number;
}

function subCost(x: string, y: string, first: boolean, last: boolean, loose: boolean): Cost {
  if (x === y) return { cost: 0, hard: 0 };
  if (x === '@' || y === '@') {
    const other = x === '@' ? y : x;
    if (other === 'a') return { cost: 0, hard: 0 };
    if (other === 'o') return { cost: 0.1, hard: 0 };
    if (isVowel(other)) return { cost: 0.35, hard: 0 };
    return { cost: 1, hard: 1 };
  }
  if (isVowel(x) && isVowel(y)) return first ? { cost: 0.9, hard: 1 } : { cost: 0.35, hard: 0 };
  const cheap = CHEAP[x + y] ?? (loose ? LOOSE[x + y] : undefined);
  if (cheap !== undefined) return { cost: cheap, hard: 0 };
  if (last && ((x === 'n' && y === 'm') || (x === 'm' && y === 'n'))) return { cost: 0.35, hard: 0 };
  return { cost: 1, hard: 1 };
}

function indelCost(c: string, first: boolean, last: boolean): Cost {
  if (c === '@') return { cost: 0.05, hard: 0 };
  if (isVowel(c)) return first ? { cost: 0.9, hard: 1 } : { cost: last ? 0.25 : 0.4, hard: 0 };
  if (c === 'h' || c === 'y') return { cost: 0.3, hard: 0 };
  return { cost: 1, hard: 1 };
}

/** Letters that count towards a key's length ('@' is optional, so it does not). */
export const keyLength = (k: string) => k.replace(/@/g, '').length;

export interface Distance {
  cost: number;
  hard: number;
  /** 1 − cost / the longer key's length, 0 to 1. */
  sim: number;
}

/** Weighted edit distance between two phonetic keys (see the module header for what "hard" means). */
export function keyDistance(a: string, b: string, loose = false): Distance {
  const n = a.length;
  const m = b.length;
  // Rolling rows of [cost, hard], ordered by cost then by hard edits.
  let prevC = new Float64Array(m + 1);
  let prevH = new Uint8Array(m + 1);
  let curC = new Float64Array(m + 1);
  let curH = new Uint8Array(m + 1);
  for (let j = 1; j <= m; j++) {
    const d = indelCost(b[j - 1]!, j === 1, j === m);
    prevC[j] = prevC[j - 1]! + d.cost;
    prevH[j] = prevH[j - 1]! + d.hard;
  }
  for (let i = 1; i <= n; i++) {
    const ai = a[i - 1]!;
    const da = indelCost(ai, i === 1, i === n);
    curC[0] = prevC[0]! + da.cost;
    curH[0] = prevH[0]! + da.hard;
    for (let j = 1; j <= m; j++) {
      const bj = b[j - 1]!;
      const s = subCost(ai, bj, i === 1 || j === 1, i === n && j === m, loose);
      const db = indelCost(bj, j === 1, j === m);
      let c = prevC[j - 1]! + s.cost;
      let h = prevH[j - 1]! + s.hard;
      const c2 = prevC[j]! + da.cost;
      const h2 = prevH[j]! + da.hard;
      if (c2 < c - 1e-9 || (Math.abs(c2 - c) <= 1e-9 && h2 < h)) [c, h] = [c2, h2];
      const c3 = curC[j - 1]! + db.cost;
      const h3 = curH[j - 1]! + db.hard;
      if (c3 < c - 1e-9 || (Math.abs(c3 - c) <= 1e-9 && h3 < h)) [c, h] = [c3, h3];
      curC[j] = c;
      curH[j] = h;
    }
    [prevC, curC] = [curC, prevC];
    [prevH, curH] = [curH, prevH];
  }
  const cost = prevC[m]!;
  const longest = Math.max(keyLength(a), keyLength(b), 1);
  return { cost, hard: prevH[m]!, sim: Math.max(0, 1 - cost / longest) };
}

/** The consonant skeleton of a key: what a script that writes few vowels (Perso-Arabic) can be compared on. */
export const skeleton = (k: string) => k.replace(/[aeiou@yvh]/g, '');

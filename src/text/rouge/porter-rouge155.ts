/**
 * The Porter stemmer inside ROUGE-1.5.5.pl (its `stem` sub: Martin Porter's Perl "Release 1" as modified by
 * Chin-Yew Lin in 2004), reproduced exactly. It differs from NLTK's modes in these places:
 *
 * - Words shorter than 3 characters are returned unchanged (NLTK's extended modes stop at 2).
 * - Each step picks, among its suffixes, the longest one the word ends with (the Perl alternation is anchored at
 *   the end, and the leftmost match wins), then applies it only if its condition holds.
 * - Step 1c turns a final `y` into `i` whenever the rest holds a vowel (the 1980 rule), Step 2 uses `bli → ble` and
 *   `logi → log` (Martin's changes), and there is no irregular-forms table.
 * - Step 4: after the usual suffix list (in which `-ement` replaced `-ment`/`-ent`), `-ment` and then `-ent` are
 *   tried again on the result, and `-sion`/`-tion` only when the word does not end in `-ent`. So `agreement` →
 *   `agreem` (the `-ement` rule fails on `agre`, then `-ent` succeeds on `agreem`), where NLTK keeps `agreement`.
 * - The `(m=1 and *o)` tests of Steps 1b and 5 match the whole word as consonant-run, one vowel, one final consonant
 *   other than w, x, y — rather than only its last three letters.
 * - A word-initial `y` is upper-cased while stemming, making it a consonant, and lower-cased again at the end.
 *
 * The measure tests equal Porter's m > 0, m > 1, m = 1 and `*v*` (see ./porter-measure.ts): ROUGE's regular
 * expressions `^(C)?VC`, `^(C)?VCVC`, `^(C)?VC(V)?$` and `^(C)?v` match exactly those words.
 */
import { containsVowel, isVowelLetter, measure } from './porter-measure.js';

const STEP2: ReadonlyMap<string, string> = new Map([
  ['ational', 'ate'],
  ['tional', 'tion'],
  ['enci', 'ence'],
  ['anci', 'ance'],
  ['izer', 'ize'],
  ['bli', 'ble'],
  ['alli', 'al'],
  ['entli', 'ent'],
  ['eli', 'e'],
  ['ousli', 'ous'],
  ['ization', 'ize'],
  ['ation', 'ate'],
  ['ator', 'ate'],
  ['alism', 'al'],
  ['iveness', 'ive'],
  ['fulness', 'ful'],
  ['ousness', 'ous'],
  ['aliti', 'al'],
  ['iviti', 'ive'],
  ['biliti', 'ble'],
  ['logi', 'log'],
]);

const STEP3: ReadonlyMap<string, string> = new Map([
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
]);

const STEP4: readonly string[] = [
  'al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ou', 'ism', 'ate', 'iti', 'ous', 'ive', 'ize',
];

/** `suffixes` longest first, so that the first one a word ends with is the longest (what the Perl regex finds). */
const byLength = (suffixes: Iterable<string>): readonly string[] => [...suffixes].sort((a, b) => b.length - a.length);
const STEP2_SUFFIXES = byLength(STEP2.keys());
const STEP3_SUFFIXES = byLength(STEP3.keys());
const STEP4_SUFFIXES = byLength(STEP4);

/** The longest of `suffixes` (sorted longest first) that `word` ends with, or undefined. */
function longestSuffix(word: string, suffixes: readonly string[]): string | undefined {
  for (const s of suffixes) if (word.endsWith(s)) return s;
  return undefined;
}

/** ROUGE's `^C v [^aeiouwxy]$`: a consonant run (starting with any non-aeiou), one [aeiouy], one final consonant. */
function isWholeCvc(w: string): boolean {
  const n = w.length;
  if (n < 3 || isVowelLetter(w.charCodeAt(0))) return false;
  for (let i = 1; i < n - 2; i++) {
    const c = w.charCodeAt(i);
    if (isVowelLetter(c) || c === 0x79) return false;
  }
  const v = w.charCodeAt(n - 2);
  if (!isVowelLetter(v) && v !== 0x79) return false;
  const last = w.charCodeAt(n - 1);
  return !isVowelLetter(last) && last !== 0x77 && last !== 0x78 && last !== 0x79;
}

/** ROUGE's `([^aeiouylsz])\1$`. */
function endsDoubleNotLsz(w: string): boolean {
  const n = w.length;
  if (n < 2) return false;
  const c = w.charCodeAt(n - 1);
  if (c !== w.charCodeAt(n - 2) || isVowelLetter(c)) return false;
  return c !== 0x79 && c !== 0x6c && c !== 0x73 && c !== 0x7a;
}

/**
 * ROUGE-1.5.5's `stem($w)`: its Porter stemmer, quirks included (see the module comment). ROUGE calls it (after
 * the WordNet exception table) on lower-case tokens longer than 3 characters.
 */
export function rouge155PorterStem(word: string): string {
  if (word.length < 3) return word;
  const initialY = word.charCodeAt(0) === 0x79;
  let w = initialY ? 'Y' + word.slice(1) : word;

  // Step 1a
  if (w.endsWith('sses') || w.endsWith('ies')) w = w.slice(0, -2);
  else if (w.length >= 2 && w.endsWith('s') && w.charCodeAt(w.length - 2) !== 0x73) w = w.slice(0, -1);

  // Step 1b
  if (w.endsWith('eed')) {
    if (measure(w, w.length - 3) > 0) w = w.slice(0, -1);
  } else {
    const cut = w.endsWith('ed') ? 2 : w.endsWith('ing') ? 3 : 0;
    if (cut > 0 && containsVowel(w, w.length - cut)) {
      w = w.slice(0, -cut);
      if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) w += 'e';
      else if (endsDoubleNotLsz(w)) w = w.slice(0, -1);
      else if (isWholeCvc(w)) w += 'e';
    }
  }

  // Step 1c
  if (w.endsWith('y') && containsVowel(w, w.length - 1)) w = w.slice(0, -1) + 'i';

  // Steps 2 and 3
  let suffix = longestSuffix(w, STEP2_SUFFIXES);
  if (suffix !== undefined && measure(w, w.length - suffix.length) > 0) {
    w = w.slice(0, w.length - suffix.length) + STEP2.get(suffix)!;
  }
  suffix = longestSuffix(w, STEP3_SUFFIXES);
  if (suffix !== undefined && measure(w, w.length - suffix.length) > 0) {
    w = w.slice(0, w.length - suffix.length) + STEP3.get(suffix)!;
  }

  // Step 4
  suffix = longestSuffix(w, STEP4_SUFFIXES);
  if (suffix !== undefined && measure(w, w.length - suffix.length) > 1) w = w.slice(0, w.length - suffix.length);
  if (w.endsWith('ment') && measure(w, w.length - 4) > 1) w = w.slice(0, -4);
  if (w.endsWith('ent')) {
    if (measure(w, w.length - 3) > 1) w = w.slice(0, -3);
  } else if ((w.endsWith('sion') || w.endsWith('tion')) && measure(w, w.length - 3) > 1) {
    w = w.slice(0, -3);
  }

  // Step 5
  if (w.endsWith('e')) {
    const m = measure(w, w.length - 1);
    if (m > 1 || (m === 1 && !isWholeCvc(w.slice(0, -1)))) w = w.slice(0, -1);
  }
  if (w.endsWith('ll') && measure(w) > 1) w = w.slice(0, -1);

  return initialY ? 'y' + w.slice(1) : w;
}

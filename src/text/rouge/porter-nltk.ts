/**
 * NLTK 3.8's `PorterStemmer` (nltk/stem/porter.py) in its three modes, reproduced rule for rule: rouge-score
 * (`use_stemmer=True`) stems with `PorterStemmer()`, i.e. `NLTK_EXTENSIONS`.
 *
 * - `ORIGINAL_ALGORITHM`: Porter (1980) as published (`abli → able`, words of any length are stemmed).
 * - `MARTIN_EXTENSIONS`: the changes in Martin Porter's own reference implementations (`bli → ble`, `logi → log`,
 *   words of one or two letters are left alone).
 * - `NLTK_EXTENSIONS` (NLTK's default): Martin's, plus a table of irregular forms (`dying → die`, `skies → sky`),
 *   `-ies`/`-ied` of four-letter words kept as `-ie`, `alli` handled before the other Step 2 rules and re-run,
 *   `fulli → ful`, the `l` of `logi` counted in the stem, Step 1c only after a consonant, and a two-letter
 *   vowel-consonant word counting as `*o`.
 *
 * Within each step NLTK tries the suffixes in a fixed order and stops at the first one the word ends with, whether
 * or not that rule's condition holds; the rule tables below keep NLTK's order for that reason.
 */
import { pyLower } from '../pystr.js';
import { containsVowel, endsDoubleConsonant, isConsonant, measure } from './porter-measure.js';

/** The three `PorterStemmer` modes of NLTK. */
export type NltkPorterMode = 'NLTK_EXTENSIONS' | 'MARTIN_EXTENSIONS' | 'ORIGINAL_ALGORITHM';

/** All {@link NltkPorterMode}s. */
export const NLTK_PORTER_MODES: readonly NltkPorterMode[] = ['NLTK_EXTENSIONS', 'MARTIN_EXTENSIONS', 'ORIGINAL_ALGORITHM'];

/** NLTK_EXTENSIONS' irregular forms: form → stem, used instead of the algorithm. */
const IRREGULAR: ReadonlyMap<string, string> = new Map([
  ['sky', 'sky'],
  ['skies', 'sky'],
  ['dying', 'die'],
  ['lying', 'lie'],
  ['tying', 'tie'],
  ['news', 'news'],
  ['innings', 'inning'],
  ['inning', 'inning'],
  ['outings', 'outing'],
  ['outing', 'outing'],
  ['cannings', 'canning'],
  ['canning', 'canning'],
  ['howe', 'howe'],
  ['proceed', 'proceed'],
  ['exceed', 'exceed'],
  ['succeed', 'succeed'],
]);

/** The lengths and last characters of the {@link IRREGULAR} forms: a word of another is none of them. */
const IRREGULAR_SHORTEST = Math.min(...[...IRREGULAR.keys()].map((w) => w.length));
const IRREGULAR_LONGEST = Math.max(...[...IRREGULAR.keys()].map((w) => w.length));
const IRREGULAR_LAST = new Set([...IRREGULAR.keys()].map((w) => w.charCodeAt(w.length - 1)));

/** Whether `word` may be one of the {@link IRREGULAR} forms (false: surely none), without a look-up of the string. */
function mayBeIrregular(word: string): boolean {
  const n = word.length;
  return n >= IRREGULAR_SHORTEST && n <= IRREGULAR_LONGEST && IRREGULAR_LAST.has(word.charCodeAt(n - 1));
}

/** A rule `suffix → replacement if condition(stem)`, stem = the word without the suffix. */
type Rule = readonly [suffix: string, replacement: string, condition: ((stem: string) => boolean) | null];

const positiveMeasure = (stem: string): boolean => measure(stem) > 0;
const measureAbove1 = (stem: string): boolean => measure(stem) > 1;

/**
 * A step's rules grouped by the last character of their suffix, each group in the step's order: a word can only end
 * with the suffixes of its own last character's group, so the first rule of that group it ends with is the first of
 * the step's rules it ends with. Every suffix is lowercase ASCII; a word ending in any other character matches none.
 */
type RuleTable = readonly (readonly Rule[] | undefined)[];

function ruleTable(rules: readonly Rule[]): RuleTable {
  const table: Rule[][] = [];
  for (const rule of rules) (table[rule[0].charCodeAt(rule[0].length - 1)] ??= []).push(rule);
  return Array.from({ length: 128 }, (_, c) => table[c]);
}

/**
 * Applies the first rule whose suffix `word` ends with; returns `word` unchanged when that rule's condition fails.
 */
function applyRules(word: string, table: RuleTable): string {
  const rules = word.length === 0 ? undefined : table[word.charCodeAt(word.length - 1)];
  if (rules === undefined) return word;
  for (const [suffix, replacement, condition] of rules) {
    if (word.endsWith(suffix)) {
      const stem = word.slice(0, word.length - suffix.length);
      return condition === null || condition(stem) ? stem + replacement : word;
    }
  }
  return word;
}

/** Porter's `*o`: ends consonant-vowel-consonant, the last not w, x or y (NLTK: also a 2-letter vowel-consonant). */
function endsCvc(word: string, mode: NltkPorterMode): boolean {
  const n = word.length;
  if (n >= 3) {
    const last = word.charCodeAt(n - 1);
    if (
      isConsonant(word, n - 3) &&
      !isConsonant(word, n - 2) &&
      isConsonant(word, n - 1) &&
      last !== 0x77 &&
      last !== 0x78 &&
      last !== 0x79
    ) {
      return true;
    }
  }
  return mode === 'NLTK_EXTENSIONS' && n === 2 && !isConsonant(word, 0) && isConsonant(word, 1);
}

const STEP1A = ruleTable([
  ['sses', 'ss', null],
  ['ies', 'i', null],
  ['ss', 'ss', null],
  ['s', '', null],
]);

function step1a(word: string, mode: NltkPorterMode): string {
  if (mode === 'NLTK_EXTENSIONS' && word.length === 4 && word.endsWith('ies')) return word.slice(0, -3) + 'ie';
  return applyRules(word, STEP1A);
}

function step1b(word: string, mode: NltkPorterMode): string {
  // Every suffix below ends in `d` or `g`.
  const last = word.length === 0 ? 0 : word.charCodeAt(word.length - 1);
  if (last !== 0x64 && last !== 0x67) return word;
  if (mode === 'NLTK_EXTENSIONS' && word.endsWith('ied')) {
    return word.slice(0, -3) + (word.length === 4 ? 'ie' : 'i');
  }
  if (word.endsWith('eed')) {
    const stem = word.slice(0, -3);
    return measure(stem) > 0 ? stem + 'ee' : word;
  }
  let stem: string;
  if (word.endsWith('ed') && containsVowel(word, word.length - 2)) stem = word.slice(0, -2);
  else if (word.endsWith('ing') && containsVowel(word, word.length - 3)) stem = word.slice(0, -3);
  else return word;
  // The rules that follow a successful -ed/-ing removal, tried in order, the first matching one deciding.
  if (stem.endsWith('at') || stem.endsWith('bl') || stem.endsWith('iz')) return stem + 'e';
  if (endsDoubleConsonant(stem)) {
    const last = stem.charAt(stem.length - 1);
    return last !== 'l' && last !== 's' && last !== 'z' ? stem.slice(0, -1) : stem;
  }
  return measure(stem) === 1 && endsCvc(stem, mode) ? stem + 'e' : stem;
}

function step1c(word: string, mode: NltkPorterMode): string {
  if (!word.endsWith('y')) return word;
  const stem = word.slice(0, -1);
  const ok = mode === 'NLTK_EXTENSIONS' ? stem.length > 1 && isConsonant(stem, stem.length - 1) : containsVowel(stem);
  return ok ? stem + 'i' : word;
}

const STEP2_HEAD: readonly Rule[] = [
  ['ational', 'ate', positiveMeasure],
  ['tional', 'tion', positiveMeasure],
  ['enci', 'ence', positiveMeasure],
  ['anci', 'ance', positiveMeasure],
  ['izer', 'ize', positiveMeasure],
];
const STEP2_TAIL: readonly Rule[] = [
  ['alli', 'al', positiveMeasure],
  ['entli', 'ent', positiveMeasure],
  ['eli', 'e', positiveMeasure],
  ['ousli', 'ous', positiveMeasure],
  ['ization', 'ize', positiveMeasure],
  ['ation', 'ate', positiveMeasure],
  ['ator', 'ate', positiveMeasure],
  ['alism', 'al', positiveMeasure],
  ['iveness', 'ive', positiveMeasure],
  ['fulness', 'ful', positiveMeasure],
  ['ousness', 'ous', positiveMeasure],
  ['aliti', 'al', positiveMeasure],
  ['iviti', 'ive', positiveMeasure],
  ['biliti', 'ble', positiveMeasure],
];
const STEP2_ORIGINAL: readonly Rule[] = [...STEP2_HEAD, ['abli', 'able', positiveMeasure], ...STEP2_TAIL];
const STEP2_MARTIN: readonly Rule[] = [
  ...STEP2_HEAD,
  ['bli', 'ble', positiveMeasure],
  ...STEP2_TAIL,
  ['logi', 'log', positiveMeasure],
];
const STEP2_NLTK: readonly Rule[] = [
  ...STEP2_HEAD,
  ['bli', 'ble', positiveMeasure],
  ...STEP2_TAIL,
  ['fulli', 'ful', positiveMeasure],
  // NLTK keeps the `l` of `logi` with the stem when measuring, so `geologi` → `geolog` like `archaeologi`.
  ['logi', 'log', (stem) => measure(stem + 'l') > 0],
];

const STEP2_ORIGINAL_TABLE = ruleTable(STEP2_ORIGINAL);
const STEP2_MARTIN_TABLE = ruleTable(STEP2_MARTIN);
const STEP2_NLTK_TABLE = ruleTable(STEP2_NLTK);

function step2(word: string, mode: NltkPorterMode): string {
  if (mode === 'NLTK_EXTENSIONS' && word.endsWith('alli') && measure(word, word.length - 4) > 0) {
    return step2(word.slice(0, -4) + 'al', mode);
  }
  return applyRules(word, mode === 'NLTK_EXTENSIONS' ? STEP2_NLTK_TABLE : mode === 'MARTIN_EXTENSIONS' ? STEP2_MARTIN_TABLE : STEP2_ORIGINAL_TABLE);
}

const STEP3 = ruleTable([
  ['icate', 'ic', positiveMeasure],
  ['ative', '', positiveMeasure],
  ['alize', 'al', positiveMeasure],
  ['iciti', 'ic', positiveMeasure],
  ['ical', 'ic', positiveMeasure],
  ['ful', '', positiveMeasure],
  ['ness', '', positiveMeasure],
]);

const STEP4 = ruleTable([
  ['al', '', measureAbove1],
  ['ance', '', measureAbove1],
  ['ence', '', measureAbove1],
  ['er', '', measureAbove1],
  ['ic', '', measureAbove1],
  ['able', '', measureAbove1],
  ['ible', '', measureAbove1],
  ['ant', '', measureAbove1],
  ['ement', '', measureAbove1],
  ['ment', '', measureAbove1],
  ['ent', '', measureAbove1],
  ['ion', '', (stem) => measure(stem) > 1 && (stem.endsWith('s') || stem.endsWith('t'))],
  ['ou', '', measureAbove1],
  ['ism', '', measureAbove1],
  ['ate', '', measureAbove1],
  ['iti', '', measureAbove1],
  ['ous', '', measureAbove1],
  ['ive', '', measureAbove1],
  ['ize', '', measureAbove1],
]);

function step5a(word: string, mode: NltkPorterMode): string {
  if (!word.endsWith('e')) return word;
  const stem = word.slice(0, -1);
  const m = measure(stem);
  return m > 1 || (m === 1 && !endsCvc(stem, mode)) ? stem : word;
}

function step5b(word: string): string {
  return word.endsWith('ll') && measure(word, word.length - 1) > 1 ? word.slice(0, -1) : word;
}

/** Python's `len()`: code points, not UTF-16 units. */
function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/**
 * Whether Python's `word.lower()` is `word`, judged character by character: no A-Z and no upper-case letter of
 * Latin-1 (whose other characters, `ß` and `ÿ` among them, are their own lowercase), or general punctuation such as
 * `„`. The words METEOR stems come lowercased, and this spares them {@link pyLower}'s call into the runtime (or its
 * Unicode path for an umlaut); any other character sends the word to it.
 */
function lowercaseAlready(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c < 0x41 || (c > 0x5a && c < 0xc0) || c === 0xd7 || (c >= 0xdf && c <= 0xff)) continue;
    if (c < 0x2000 || c > 0x206f) return false;
  }
  return true;
}

/**
 * `PorterStemmer(mode).stem(word)` of NLTK 3.8: Python-lowercases `word`, then (NLTK_EXTENSIONS) looks it up in
 * the irregular forms, leaves words of at most two characters alone (all modes but ORIGINAL_ALGORITHM), and runs
 * steps 1a, 1b, 1c, 2, 3, 4, 5a, 5b.
 * @param mode default `NLTK_EXTENSIONS`, NLTK's default and rouge-score's.
 * @param lowercased whether `word` is already Python's `lower()` of a word (which `lower()` leaves as it is): it is
 * then not scanned for letters to lowercase.
 */
export function nltkPorterStem(word: string, mode: NltkPorterMode = 'NLTK_EXTENSIONS', lowercased = false): string {
  let stem = lowercased || lowercaseAlready(word) ? word : pyLower(word);
  if (mode === 'NLTK_EXTENSIONS' && mayBeIrregular(word)) {
    // NLTK tests the word as given but returns the entry of its lowercase form (the same for lowercase input).
    const irregular = IRREGULAR.has(word) ? IRREGULAR.get(stem) : undefined;
    if (irregular !== undefined) return irregular;
  }
  // More than four UTF-16 units are more than two code points.
  if (mode !== 'ORIGINAL_ALGORITHM' && word.length <= 4 && codePointLength(word) <= 2) return stem;
  stem = step1a(stem, mode);
  stem = step1b(stem, mode);
  stem = step1c(stem, mode);
  stem = step2(stem, mode);
  stem = applyRules(stem, STEP3);
  stem = applyRules(stem, STEP4);
  stem = step5a(stem, mode);
  return step5b(stem);
}

/**
 * The word-shape tests of Porter's algorithm (Porter 1980, "An algorithm for suffix stripping", Program 14(3)),
 * shared by the NLTK and ROUGE-1.5.5 stemmers.
 *
 * A letter is a consonant unless it is a, e, i, o, u, or a `y` preceded by a consonant (a `y` at the start of the
 * word is a consonant). Everything else (digits, an upper-case `Y`) counts as a consonant, as in both reference
 * implementations: NLTK tests membership in {a, e, i, o, u} and ROUGE-1.5.5's regexes use the class `[^aeiou]`.
 * ROUGE-1.5.5 writes a word-initial `y` as `Y` while stemming; that `Y` is simply a consonant here too.
 *
 * Indices are UTF-16 code units; the stemmers are only ever given [a-z0-9] tokens by the ROUGE tokenizers.
 */

const A = 0x61;
const E = 0x65;
const I = 0x69;
const O = 0x6f;
const U = 0x75;
const Y = 0x79;

/** Whether the code unit `c` is one of a, e, i, o, u. */
export function isVowelLetter(c: number): boolean {
  return c === A || c === E || c === I || c === O || c === U;
}

/** Whether `word[i]` is a consonant in Porter's sense (a `y` is one only at the start or after a vowel). */
export function isConsonant(word: string, i: number): boolean {
  // Walk back over the run of `y`s ending at i: their roles alternate, starting from what precedes the run.
  let k = i;
  while (k >= 0 && word.charCodeAt(k) === Y) k--;
  const runLength = i - k;
  if (runLength === 0) return !isVowelLetter(word.charCodeAt(i));
  // The first `y` of the run is a consonant at the start of the word or after a vowel, else a vowel.
  const firstIsConsonant = k < 0 || !isConsonant(word, k);
  return runLength % 2 === 1 ? firstIsConsonant : !firstIsConsonant;
}

/**
 * Porter's measure m of `word[0, end)`: the number of vowel-sequence → consonant-sequence transitions, i.e. m in
 * `[C](VC)^m[V]`.
 */
export function measure(word: string, end: number = word.length): number {
  let m = 0;
  let prevVowel = false;
  let prevConsonant = true; // a `y` at index 0 is a consonant
  for (let i = 0; i < end; i++) {
    const c = word.charCodeAt(i);
    const consonant: boolean = isVowelLetter(c) ? false : c === Y ? i === 0 || !prevConsonant : true;
    if (consonant && prevVowel) m++;
    prevVowel = !consonant;
    prevConsonant = consonant;
  }
  return m;
}

/** Whether `word[0, end)` contains a vowel (Porter's `*v*`). */
export function containsVowel(word: string, end: number = word.length): boolean {
  let prevConsonant = true;
  for (let i = 0; i < end; i++) {
    const c = word.charCodeAt(i);
    const consonant: boolean = isVowelLetter(c) ? false : c === Y ? i === 0 || !prevConsonant : true;
    if (!consonant) return true;
    prevConsonant = consonant;
  }
  return false;
}

/** Whether `word` ends with two equal consonants (Porter's `*d`). */
export function endsDoubleConsonant(word: string): boolean {
  const n = word.length;
  return n >= 2 && word.charCodeAt(n - 1) === word.charCodeAt(n - 2) && isConsonant(word, n - 1);
}

/**
 * What METEOR learns of each new token of its 13a vocabulary, in the kernel instance that holds the tokens' bytes
 * (../src/wasm/words-13a.ts `Words13aGrowing`): the token's word (Python's `lower()`), that word's Porter stem (NLTK
 * 3.8's `PorterStemmer()`, mode NLTK_EXTENSIONS) and whether WordNet may have synonyms for the stem, as UTF-16 units
 * for METEOR's name table, so that TypeScript lowercases, stems and filters only the few tokens this kernel leaves to
 * it. The plain reference is ../test/reference/meteor-words.ts (pyLower, nltkPorterStem, mayHaveSynonyms; a test holds
 * the kernel to it).
 *
 * A token is taken when each of its characters is one whose lowercase this kernel knows: ASCII (A-Z lowered), Latin-1
 * (À-Þ but × lowered by 0x20, the others their own lowercase) and general punctuation (U+2000-U+206F, their own
 * lowercase); any other token is left to TypeScript. Each character taken is one UTF-16 unit, held as such while the
 * word is stemmed (Python's lengths and indexes are then the counts here). Porter's rules read ASCII letters only:
 * every other character is a consonant that no suffix holds, so a stem is the word's first characters and an ASCII
 * tail.
 *
 * Within each step the suffixes are tried in NLTK's order and the first one the word ends with decides, whether or
 * not its condition holds; a step's rules are grouped by the last character of their suffix (a word can only end
 * with the suffixes of its own last character's group), each group in the step's order.
 */

/** The word being stemmed, one u16 per character from 0 to {@link len} (its code point: all taken are below 2^16). */
const WORD = memory.data(512, 16);
/** Longest word this kernel stems; a longer one is left to the caller. */
const LONGEST: i32 = 240;
let len: i32 = 0;

// @ts-ignore: decorator
@inline
function at(i: i32): u32 {
  return u32(load<u16>(WORD + (usize(i) << 1)));
}

// @ts-ignore: decorator
@inline
function isVowelLetter(c: u32): bool {
  return c == 0x61 || c == 0x65 || c == 0x69 || c == 0x6f || c == 0x75;
}

/** Whether the character at `i` is a consonant (a `y` is one at the start or after a vowel: the run rule). */
function isConsonant(i: i32): bool {
  let k = i;
  while (k >= 0 && at(k) == 0x79) k--;
  const run = i - k;
  if (run == 0) return !isVowelLetter(at(i));
  const firstIsConsonant = k < 0 || !isConsonant(k);
  return (run & 1) == 1 ? firstIsConsonant : !firstIsConsonant;
}

/** Porter's m of the first `end` characters. */
function measure(end: i32): i32 {
  let m = 0;
  let prevVowel = false;
  let prevConsonant = true;
  for (let i = 0; i < end; i++) {
    const c = at(i);
    const consonant = isVowelLetter(c) ? false : c == 0x79 ? i == 0 || !prevConsonant : true;
    if (consonant && prevVowel) m++;
    prevVowel = !consonant;
    prevConsonant = consonant;
  }
  return m;
}

/** Whether the first `end` characters hold a vowel. */
function containsVowel(end: i32): bool {
  let prevConsonant = true;
  for (let i = 0; i < end; i++) {
    const c = at(i);
    const consonant = isVowelLetter(c) ? false : c == 0x79 ? i == 0 || !prevConsonant : true;
    if (!consonant) return true;
    prevConsonant = consonant;
  }
  return false;
}

/** Porter's `*o` of the first `n` characters (NLTK: also a vowel and a consonant alone). */
function endsCvc(n: i32): bool {
  if (n >= 3) {
    const last = at(n - 1);
    if (isConsonant(n - 3) && !isConsonant(n - 2) && isConsonant(n - 1) && last != 0x77 && last != 0x78 && last != 0x79) {
      return true;
    }
  }
  return n == 2 && !isConsonant(0) && isConsonant(1);
}

/** Code unit `k` of the static string `s` (read in place: `charCodeAt` would check its bounds). */
// @ts-ignore: decorator
@inline
function unit(s: string, k: i32): u32 {
  return u32(load<u16>(changetype<usize>(s) + (usize(k) << 1)));
}

/** Whether the word ends with `s`. */
function ends(s: string): bool {
  const n = s.length;
  if (n > len) return false;
  const from = len - n;
  for (let k = 0; k < n; k++) if (at(from + k) != unit(s, k)) return false;
  return true;
}

/** The word without its last `cut` characters and with `rep` after them. */
function replaceEnd(cut: i32, rep: string): void {
  len -= cut;
  for (let k = 0; k < rep.length; k++) store<u16>(WORD + (usize(len + k) << 1), u16(unit(rep, k)));
  len += rep.length;
}

/**
 * One rule: when the word ends with `suffix`, true, and the suffix replaced by `rep` if the measure of the rest is
 * above `above` (-1: always); false when it does not end so.
 */
function rule(suffix: string, rep: string, above: i32): bool {
  if (!ends(suffix)) return false;
  if (above < 0 || measure(len - suffix.length) > above) replaceEnd(suffix.length, rep);
  return true;
}

function step1a(): void {
  if (len == 4 && ends('ies')) {
    replaceEnd(3, 'ie');
    return;
  }
  if (at(len - 1) != 0x73) return;
  if (rule('sses', 'ss', -1) || rule('ies', 'i', -1) || rule('ss', 'ss', -1)) return;
  rule('s', '', -1);
}

function step1b(): void {
  const last = at(len - 1);
  if (last != 0x64 && last != 0x67) return;
  if (ends('ied')) {
    replaceEnd(3, len == 4 ? 'ie' : 'i');
    return;
  }
  if (ends('eed')) {
    if (measure(len - 3) > 0) replaceEnd(3, 'ee');
    return;
  }
  if (ends('ed') && containsVowel(len - 2)) len -= 2;
  else if (ends('ing') && containsVowel(len - 3)) len -= 3;
  else return;
  if (ends('at') || ends('bl') || ends('iz')) {
    replaceEnd(0, 'e');
    return;
  }
  if (len >= 2 && at(len - 1) == at(len - 2) && isConsonant(len - 1)) {
    const c = at(len - 1);
    if (c != 0x6c && c != 0x73 && c != 0x7a) len -= 1;
    return;
  }
  if (measure(len) == 1 && endsCvc(len)) replaceEnd(0, 'e');
}

function step1c(): void {
  if (at(len - 1) != 0x79) return;
  if (len - 1 > 1 && isConsonant(len - 2)) replaceEnd(1, 'i');
}

function step2(): void {
  if (ends('alli') && measure(len - 4) > 0) {
    replaceEnd(4, 'al');
    step2();
    return;
  }
  const c = at(len - 1);
  if (c == 0x6c) {
    if (!rule('ational', 'ate', 0)) rule('tional', 'tion', 0);
  } else if (c == 0x69) {
    if (rule('enci', 'ence', 0) || rule('anci', 'ance', 0) || rule('bli', 'ble', 0) || rule('alli', 'al', 0)) return;
    if (rule('entli', 'ent', 0) || rule('eli', 'e', 0) || rule('ousli', 'ous', 0) || rule('aliti', 'al', 0)) return;
    if (rule('iviti', 'ive', 0) || rule('biliti', 'ble', 0) || rule('fulli', 'ful', 0)) return;
    // NLTK measures the l of logi with the stem.
    if (ends('logi') && measure(len - 3) > 0) replaceEnd(4, 'log');
  } else if (c == 0x72) {
    if (!rule('izer', 'ize', 0)) rule('ator', 'ate', 0);
  } else if (c == 0x6e) {
    if (!rule('ization', 'ize', 0)) rule('ation', 'ate', 0);
  } else if (c == 0x6d) {
    rule('alism', 'al', 0);
  } else if (c == 0x73) {
    if (!rule('iveness', 'ive', 0) && !rule('fulness', 'ful', 0)) rule('ousness', 'ous', 0);
  }
}

function step3(): void {
  const c = at(len - 1);
  if (c == 0x65) {
    if (!rule('icate', 'ic', 0) && !rule('ative', '', 0)) rule('alize', 'al', 0);
  } else if (c == 0x69) {
    rule('iciti', 'ic', 0);
  } else if (c == 0x6c) {
    if (!rule('ical', 'ic', 0)) rule('ful', '', 0);
  } else if (c == 0x73) {
    rule('ness', '', 0);
  }
}

function step4(): void {
  const c = at(len - 1);
  if (c == 0x6c) {
    rule('al', '', 1);
  } else if (c == 0x65) {
    if (rule('ance', '', 1) || rule('ence', '', 1) || rule('able', '', 1) || rule('ible', '', 1)) return;
    if (!rule('ate', '', 1) && !rule('ive', '', 1)) rule('ize', '', 1);
  } else if (c == 0x72) {
    rule('er', '', 1);
  } else if (c == 0x63) {
    rule('ic', '', 1);
  } else if (c == 0x74) {
    if (!rule('ant', '', 1) && !rule('ement', '', 1) && !rule('ment', '', 1)) rule('ent', '', 1);
  } else if (c == 0x6e) {
    if (ends('ion') && len >= 4 && measure(len - 3) > 1 && (at(len - 4) == 0x73 || at(len - 4) == 0x74)) len -= 3;
  } else if (c == 0x75) {
    rule('ou', '', 1);
  } else if (c == 0x6d) {
    rule('ism', '', 1);
  } else if (c == 0x69) {
    rule('iti', '', 1);
  } else if (c == 0x73) {
    rule('ous', '', 1);
  }
}

function step5(): void {
  if (at(len - 1) == 0x65) {
    const m = measure(len - 1);
    if (m > 1 || (m == 1 && !endsCvc(len - 1))) len -= 1;
  }
  if (ends('ll') && measure(len - 1) > 1) len -= 1;
}

/** Whether the word is `s`. */
function isWord(s: string): bool {
  return s.length == len && ends(s);
}

/** The word replaced by `stem`, and true. */
function becomes(stem: string): bool {
  len = 0;
  replaceEnd(0, stem);
  return true;
}

/** When the word is one of NLTK_EXTENSIONS' irregular forms: its stem in place of it, and true. */
function irregular(): bool {
  const c = at(len - 1);
  if (c == 0x79) return isWord('sky') && becomes('sky');
  if (c == 0x73) {
    if (isWord('skies')) return becomes('sky');
    if (isWord('news')) return becomes('news');
    if (isWord('innings')) return becomes('inning');
    if (isWord('outings')) return becomes('outing');
    return isWord('cannings') && becomes('canning');
  }
  if (c == 0x67) {
    if (isWord('dying')) return becomes('die');
    if (isWord('lying')) return becomes('lie');
    if (isWord('tying')) return becomes('tie');
    return isWord('inning') || isWord('outing') || isWord('canning');
  }
  if (c == 0x65) return isWord('howe');
  if (c == 0x64) return isWord('proceed') || isWord('exceed') || isWord('succeed');
  return false;
}

/** The word before stemming (as {@link WORD} holds it), to find what the stem keeps of it. */
const LOWERED = memory.data(512, 16);

/** Flags of a token (see {@link meteorWordFacts}). */
const TAKEN: u8 = 1;
const MAY_HAVE_SYNONYMS: u8 = 8;

/**
 * The word of token `[p, p + n)` (WTF-8) into {@link WORD} as Porter reads it: its length in characters in
 * {@link len}; returns 0 when some character is not one this kernel lowercases, else {@link TAKEN}.
 */
function lowered(p: usize, n: usize): u8 {
  let m: i32 = 0;
  let i: usize = 0;
  while (i < n) {
    if (m == LONGEST) return 0;
    const c = u32(load<u8>(p + i));
    if (c < 0x80) {
      const lower = c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
      store<u16>(WORD + (usize(m++) << 1), u16(lower));
      i++;
    } else if ((c & 0xe0) == 0xc0 && i + 1 < n) {
      const cp = ((c & 0x1f) << 6) | (u32(load<u8>(p + i + 1)) & 0x3f);
      if (cp < 0x80 || cp > 0xff) return 0;
      // Latin-1: À-Þ but × have a lowercase 0x20 above; the rest of the block is its own lowercase.
      const lower = cp >= 0xc0 && cp <= 0xde && cp != 0xd7 ? cp + 0x20 : cp;
      store<u16>(WORD + (usize(m++) << 1), u16(lower));
      i += 2;
    } else if ((c & 0xf0) == 0xe0 && i + 2 < n) {
      const cp = ((c & 0x0f) << 12) | ((u32(load<u8>(p + i + 1)) & 0x3f) << 6) | (u32(load<u8>(p + i + 2)) & 0x3f);
      if (cp < 0x2000 || cp > 0x206f) return 0;
      store<u16>(WORD + (usize(m++) << 1), u16(cp));
      i += 3;
    } else return 0;
  }
  len = m;
  return TAKEN;
}

// The synonym filter of ../src/metrics/meteor/wordnet.ts (`mayHaveSynonyms`), over the stem in WORD: false when no
// form NLTK's morphy could try for it is in WordNet's index or its exception lists. The caller gives the filter
// (`anyLemma`: per lemma hash three bits in one 32-bit word); the rules are morphy's suffix substitutions of the four
// parts of speech, grouped by the last character of the suffix replaced.

let filterAt: usize = 0;
let filterMask: u32 = 0;

/** Per length k, the FNV-1a hash of the stem's first k characters. */
const PREFIX = memory.data(4 * 256, 16);
/** Per length k, bit 1: the prefix of k characters was reached; bit 2: that prefix and an `s` was. */
const REACHED = memory.data(256, 16);
/** The tails of the forms being visited, eight bytes per level of the search. */
const TAIL_BYTES: i32 = 8;
const TAILS = memory.data(TAIL_BYTES * 520, 16);

const FNV_OFFSET: u32 = 0x811c9dc5;
const FNV_PRIME: u32 = 0x01000193;

// @ts-ignore: decorator
@inline
function mayHold(h: u32): bool {
  const g = h * 0x9e3779b1;
  const bits = (u32(1) << (g >>> 27)) | (u32(1) << ((g >>> 22) & 31)) | (u32(1) << ((g >>> 17) & 31));
  return (load<u32>(filterAt + (usize(h & filterMask) << 2)) & bits) == bits;
}

// Morphy's substitutions by the last character of the suffix replaced: suffixes, and their replacements at the same
// index (nouns', verbs', adjectives' in that order, as wordnet.ts lists them).
const S_OLD: StaticArray<string> = ['s', 'ses', 'ves', 'xes', 'zes', 'ches', 'shes', 'ies', 's', 'ies', 'es', 'es'];
const S_NEW: StaticArray<string> = ['', 's', 'f', 'x', 'z', 'ch', 'sh', 'y', '', 'y', 'e', ''];
const N_OLD: StaticArray<string> = ['men'];
const N_NEW: StaticArray<string> = ['man'];
const D_OLD: StaticArray<string> = ['ed', 'ed'];
const D_NEW: StaticArray<string> = ['e', ''];
const G_OLD: StaticArray<string> = ['ing', 'ing'];
const G_NEW: StaticArray<string> = ['e', ''];
const R_OLD: StaticArray<string> = ['er', 'er'];
const R_NEW: StaticArray<string> = ['', 'e'];
const T_OLD: StaticArray<string> = ['est', 'est'];
const T_NEW: StaticArray<string> = ['', 'e'];

/**
 * Whether a rule applied to the form `WORD[0, k) + tail` (`tailLen` bytes at `tail`, already tested), or again to
 * what it gives, reaches a form the filter does not reject.
 */
function reaches(k: i32, tail: usize, tailLen: i32, depth: i32): bool {
  const length = k + tailLen;
  const last = length == 0 ? 0 : tailLen > 0 ? u32(load<u8>(tail + usize(tailLen - 1))) : at(k - 1);
  let olds: StaticArray<string>;
  let news: StaticArray<string>;
  if (last == 0x73) {
    olds = S_OLD;
    news = S_NEW;
  } else if (last == 0x6e) {
    olds = N_OLD;
    news = N_NEW;
  } else if (last == 0x64) {
    olds = D_OLD;
    news = D_NEW;
  } else if (last == 0x67) {
    olds = G_OLD;
    news = G_NEW;
  } else if (last == 0x72) {
    olds = R_OLD;
    news = R_NEW;
  } else if (last == 0x74) {
    olds = T_OLD;
    news = T_NEW;
  } else return false;
  const next = TAILS + usize((depth + 1) * TAIL_BYTES);
  for (let r = 0; r < olds.length; r++) {
    const old = unchecked(olds[r]);
    const rep = unchecked(news[r]);
    const cut = length - old.length;
    if (cut < 0) continue;
    let j = old.length - 1;
    for (let i = length - 1; j >= 0; i--, j--) {
      const c = i >= k ? u32(load<u8>(tail + usize(i - k))) : at(i);
      if (c != unit(old, j)) break;
    }
    if (j >= 0) continue;
    // The form reached: WORD[0, to) and `rest` (the part of the tail the suffix left, then the replacement).
    let to = cut;
    let restLen: i32 = 0;
    if (cut > k) {
      to = k;
      for (let b = 0; b < cut - k; b++) store<u8>(next + usize(restLen++), load<u8>(tail + usize(b)));
    }
    for (let b = 0; b < rep.length; b++) store<u8>(next + usize(restLen++), u8(unit(rep, b)));
    // A bare prefix or a prefix and `s` in its canonical form: the longest prefix of the stem it starts with.
    if (restLen == 1 && load<u8>(next) == 0x73 && to < len && at(to) == 0x73) {
      to++;
      restLen = 0;
    }
    const mark: u8 = restLen == 0 ? 1 : restLen == 1 && load<u8>(next) == 0x73 ? 2 : 0;
    if (mark != 0) {
      const seen = load<u8>(REACHED + usize(to));
      if ((seen & mark) != 0) continue;
      store<u8>(REACHED + usize(to), seen | mark);
    }
    let g = load<u32>(PREFIX + (usize(to) << 2));
    for (let b = 0; b < restLen; b++) g = (g ^ u32(load<u8>(next + usize(b)))) * FNV_PRIME;
    if (mayHold(g)) return true;
    if (restLen > TAIL_BYTES - 4 || depth + 2 >= 520) return true;
    if (reaches(to, next, restLen, depth + 1)) return true;
  }
  return false;
}

/** `mayHaveSynonyms` of the stem in WORD. */
function mayHaveSynonyms(): bool {
  const n = len;
  let h = FNV_OFFSET;
  store<u32>(PREFIX, h);
  for (let k = 0; k < n; k++) {
    const c = at(k);
    // a-z, 0-9, ', -, ., /, _: the alphabet of every index lemma and exception form.
    if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x2d && c <= 0x39) || c == 0x27 || c == 0x5f)) return false;
    h = (h ^ c) * FNV_PRIME;
    store<u32>(PREFIX + (usize(k + 1) << 2), h);
  }
  if (mayHold(h)) return true;
  memory.fill(REACHED, 0, usize(n + 1));
  store<u8>(REACHED + usize(n), 1);
  return reaches(n, TAILS, 0, 0);
}

/**
 * The words and stems of tokens `first .. count` (token `t` the bytes `arena[keyStarts[t] .. keyStarts[t + 1])`).
 * Per token, at `k = t - first`: `flags[k]` 0 when the token is left to the caller; else {@link TAKEN}, with (given a
 * filter) {@link MAY_HAVE_SYNONYMS} unless the stem surely has no synonym. The word's UTF-16 units are
 * `units[starts[2k] .. starts[2k + 1])` and the stem's, when it differs from the word,
 * `units[starts[2k + 1] .. starts[2k + 2])`, else none (u16 units, u32 offsets in units; `starts[0]` = 0; a token left
 * has both empty). `units` needs two units per byte
 * of the tokens.
 */
export function meteorWordFacts(
  arena: usize, keyStarts: usize, first: i32, count: i32, flags: usize, units: usize, starts: usize,
  filter: usize, filterWords: u32,
): void {
  filterAt = filter;
  filterMask = filterWords - 1;
  let o: u32 = 0;
  store<u32>(starts, 0);
  for (let t = first; t < count; t++) {
    const k = usize(t - first);
    const from = load<u32>(keyStarts + (usize(t) << 2));
    const to = load<u32>(keyStarts + (usize(t + 1) << 2));
    let f = lowered(arena + usize(from), usize(to - from));
    let wordEnd = o;
    if (f != 0) {
      const n = len;
      memory.copy(LOWERED, WORD, usize(n) << 1);
      memory.copy(units + (usize(o) << 1), WORD, usize(n) << 1);
      o += u32(n);
      wordEnd = o;
      // Words of one or two characters are left as they are; the irregular forms have three to eight.
      if (n > 2 && !(n <= 8 && irregular())) {
        step1a();
        step1b();
        step1c();
        step2();
        step3();
        step4();
        step5();
      }
      let same = len == n;
      for (let j = 0; j < len && same; j++) same = at(j) == u32(load<u16>(LOWERED + (usize(j) << 1)));
      if (filterAt != 0 && mayHaveSynonyms()) f |= MAY_HAVE_SYNONYMS;
      if (!same) {
        memory.copy(units + (usize(o) << 1), WORD, usize(len) << 1);
        o += u32(len);
      }
    }
    store<u8>(flags + k, f);
    store<u32>(starts + ((k * 2 + 1) << 2), wordEnd);
    store<u32>(starts + ((k * 2 + 2) << 2), o);
  }
}

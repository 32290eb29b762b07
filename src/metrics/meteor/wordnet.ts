/**
 * The WordNet 3.0 synonyms NLTK 3.8's METEOR matches with: `wordnet.synsets(word)` over noun, verb, adjective and
 * adverb, each part of speech reached through NLTK's `morphy` (the word's exception list when it has one, else the
 * word and its suffix substitutions, applied again and again until some form is in the index), and of those synsets
 * the lemma names without an underscore, plus the word itself. The data is the generated table
 * resources/wordnet-3.0-synonyms.json (scripts/gen-wordnet-synonyms.py says where it comes from and what it keeps,
 * resources/WORDNET-3.0.md its licence). Its 3 MB are read on the first METEOR line, not when the metric catalog loads
 * (every `palette` command would pay that at start-up): an adapter installs how to read it ({@link setWordnetLoader};
 * the Node adapter reads the file beside the package). Nothing is decoded up front: a look-up searches the stored
 * index where it lies and splits out only the synsets it finds (decoding all of it cost a short run more than the
 * scoring).
 */
import { PaletteError } from '../../errors.js';

/** NLTK's `POS_LIST` order; the union does not depend on it. */
const POS_LIST = ['n', 'v', 'a', 'r'] as const;
type Pos = (typeof POS_LIST)[number];

/** NLTK's `MORPHOLOGICAL_SUBSTITUTIONS`, in its order. */
const SUBSTITUTIONS: Record<Pos, readonly (readonly [string, string])[]> = {
  n: [['s', ''], ['ses', 's'], ['ves', 'f'], ['xes', 'x'], ['zes', 'z'], ['ches', 'ch'], ['shes', 'sh'], ['men', 'man'], ['ies', 'y']],
  v: [['s', ''], ['ies', 'y'], ['es', 'e'], ['es', ''], ['ed', 'e'], ['ed', ''], ['ing', 'e'], ['ing', '']],
  a: [['er', ''], ['est', ''], ['er', 'e'], ['est', 'e']],
  r: [],
};

/**
 * Per part of speech, its substitutions grouped by the last character of the suffix replaced, each group in NLTK's
 * order: a form only ends with the suffixes of its own last character's group (all lowercase ASCII), so a round
 * tries those alone and gives the same forms in the same order.
 */
type SubstitutionTable = readonly (readonly (readonly [string, string])[] | undefined)[];

function byLastCharacter(subs: readonly (readonly [string, string])[]): SubstitutionTable {
  const groups: (readonly [string, string])[][] = [];
  for (const sub of subs) (groups[sub[0].charCodeAt(sub[0].length - 1)] ??= []).push(sub);
  return Array.from({ length: 128 }, (_, c) => groups[c]);
}

const SUBSTITUTIONS_BY_LAST: Record<Pos, SubstitutionTable> = {
  n: byLastCharacter(SUBSTITUTIONS.n),
  v: byLastCharacter(SUBSTITUTIONS.v),
  a: byLastCharacter(SUBSTITUTIONS.a),
  r: byLastCharacter(SUBSTITUTIONS.r),
};

/** A character no index lemma or exception form has (the alphabet scripts/gen-wordnet-synonyms.py checks). */
const OUTSIDE_ALPHABET = /[^a-z0-9'\-./_]/;

/** Codes of {@link prefixCode} below this; a string with a greater first character is in no index. */
const PREFIX_CODES = 128 * 128;

/**
 * A string's first two UTF-16 units as one number, in string order (a missing second character as 0, which sorts
 * first); {@link PREFIX_CODES} or more when the first is not ASCII.
 */
function prefixCode(text: string): number {
  const first = text.length === 0 ? 0 : text.charCodeAt(0);
  return first >= 128 ? PREFIX_CODES : first * 128 + (text.length > 1 ? Math.min(text.charCodeAt(1), 127) : 0);
}

/** FNV-1a over UTF-16 units: the lemma filter's hash. */
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** The three bits a hash sets in its filter word (taken from bits of the hash other than those choosing the word). */
function filterBits(h: number): number {
  const g = Math.imul(h, 0x9e3779b1);
  return (1 << (g >>> 27)) | (1 << ((g >>> 22) & 31)) | (1 << ((g >>> 17) & 31));
}

/** Whether a lemma filter may hold the lemma of hash `h` (false: no index it was built from holds it). */
function mayHold(filter: Int32Array, h: number): boolean {
  const bits = filterBits(h);
  return (filter[h & (filter.length - 1)] & bits) === bits;
}

/** Words of a lemma filter for `lemmas` lemmas: a power of two, at least 16 bits per lemma. */
function filterWords(lemmas: number): number {
  let words = 64;
  while (32 * words < 16 * lemmas) words *= 2;
  return words;
}

/** The lemma filter's hash of `lemma` (FNV-1a over its UTF-16 units). */
function lemmaHash(lemma: string): number {
  let h = FNV_OFFSET;
  for (let k = 0; k < lemma.length; k++) h = Math.imul(h ^ lemma.charCodeAt(k), FNV_PRIME);
  return h;
}

/**
 * The lemma hashed last and its hash: a word's synonyms search the four parts of speech's indexes for it in turn
 * (the same hash for each filter).
 */
let hashedLemma = '';
let hashedHash = FNV_OFFSET;

/** One part of speech's index, searched where it is stored: a binary search over the blocks, then one block read. */
class PosIndex {
  /** The first lemma of each block (whole: front coding restarts at each block). */
  private readonly heads: string[];

  /**
   * By the first two characters of a string (`prefixCode`): how many heads sort before any string that starts with
   * them. A binary search then only spans the heads that share a lemma's first two characters.
   */
  private readonly before: Int32Array;

  /**
   * A Bloom filter of the lemmas (built on the first look-up): one 32-bit word per lemma's hash, three bits set in
   * it. A form the filter rejects is in no block, so the search is skipped: most forms morphy tries are not lemmas
   * (a text in another language than English, suffix rules over every word), and the filter answers those with
   * one word read instead of a binary search and a block walk.
   */
  private filter: Int32Array | undefined;

  constructor(private readonly blocks: readonly string[]) {
    this.heads = blocks.map((b) => b.slice(1, b.indexOf(':')));
    this.before = new Int32Array(PREFIX_CODES + 1);
    let k = 0;
    for (let code = 0; code <= PREFIX_CODES; code++) {
      while (k < this.heads.length && prefixCode(this.heads[k]) < code) k++;
      this.before[code] = k;
    }
  }

  /** Number of lemmas in the blocks. */
  lemmaCount(): number {
    let lemmas = this.blocks.length;
    for (const block of this.blocks) for (let at = block.indexOf(' '); at >= 0; at = block.indexOf(' ', at + 1)) lemmas++;
    return lemmas;
  }

  /**
   * Builds {@link filter} from the blocks, each lemma hashed from the hash of the prefix it shares with the previous
   * one; with `also` (a filter of a power of two words), each lemma is set in it too.
   */
  buildFilter(also?: Int32Array): Int32Array {
    const words = filterWords(this.lemmaCount());
    const filter = new Int32Array(words);
    const alsoMask = also === undefined ? 0 : also.length - 1;
    // prefixHash[k]: the hash of the current lemma's first k characters.
    let prefixHash = new Int32Array(64);
    prefixHash[0] = FNV_OFFSET;
    for (const block of this.blocks) {
      let at = 0;
      for (;;) {
        const digit = block.charCodeAt(at);
        let length = digit <= 57 ? digit - 48 : digit - 87;
        const colon = block.indexOf(':', at + 1);
        let h = prefixHash[length];
        for (let k = at + 1; k < colon; k++) {
          h = Math.imul(h ^ block.charCodeAt(k), FNV_PRIME);
          if (++length >= prefixHash.length) {
            const grown = new Int32Array(2 * prefixHash.length);
            grown.set(prefixHash);
            prefixHash = grown;
          }
          prefixHash[length] = h;
        }
        filter[h & (words - 1)] |= filterBits(h);
        if (also !== undefined) also[h & alsoMask] |= filterBits(h);
        const next = block.indexOf(' ', colon);
        if (next < 0) break;
        at = next + 1;
      }
    }
    return filter;
  }

  /** The stored synset ids of `lemma` (base 36, `.`-separated), or undefined when the index lacks it. */
  find(lemma: string): string | undefined {
    const filter = this.lemmaFilter();
    let h = hashedHash;
    if (lemma !== hashedLemma) {
      h = lemmaHash(lemma);
      hashedLemma = lemma;
      hashedHash = h;
    }
    if (!mayHold(filter, h)) return undefined;
    // The last block whose first lemma is not after `lemma` (string order is the generator's sort order).
    // Heads with smaller first two characters sort before `lemma`, heads with greater ones after it.
    const heads = this.heads;
    const code = prefixCode(lemma);
    if (code >= PREFIX_CODES) return undefined;
    let lo = this.before[code] - 1;
    let hi = this.before[code + 1] - 1;
    if (hi < 0) return undefined;
    if (lo < 0) {
      if (lemma < heads[0]) return undefined;
      lo = 0;
    }
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (heads[mid] <= lemma) lo = mid;
      else hi = mid - 1;
    }
    // Walk the block's entries without building them: `same` is how many leading characters the entry read last (which
    // sorts before `lemma`) shares with `lemma`. An entry keeping more of that one than `same` still differs from
    // `lemma` where it did, so sorts before it too; one keeping fewer differs from it at its own first character, which
    // sorts after: the search stops.
    const block = this.blocks[lo];
    const n = lemma.length;
    let same = 0;
    let at = 0;
    for (;;) {
      // One base-36 digit; the generator caps it at 35, so 35 means "at least 35".
      const digit = block.charCodeAt(at);
      const keep = digit <= 57 ? digit - 48 : digit - 87;
      const colon = block.indexOf(':', at + 1);
      if (keep === same || (keep === 35 && same > 35)) {
        same = keep;
        let k = at + 1;
        while (k < colon && same < n && block.charCodeAt(k) === lemma.charCodeAt(same)) {
          k++;
          same++;
        }
        if (k === colon && same === n) {
          const end = block.indexOf(' ', colon);
          return block.slice(colon + 1, end < 0 ? block.length : end);
        }
        // The entry sorts after `lemma` (it goes on where `lemma` ends, or has a greater character here).
        if (k < colon && (same === n || block.charCodeAt(k) > lemma.charCodeAt(same))) return undefined;
      } else if (keep < same) return undefined;
      const next = block.indexOf(' ', colon);
      if (next < 0) return undefined;
      at = next + 1;
    }
  }

  /** {@link filter}, built when first asked for. */
  lemmaFilter(): Int32Array {
    return (this.filter ??= this.buildFilter());
  }

  /** Sets {@link filter} (one {@link buildFilter} gave). */
  setFilter(filter: Int32Array): void {
    this.filter = filter;
  }

  has(lemma: string): boolean {
    return this.find(lemma) !== undefined;
  }
}

interface Tables {
  /** Per part of speech: the index lemmas and their synset ids (possibly none left after the names were filtered). */
  readonly index: Record<Pos, PosIndex>;
  /** Per part of speech: exception form → base forms. */
  readonly exceptions: Record<Pos, Map<string, readonly string[]>>;
  /** The exception forms of every part of speech: most forms are none, and one look-up says so for all four. */
  readonly exceptionForms: Set<string>;
  /** The lemma names of synset `id`. */
  synset(id: number): readonly string[];
  /**
   * A filter of the lemmas of all four indexes and of the exception forms (as each index's own: one word per hash,
   * three bits), built with the indexes' filters on first need: a form it rejects is in no index and no exception.
   */
  anyLemma?: Int32Array;
}

/**
 * The generated table as stored: `synsets` in id order, in blocks of `synset_block`, `;`-separated within a block,
 * each synset its lemma names joined by `,`; `index` per part of speech (`n`, `v`, `a`, `r`), the lemmas sorted, in
 * blocks of space-separated entries, each entry one base-36 digit (characters shared with the previous lemma of the
 * block, so 0 for the first), the rest of the lemma, `:` and its synset ids (base 36, `.`); `exceptions` per part of
 * speech, space-separated `form:base,base…`. Lookups decode only the blocks they reach: the whole table is 155,287
 * lemmas and 77,636 synsets, of which a corpus touches a few thousand.
 */
export interface WordnetData {
  readonly synset_block: number;
  readonly synsets: readonly string[];
  readonly index: Readonly<Record<string, readonly string[]>>;
  readonly exceptions: Readonly<Record<string, readonly string[]>>;
}

let loader: (() => WordnetData) | undefined;
let tables: Tables | undefined;

/** Installs how the WordNet table is read (called once by an adapter; the table is read on first use). */
export function setWordnetLoader(load: () => WordnetData): void {
  loader = load;
  tables = undefined;
}

function decode(): Tables {
  if (loader === undefined) {
    throw new PaletteError(
      'E_BAD_OPTION',
      "METEOR needs its WordNet table: call setWordnetLoader() with a reader of resources/wordnet-3.0-synonyms.json " +
        'first (the Node entry, palette-mt, installs one itself)',
    );
  }
  const { synset_block: perBlock, synsets: storedSynsets, index: storedIndex, exceptions: storedExceptions } = loader();
  const index = {} as Record<Pos, PosIndex>;
  const exceptions = {} as Record<Pos, Map<string, readonly string[]>>;
  const exceptionForms = new Set<string>();
  for (const pos of POS_LIST) {
    index[pos] = new PosIndex(storedIndex[pos]);
    const exc = new Map<string, readonly string[]>();
    for (const chunk of storedExceptions[pos]) {
      for (const entry of chunk.split(' ')) {
        const colon = entry.indexOf(':');
        exc.set(entry.slice(0, colon), colon + 1 === entry.length ? [] : entry.slice(colon + 1).split(','));
        exceptionForms.add(entry.slice(0, colon));
      }
    }
    exceptions[pos] = exc;
  }
  // A synset's names are split out when it is first asked for; its block, when one of its synsets is. Both arrays
  // have every entry from the start: an array first written at scattered indexes (synset ids are) is kept as a hash
  // table, whose reads cost several times an indexed one.
  const synsetBlocks: (string[] | undefined)[] = new Array(storedSynsets.length).fill(undefined);
  const names: (readonly string[] | undefined)[] = new Array(storedSynsets.length * perBlock).fill(undefined);
  const synset = (id: number): readonly string[] => {
    let out = names[id];
    if (out === undefined) {
      const b = Math.floor(id / perBlock);
      const block = (synsetBlocks[b] ??= storedSynsets[b].split(';'));
      names[id] = out = block[id - b * perBlock].split(',');
    }
    return out;
  };
  return { index, exceptions, exceptionForms, synset };
}

/** The decoded tables (decoded on the first call). */
function wordnet(): Tables {
  return (tables ??= decode());
}

/** {@link Tables.anyLemma}, built (with each index's own filter) when first asked for. */
function anyLemmaFilter(tables: Tables): Int32Array {
  if (tables.anyLemma === undefined) {
    let lemmas = tables.exceptionForms.size;
    for (const pos of POS_LIST) lemmas += tables.index[pos].lemmaCount();
    const any = new Int32Array(filterWords(lemmas));
    for (const pos of POS_LIST) tables.index[pos].setFilter(tables.index[pos].buildFilter(any));
    // The exception forms too: a word that is one then passes the filter's first test, so that mayHaveSynonyms need
    // not also look it up in the set (a string hash and a probe for every word, where the filter reads one word).
    for (const form of tables.exceptionForms) {
      const h = lemmaHash(form);
      any[h & (any.length - 1)] |= filterBits(h);
    }
    tables.anyLemma = any;
  }
  return tables.anyLemma;
}

/** Every suffix rule of the four parts of speech, grouped by the last character of the suffix replaced. */
const ALL_SUBSTITUTIONS_BY_LAST = byLastCharacter(POS_LIST.flatMap((pos) => SUBSTITUTIONS[pos]));

/** `prefixHashes[k]`: the lemma hash of the first k characters of the word {@link hashPrefixes} read last. */
let prefixHashes = new Int32Array(64);

/** Per length k, bit 1: the prefix of k characters was reached; bit 2: that prefix and an `s` was. */
let reached = new Uint8Array(64);

/**
 * Whether `word` is written in the index's alphabet ({@link inAlphabet}); when it is, its prefixes' lemma hashes are
 * left in {@link prefixHashes} and its own hash is the one {@link PosIndex.find} reuses.
 */
function hashPrefixes(word: string): boolean {
  const n = word.length;
  if (n >= prefixHashes.length) {
    prefixHashes = new Int32Array(2 * n + 2);
    reached = new Uint8Array(2 * n + 2);
  }
  const hashes = prefixHashes;
  let h = FNV_OFFSET;
  hashes[0] = h;
  for (let k = 0; k < n; k++) {
    const c = word.charCodeAt(k);
    // a-z, 0-9, ', -, ., /, _ (OUTSIDE_ALPHABET's complement).
    const inside = (c >= 0x61 && c <= 0x7a) || (c >= 0x2d && c <= 0x39) || c === 0x27 || c === 0x5f;
    if (!inside) return false;
    h = Math.imul(h ^ c, FNV_PRIME);
    hashes[k + 1] = h;
  }
  hashedLemma = word;
  hashedHash = h;
  return true;
}

/**
 * Whether some index may hold a form that NLTK's `_morphy` tries for `word` in some part of speech, or `word` may be
 * an exception form ({@link hashPrefixes} called on it last): false when the filter rejects `word` and every form
 * the suffix rules of any part of speech reach from it, applied again and again. `_morphy` tries `word` and forms of
 * the rules of its part of speech, again and again until it finds one (a subset of those), so then it finds nothing
 * in any part of speech. Most words of a text (in another language than English, or inflected) are none, and this
 * answers them with a hash and a filter word or two, where the search builds lists of forms per part of speech.
 *
 * A form the rules reach is a prefix of `word` and a replacement, so it is hashed from the prefix's hash, without
 * being built. Only a bare prefix or a prefix and `s` leads on to more rules (every other replacement ends in a
 * character no suffix ends with, or is `man`, which does not end with `men`): each of those is visited once, so a
 * run of `s`es is not walked in exponentially many orders.
 */
function mayHaveIndexedForm(tables: Tables, word: string): boolean {
  return mayReach(anyLemmaFilter(tables), ALL_SUBSTITUTIONS_BY_LAST, word);
}

/**
 * Whether `filter` may hold `word` ({@link hashPrefixes} called on it last) or a form the rules of `byLast` reach
 * from it, applied again and again.
 */
function mayReach(filter: Int32Array, byLast: SubstitutionTable, word: string): boolean {
  const n = word.length;
  const last = n === 0 ? 0 : word.charCodeAt(n - 1);
  const h = prefixHashes[n];
  if (mayHold(filter, h)) return true;
  if (last >= 128 || byLast[last] === undefined) return false;
  reached.fill(0, 0, n + 1);
  reached[n] = 1;
  return reachesUnrejected(filter, byLast, word, n, '');
}

/**
 * Whether a rule applied to the form `word[0, k) + tail` (already checked against `filter`), or again to what it
 * gives, reaches a form `filter` does not reject.
 */
function reachesUnrejected(
  filter: Int32Array,
  byLast: SubstitutionTable,
  word: string,
  k: number,
  tail: string,
): boolean {
  const length = k + tail.length;
  const last = length === 0 ? 0 : tail.length > 0 ? tail.charCodeAt(tail.length - 1) : word.charCodeAt(k - 1);
  const subs = last >= 128 ? undefined : byLast[last];
  if (subs === undefined) return false;
  for (const [old, rep] of subs) {
    const cut = length - old.length;
    if (cut < 0) continue;
    // Does the form end with `old`? Compare from its end: the tail's characters, then the prefix's.
    let j = old.length - 1;
    for (let i = length - 1; j >= 0; i--, j--) {
      const c = i >= k ? tail.charCodeAt(i - k) : word.charCodeAt(i);
      if (c !== old.charCodeAt(j)) break;
    }
    if (j >= 0) continue;
    let at = cut;
    let rest = rep;
    if (cut > k) {
      at = k;
      rest = tail.slice(0, cut - k) + rep;
    }
    // A bare prefix or a prefix and `s` in its canonical form: the longest prefix of `word` it starts with.
    if (rest === 's' && at < word.length && word.charCodeAt(at) === 0x73) {
      at++;
      rest = '';
    }
    const mark = rest === '' ? 1 : rest === 's' ? 2 : 0;
    if (mark !== 0) {
      if ((reached[at] & mark) !== 0) continue;
      reached[at] |= mark;
    }
    let g = prefixHashes[at];
    for (let r = 0; r < rest.length; r++) g = Math.imul(g ^ rest.charCodeAt(r), FNV_PRIME);
    if (mayHold(filter, g)) return true;
    if (reachesUnrejected(filter, byLast, word, at, rest)) return true;
  }
  return false;
}

/** Adds `form` to `found` (with its stored synset ids) when the index has it and `found` does not yet. */
function keepIndexed(form: string, index: PosIndex, found: string[], ids: string[]): void {
  if (found.includes(form)) return;
  const stored = index.find(form);
  if (stored === undefined) return;
  found.push(form);
  ids.push(stored);
}

/** One round of NLTK's suffix rules over `forms`, each new form once. */
function applyRules(forms: readonly string[], byLast: SubstitutionTable): string[] {
  const out: string[] = [];
  for (const f of forms) {
    const subs = f.length === 0 ? undefined : byLast[f.charCodeAt(f.length - 1)];
    if (subs === undefined) continue;
    for (const [old, rep] of subs) {
      if (!f.endsWith(old)) continue;
      const g = f.slice(0, f.length - old.length) + rep;
      if (!out.includes(g)) out.push(g);
    }
  }
  return out;
}

/**
 * NLTK's `_morphy(form, pos)` into `found` (the base forms of `form` that the index has for `pos`) and `ids` (the
 * synset ids the index stores for each). The rules give each form once per round: NLTK's lists may repeat a form,
 * which changes neither what is found nor when the search stops. `exceptional`: whether `form` is an exception form
 * of any part of speech, when the caller knows.
 */
function morphyInto(
  tables: Tables,
  form: string,
  pos: Pos,
  found: string[],
  ids: string[],
  exceptional = tables.exceptionForms.has(form),
): void {
  const inIndex = tables.index[pos];
  const exc = exceptional ? tables.exceptions[pos].get(form) : undefined;
  if (exc !== undefined) {
    keepIndexed(form, inIndex, found, ids);
    for (const base of exc) keepIndexed(base, inIndex, found, ids);
    return;
  }
  const subs = SUBSTITUTIONS_BY_LAST[pos];
  let forms = applyRules([form], subs);
  keepIndexed(form, inIndex, found, ids);
  for (const f of forms) keepIndexed(f, inIndex, found, ids);
  while (found.length === 0 && forms.length > 0) {
    forms = applyRules(forms, subs);
    for (const f of forms) keepIndexed(f, inIndex, found, ids);
  }
}

/** Whether the index of `pos` has `lemma` (NLTK's `pos in _lemma_pos_offset_map[lemma]`). */
export function wordnetIndexHas(lemma: string, pos: Pos): boolean {
  return wordnet().index[pos].has(lemma);
}

/** NLTK's `_morphy(form, pos)`: the base forms of `form` that the index has for `pos`. */
export function morphy(form: string, pos: Pos): string[] {
  const found: string[] = [];
  if (inAlphabet(form)) morphyInto(wordnet(), form, pos, found, []);
  return found;
}

/**
 * Whether `form` could lead to an index lemma: every index lemma and exception form is written in one alphabet (the
 * generator checks it), and the suffix rules only strip letters, so a form with another character (an umlaut, a
 * quotation mark…) leads nowhere.
 */
export function inAlphabet(form: string): boolean {
  return !OUTSIDE_ALPHABET.test(form);
}

/**
 * The filter {@link mayHaveSynonyms} reads (reading the table on first use): a kernel that applies the same test to
 * words of its own gets a copy (../../wasm/words-13a.ts, ../../../assembly/meteor-words.ts).
 */
export function synonymFilter(): Int32Array {
  return anyLemmaFilter(wordnet());
}

/**
 * Whether `word` may have synonyms other than itself: false when {@link meteorSynonyms} is surely `{word}` (most
 * words), answered without building the set.
 */
export function mayHaveSynonyms(word: string): boolean {
  if (!hashPrefixes(word)) return false;
  const tables = wordnet();
  // The filter holds the exception forms as well (anyLemmaFilter).
  return mayHaveIndexedForm(tables, word);
}

/**
 * What METEOR's synonym stage matches `word` against: the lemma names (no underscore) of every synset of
 * `wordnet.synsets(word)`, and `word` itself. `word` comes lowercased (NLTK lowercases it again; a no-op then).
 */
export function meteorSynonyms(word: string): Set<string> {
  const out = new Set<string>();
  visitSynonyms(word, (name) => out.add(name));
  out.add(word);
  return out;
}

/**
 * Calls `visit` with each name of {@link meteorSynonyms}`(word)` but `word` itself, some possibly more than once (a
 * name of several synsets): for a caller that keeps its own ids of names and drops repeats by id, without the set.
 */
export function visitSynonyms(word: string, visit: (name: string) => void): void {
  // Most words are turned away here, an exception form never (the filter holds those too); a word that passes has its
  // prefixes hashed for the filters below.
  if (!mayHaveSynonyms(word)) return;
  const tables = wordnet();
  const { synset } = tables;
  // Whether `word` is an exception form of some part of speech: asked once, not per part of speech.
  const exceptional = tables.exceptionForms.has(word);
  const found: string[] = [];
  const ids: string[] = [];
  for (const pos of POS_LIST) {
    // `_morphy` finds nothing for `pos` when its index's filter rejects every form it could try (most parts of speech
    // of most words): that is answered from the word's prefix hashes, without building the forms.
    if (!exceptional && !mayReach(tables.index[pos].lemmaFilter(), SUBSTITUTIONS_BY_LAST[pos], word)) continue;
    found.length = 0;
    ids.length = 0;
    morphyInto(tables, word, pos, found, ids, exceptional);
    for (const stored of ids) {
      // Base-36 ids separated by `.`, read in place (none when empty).
      let id = 0;
      for (let k = 0; k <= stored.length; k++) {
        const c = k === stored.length ? 0x2e : stored.charCodeAt(k);
        if (c === 0x2e) {
          if (k > 0) for (const name of synset(id)) if (name !== word) visit(name);
          id = 0;
        } else id = id * 36 + (c <= 0x39 ? c - 0x30 : c - 0x57);
      }
    }
  }
}

/**
 * METEOR exactly as NLTK 3.8 computes it (`nltk.translate.meteor_score.meteor_score` with its defaults): words
 * lowercased (`str.lower`), then aligned in three stages, each over the words the previous ones left, each walking
 * the hypothesis from its last word back and pairing a word with the last remaining reference word that matches it:
 * exact matches, then matches of Porter stems (`PorterStemmer()`, NLTK_EXTENSIONS), then WordNet 3.0 synonyms — and,
 * as in NLTK, the synonym stage compares the *stems* the second stage left (./wordnet.ts: a stem's synonyms are the
 * lemma names without an underscore of the synsets `morphy` finds for it in any part of speech, and the stem itself).
 * With m matches, P = m / hypothesis words, R = m / reference words, Fmean = P·R / (α·P + (1 − α)·R), and with the
 * matches sorted by hypothesis position, chunks = runs consecutive on both sides: score = (1 − γ·(chunks / m)^β)·Fmean;
 * 0 where NLTK divides by zero (no match, or an empty side). Several references: the best score.
 *
 * NLTK has no corpus METEOR; the corpus score here is the mean of the line values (what the goldens call
 * `meteor_mean_over_segments`), so rows hold each line's value and a count.
 *
 * Tokens: see ../nltk-text/settings.ts (`-tok`, default 13a, then `str.split()`).
 *
 * Statistics row (width 2): `meteor, lines` (the line's METEOR, 1).
 */
import { badOption } from '../../errors.js';
import { pyLower } from '../../text/pystr.js';
import { nltkPorterStem } from '../../text/rouge/porter-nltk.js';
import { bleuScan, getTokenScanner, TokenBounds, type TokenScanner } from '../../text/tokenizers/index.js';
import { checkHypothesisCount, checkReferenceStreams, type Metric, type MetricScore, type PreparedReferences } from '../metric.js';
import { nltkTextDefaults, nltkTextSignatureFields, type NltkTextSettings } from '../nltk-text/settings.js';
import { formatSignature } from '../signature.js';
import { checkStatsWidth } from '../stats-width.js';
import { inAlphabet, meteorSynonyms } from './wordnet.js';

/** Options of {@link Meteor}; the defaults are NLTK's. */
export interface MeteorOptions extends NltkTextSettings {
  /** Weight of precision against recall in Fmean. @default 0.9 */
  readonly alpha?: number;
  /** Exponent of the fragmentation. @default 3 */
  readonly beta?: number;
  /** Weight of the fragmentation penalty. @default 0.5 */
  readonly gamma?: number;
}

/** Column names of a METEOR statistics row. */
export const METEOR_STATS_COLUMNS = ['meteor', 'lines'] as const;

/** References as ids: reference `j` of segment `i` is `words[i][j]`, its lowercased words as ids of the metric's own vocabulary. */
export interface MeteorReferences extends PreparedReferences {
  readonly words: readonly (readonly Int32Array[])[];
}

/**
 * Token text → word id, looked up from a span of the tokenized line without cutting it out: a line's tokens are
 * mostly ones seen before, and a slice per token plus a Map look-up was most of METEOR's time per line once every
 * word was known.
 */
class TokenTable {
  private keys: string[] = [];
  private values: number[] = [];
  /** Open addressing, linear probing: entry index + 1, 0 empty. */
  private slots = new Int32Array(1024);
  /** Per slot, the hash of its entry's token: a probe compares it before it reads the token. */
  private slotHashes = new Int32Array(1024);
  /** The hash of the span the last {@link get} looked up: a token is added right after its look-up missed. */
  private lastHash = 0;

  private static hash(text: string, start: number, end: number): number {
    let h = 0x811c9dc5;
    for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
    return h >>> 0;
  }

  /** The word id of `text[start, end)`, or -1. */
  get(text: string, start: number, end: number): number {
    const mask = this.slots.length - 1;
    const length = end - start;
    const hash = (this.lastHash = TokenTable.hash(text, start, end));
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot] - 1;
      if (entry < 0) return -1;
      if (this.slotHashes[slot] !== (hash | 0)) continue;
      const key = this.keys[entry];
      if (key.length !== length) continue;
      let i = 0;
      while (i < length && key.charCodeAt(i) === text.charCodeAt(start + i)) i++;
      if (i === length) return this.values[entry];
    }
  }

  /** Adds `token`, the span of the last {@link get}, which missed. */
  setMissed(token: string, value: number): void {
    if (2 * (this.keys.length + 1) > this.slots.length) {
      const grown = new Int32Array(2 * this.slots.length);
      const grownHashes = new Int32Array(grown.length);
      const mask = grown.length - 1;
      this.keys.forEach((key, entry) => {
        const hash = TokenTable.hash(key, 0, key.length);
        let slot = hash & mask;
        while (grown[slot] !== 0) slot = (slot + 1) & mask;
        grown[slot] = entry + 1;
        grownHashes[slot] = hash;
      });
      this.slots = grown;
      this.slotHashes = grownHashes;
    }
    const mask = this.slots.length - 1;
    let slot = this.lastHash & mask;
    while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
    this.slots[slot] = this.keys.length + 1;
    this.slotHashes[slot] = this.lastHash;
    this.keys.push(token);
    this.values.push(value);
  }
}

/** How many lines' word ids a METEOR object keeps (see `lineIds`): some tens of MB at most. */
const LINE_MEMO_LINES = 1 << 17;

/** The synonyms of a stem that has none but itself. */
const NO_SYNONYMS = new Int32Array(0);

/** NLTK's `_count_chunks` over the matches in hypothesis order (`refOf[i]` the reference position of hypothesis word i, or -1). */
function countChunks(refOf: Int32Array, n: number): number {
  let chunks = 0;
  let prevHyp = -2;
  let prevRef = -2;
  for (let i = 0; i < n; i++) {
    const r = refOf[i];
    if (r < 0) continue;
    if (!(i === prevHyp + 1 && r === prevRef + 1)) chunks++;
    prevHyp = i;
    prevRef = r;
  }
  return chunks;
}

/** NLTK 3.8 METEOR (see the file comment). */
export class Meteor implements Metric<MeteorReferences> {
  /** Metric id as given to `-m`. */
  readonly id = 'meteor';
  /** 2. */
  readonly statsWidth = 2;
  /** {@link METEOR_STATS_COLUMNS}. */
  readonly statsColumns: readonly string[] = METEOR_STATS_COLUMNS;
  /** α. */
  readonly alpha: number;
  /** β. */
  readonly beta: number;
  /** γ. */
  readonly gamma: number;
  /** The tokenizer before `str.split()`. */
  readonly tokenize: string;
  /** Whether lines are lowercased before tokenizing (the words are lowercased in any case). */
  readonly lowercase: boolean;
  private readonly scanner: TokenScanner;
  private readonly bounds = new TokenBounds();
  /** Token as written → the id of its lowercased word (tokens recur across lines, so each is read once). */
  private readonly tokens = new TokenTable();
  /**
   * Line as given → its word ids: n-best lists, MBR samples and systems scored again repeat whole lines, and a repeated
   * line then costs one look-up instead of its tokenization. Emptied when it reaches {@link LINE_MEMO_LINES} lines, so
   * that a long stream of distinct lines does not keep them all.
   */
  private lineIds = new Map<string, Int32Array>();
  /** Lowercased word → id. */
  private readonly wordIds = new Map<string, number>();
  private readonly wordNames: string[] = [];
  /**
   * Word id → the id of its Porter stem, or -1 until a stage needs it: a word every line matches exactly is never
   * stemmed. As long as the vocabulary at least (grown as words are added).
   */
  private wordStems = new Int32Array(256).fill(-1);
  /** Stem (and WordNet lemma name) → id: the synonym stage compares synonyms with stems. */
  private readonly stemIds = new Map<string, number>();
  /** Stem id → the stem ids of its synonyms other than itself (found on first need). */
  private readonly synonymIds: (Int32Array | undefined)[] = [];
  private readonly stemNames: string[] = [];
  private hypRefOf = new Int32Array(64);
  private refUsed = new Uint8Array(64);
  /** Per id, the last position of a reference holding it, or -1 (kept all -1 between calls). */
  private heads = new Int32Array(0);
  /** Per reference position, the previous position with the same id, or -1. */
  private refPrev = new Int32Array(64);
  /** The stems of the hypothesis and reference words a line's stem stage reaches (-1: matched before). */
  private hypStems = new Int32Array(64);
  private refStems = new Int32Array(64);

  /** @throws InputError `E_BAD_OPTION` for α outside [0, 1], a non-finite β or γ, or an unknown tokenizer. */
  constructor(options: MeteorOptions = {}) {
    this.alpha = options.alpha ?? 0.9;
    this.beta = options.beta ?? 3;
    this.gamma = options.gamma ?? 0.5;
    if (typeof this.alpha !== 'number' || !(this.alpha >= 0 && this.alpha <= 1)) throw badOption('METEOR alpha', 'a number in [0, 1]', this.alpha);
    if (typeof this.beta !== 'number' || !Number.isFinite(this.beta)) throw badOption('METEOR beta', 'a finite number', this.beta);
    if (typeof this.gamma !== 'number' || !Number.isFinite(this.gamma)) throw badOption('METEOR gamma', 'a finite number', this.gamma);
    ({ tokenize: this.tokenize, lowercase: this.lowercase } = nltkTextDefaults(options));
    this.scanner = getTokenScanner(this.tokenize);
  }

  /** `nrefs:1|tok:13a|alpha:0.9|beta:3|gamma:0.5|version:…` (case: METEOR lowercases). */
  signature(nRefs: number, short = false): string {
    return formatSignature(
      { nRefs },
      [
        ...nltkTextSignatureFields(this, false),
        { key: 'alpha', abbr: 'a', value: this.alpha },
        { key: 'beta', abbr: 'b', value: this.beta },
        { key: 'gamma', abbr: 'g', value: this.gamma },
      ],
      short,
    );
  }

  /**
   * Each reference as lowercased words.
   * @throws InputError `E_EMPTY_INPUT` without streams, `E_LINE_COUNT_MISMATCH` when they differ in length.
   */
  prepareReferences(refStreams: readonly (readonly string[])[]): MeteorReferences {
    const segments = checkReferenceStreams('METEOR', refStreams);
    const words: Int32Array[][] = [];
    for (let i = 0; i < segments; i++) words.push(refStreams.map((stream) => this.ids(stream[i])));
    return { segments, words };
  }

  /**
   * One row per hypothesis: `[meteor_score, 1]`.
   * @throws InputError `E_LINE_COUNT_MISMATCH` when `hyps` and the references differ in length.
   */
  segmentStats(hyps: readonly string[], refs: MeteorReferences): Float64Array {
    checkHypothesisCount(hyps, refs.segments);
    const out = new Float64Array(hyps.length * 2);
    for (let s = 0; s < hyps.length; s++) {
      const hw = this.ids(hyps[s]);
      let best = -Infinity;
      const rw = refs.words[s];
      for (let j = 0; j < rw.length; j++) {
        const score = this.single(hw, rw[j]);
        if (score > best) best = score;
      }
      out[2 * s] = best;
      out[2 * s + 1] = 1;
    }
    return out;
  }

  /** Corpus METEOR: the mean of the line values. */
  scoreFromStats(totals: Float64Array): MetricScore {
    checkStatsWidth('METEOR', totals, 2);
    const [sum, lines] = totals;
    return { name: 'METEOR', score: sum / lines, verboseScore: `(lines = ${lines})`, details: { lines } };
  }

  /** Sentence METEOR from one row. */
  sentenceScoreFromStats(row: Float64Array): MetricScore {
    checkStatsWidth('METEOR', row, 2);
    return { name: 'METEOR', score: row[0] / row[1], verboseScore: '', details: {} };
  }

  /**
   * `single_meteor_score(reference, hypothesis)` on word ids. Each stage walks the hypothesis words it has left from
   * the last back and pairs each with the last reference word left that matches it, which is what NLTK's pops from its
   * lists of remaining words do. The stem and synonym stages see only the words the exact stage left, so only those
   * are stemmed.
   */
  private single(hw: Int32Array, rw: Int32Array): number {
    const n = hw.length;
    const m = rw.length;
    // NLTK returns 0.0 on a ZeroDivisionError: an empty side, or no match (Fmean's denominator is then 0).
    if (n === 0 || m === 0) return 0;
    if (this.hypRefOf.length < n) {
      this.hypRefOf = new Int32Array(2 * n);
      this.hypStems = new Int32Array(2 * n);
    }
    if (this.refUsed.length < m) {
      this.refUsed = new Uint8Array(2 * m);
      this.refStems = new Int32Array(2 * m);
    }
    const refOf = this.hypRefOf;
    const used = this.refUsed;
    refOf.fill(-1, 0, n);
    used.fill(0, 0, m);
    let matches = this.pair(hw, n, rw, m, this.wordNames.length);
    // Stages over no word left on either side find nothing.
    if (matches === n || matches === m) return this.value(matches, n, m);
    const hs = this.hypStems;
    const rs = this.refStems;
    for (let i = 0; i < n; i++) hs[i] = refOf[i] >= 0 ? -1 : this.stemOf(hw[i]);
    for (let j = 0; j < m; j++) rs[j] = used[j] !== 0 ? -1 : this.stemOf(rw[j]);
    // The stems' chains serve the synonym stage too (it skips the positions the stem stage used).
    const head = this.chain(rs, m, this.stemNames.length);
    matches += this.pairChained(hs, n, head);
    if (matches === n || matches === m) {
      this.unchain(rs, m, head);
      return this.value(matches, n, m);
    }
    const prev = this.refPrev;
    for (let i = n - 1; i >= 0; i--) {
      if (refOf[i] >= 0) continue;
      const syns = this.synonymsOf(hs[i]);
      // A stem's synonyms always include the stem itself, which no reference word left has (the stem stage took
      // those): a stem with no others matches nothing.
      if (syns.length === 0) continue;
      let best = -1;
      for (let k = 0; k < syns.length; k++) {
        const id = syns[k];
        if (id >= head.length) continue;
        let j = head[id];
        while (j > best && used[j] !== 0) j = prev[j];
        if (j > best) best = j;
      }
      if (best >= 0) {
        refOf[i] = best;
        used[best] = 1;
        matches++;
      }
    }
    this.unchain(rs, m, head);
    return this.value(matches, n, m);
  }

  /**
   * One exact-match stage over ids below `size`: hypothesis position i not yet matched, from the last back, takes the
   * last unused reference position with its id (ids < 0 take part in nothing). Returns the number of new matches.
   */
  private pair(h: Int32Array, n: number, r: Int32Array, m: number, size: number): number {
    const head = this.chain(r, m, size);
    const matches = this.pairChained(h, n, head);
    this.unchain(r, m, head);
    return matches;
  }

  /** {@link pair} over reference positions already chained ({@link chain}). */
  private pairChained(h: Int32Array, n: number, head: Int32Array): number {
    const refOf = this.hypRefOf;
    const used = this.refUsed;
    const prev = this.refPrev;
    let matches = 0;
    for (let i = n - 1; i >= 0; i--) {
      if (refOf[i] >= 0 || h[i] < 0) continue;
      // The last reference position left with the same id: the chain of its positions, latest first.
      let j = head[h[i]];
      while (j >= 0 && used[j] !== 0) j = prev[j];
      if (j >= 0) {
        refOf[i] = j;
        used[j] = 1;
        matches++;
      }
    }
    return matches;
  }

  /** NLTK's score from the matches ({@link hypRefOf} holds them) of `n` hypothesis and `m` reference words. */
  private value(matches: number, n: number, m: number): number {
    if (matches === 0) return 0;
    const precision = matches / n;
    const recall = matches / m;
    const fmean = (precision * recall) / (this.alpha * precision + (1 - this.alpha) * recall);
    const fragFrac = countChunks(this.hypRefOf, n) / matches;
    const penalty = this.gamma * fragFrac ** this.beta;
    return (1 - penalty) * fmean;
  }

  /** A line's words (the tokenizer, `str.split()`, then `str.lower()` of each) as word ids; callers do not change them. */
  private ids(line: string): Int32Array {
    let words = this.lineIds.get(line);
    if (words === undefined) {
      if (this.lineIds.size >= LINE_MEMO_LINES) this.lineIds = new Map();
      this.lineIds.set(line, (words = this.scanIds(line)));
    }
    return words;
  }

  private scanIds(line: string): Int32Array {
    const source = bleuScan(line, this.scanner, this.lowercase, this.bounds);
    const b = this.bounds;
    const words = new Int32Array(b.count);
    const bounds = b.bounds;
    for (let k = 0; k < b.count; k++) {
      const start = bounds[2 * k];
      const end = bounds[2 * k + 1];
      let word = this.tokens.get(source, start, end);
      if (word < 0) {
        const token = source.slice(start, end);
        const lower = pyLower(token);
        const known = this.wordIds.get(lower);
        if (known !== undefined) word = known;
        else {
          word = this.wordNames.length;
          this.wordIds.set(lower, word);
          this.wordNames.push(lower);
          if (word === this.wordStems.length) {
            const grown = new Int32Array(2 * word).fill(-1);
            grown.set(this.wordStems);
            this.wordStems = grown;
          }
        }
        this.tokens.setMissed(token, word);
      }
      words[k] = word;
    }
    return words;
  }

  /** The stem id of word `id` (Porter, NLTK_EXTENSIONS), stemmed on first need. */
  private stemOf(id: number): number {
    let stem = this.wordStems[id];
    if (stem < 0) this.wordStems[id] = stem = this.stemId(nltkPorterStem(this.wordNames[id]));
    return stem;
  }

  /**
   * Links the first `count` positions of `ids` by id ({@link heads}, {@link refPrev}); ids below `size`, negative ids
   * left out.
   */
  private chain(ids: Int32Array, count: number, size: number): Int32Array {
    if (this.heads.length < size) this.heads = new Int32Array(Math.max(size, 2 * this.heads.length)).fill(-1);
    if (this.refPrev.length < count) this.refPrev = new Int32Array(2 * count);
    const head = this.heads;
    for (let j = 0; j < count; j++) {
      const id = ids[j];
      if (id < 0) continue;
      this.refPrev[j] = head[id];
      head[id] = j;
    }
    return head;
  }

  /** Resets the heads {@link chain} set. */
  private unchain(ids: Int32Array, count: number, head: Int32Array): void {
    for (let j = 0; j < count; j++) if (ids[j] >= 0) head[ids[j]] = -1;
  }

  private stemId(stem: string): number {
    let id = this.stemIds.get(stem);
    if (id === undefined) {
      id = this.stemNames.length;
      this.stemIds.set(stem, id);
      this.stemNames.push(stem);
    }
    return id;
  }

  /** The stem ids of the synonyms of stem `id` (./wordnet.ts), the stem itself left out. */
  private synonymsOf(id: number): Int32Array {
    let ids = this.synonymIds[id];
    if (ids === undefined) {
      // Most stems of a text in another language than English are not even written in WordNet's alphabet.
      if (!inAlphabet(this.stemNames[id])) return (this.synonymIds[id] = NO_SYNONYMS);
      const out: number[] = [];
      for (const name of meteorSynonyms(this.stemNames[id])) {
        const other = this.stemId(name);
        if (other !== id) out.push(other);
      }
      this.synonymIds[id] = ids = out.length === 0 ? NO_SYNONYMS : Int32Array.from(out);
    }
    return ids;
  }
}

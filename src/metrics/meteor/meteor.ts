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
import { NLTK_TEXT_DEFAULT_TOKENIZE, type NltkTextSettings } from '../nltk-text/settings.js';
import { formatSignature } from '../signature.js';
import { checkStatsWidth } from '../stats-width.js';
import { meteorSynonyms } from './wordnet.js';

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

/**
 * References as ids: reference `j` of segment `i` is `words[i][j]` (its lowercased words) and `stems[i][j]` (their
 * Porter stems), ids of the metric's own vocabularies.
 */
export interface MeteorReferences extends PreparedReferences {
  readonly words: readonly (readonly Int32Array[])[];
  readonly stems: readonly (readonly Int32Array[])[];
}

/** What the metric knows of one lowercased word. */
interface WordInfo {
  /** Id of the lowercased word. */
  readonly word: number;
  /** Id of its Porter stem, in the stem vocabulary. */
  readonly stem: number;
}

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
  /** Token as written → its lowercased word and stem ids (tokens recur across lines, so each is read once). */
  private readonly tokens = new Map<string, WordInfo>();
  /** Lowercased word → id. */
  private readonly wordIds = new Map<string, number>();
  /** Stem (and WordNet lemma name) → id: the synonym stage compares synonyms with stems. */
  private readonly stemIds = new Map<string, number>();
  /** Stem id → the stem ids of its synonyms (decoded on first need). */
  private readonly synonymIds: (Set<number> | undefined)[] = [];
  private readonly stemNames: string[] = [];
  private hypRefOf = new Int32Array(64);
  private refUsed = new Uint8Array(64);
  /** Per id, the last position of a reference holding it, or -1 (kept all -1 between calls). */
  private heads = new Int32Array(0);
  /** Per reference position, the previous position with the same id, or -1. */
  private refPrev = new Int32Array(64);

  /** @throws InputError `E_BAD_OPTION` for α outside [0, 1], a non-finite β or γ, or an unknown tokenizer. */
  constructor(options: MeteorOptions = {}) {
    this.alpha = options.alpha ?? 0.9;
    this.beta = options.beta ?? 3;
    this.gamma = options.gamma ?? 0.5;
    if (typeof this.alpha !== 'number' || !(this.alpha >= 0 && this.alpha <= 1)) throw badOption('METEOR alpha', 'a number in [0, 1]', this.alpha);
    if (typeof this.beta !== 'number' || !Number.isFinite(this.beta)) throw badOption('METEOR beta', 'a finite number', this.beta);
    if (typeof this.gamma !== 'number' || !Number.isFinite(this.gamma)) throw badOption('METEOR gamma', 'a finite number', this.gamma);
    this.tokenize = options.tokenize ?? NLTK_TEXT_DEFAULT_TOKENIZE;
    this.lowercase = options.lowercase ?? false;
    this.scanner = getTokenScanner(this.tokenize);
  }

  /** `nrefs:1|tok:13a|alpha:0.9|beta:3|gamma:0.5|version:…` (case: METEOR lowercases). */
  signature(nRefs: number, short = false): string {
    return formatSignature(
      { nRefs },
      [
        { key: 'tok', abbr: 'tok', value: this.tokenize },
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
    const stems: Int32Array[][] = [];
    for (let i = 0; i < segments; i++) {
      const w: Int32Array[] = [];
      const st: Int32Array[] = [];
      for (const stream of refStreams) {
        const [a, b] = this.ids(stream[i]);
        w.push(a);
        st.push(b);
      }
      words.push(w);
      stems.push(st);
    }
    return { segments, words, stems };
  }

  /**
   * One row per hypothesis: `[meteor_score, 1]`.
   * @throws InputError `E_LINE_COUNT_MISMATCH` when `hyps` and the references differ in length.
   */
  segmentStats(hyps: readonly string[], refs: MeteorReferences): Float64Array {
    checkHypothesisCount(hyps, refs.segments);
    const out = new Float64Array(hyps.length * 2);
    for (let s = 0; s < hyps.length; s++) {
      const [hw, hs] = this.ids(hyps[s]);
      let best = -Infinity;
      const rw = refs.words[s];
      const rs = refs.stems[s];
      for (let j = 0; j < rw.length; j++) {
        const score = this.single(hw, hs, rw[j], rs[j]);
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
   * `single_meteor_score(reference, hypothesis)` on word and stem ids. Each stage walks the hypothesis words it has
   * left from the last back and pairs each with the last reference word left that matches it, which is what NLTK's
   * pops from its lists of remaining words do.
   */
  private single(hw: Int32Array, hs: Int32Array, rw: Int32Array, rs: Int32Array): number {
    const n = hw.length;
    const m = rw.length;
    // NLTK returns 0.0 on a ZeroDivisionError: an empty side, or no match (Fmean's denominator is then 0).
    if (n === 0 || m === 0) return 0;
    if (this.hypRefOf.length < n) this.hypRefOf = new Int32Array(2 * n);
    if (this.refUsed.length < m) this.refUsed = new Uint8Array(2 * m);
    const refOf = this.hypRefOf;
    const used = this.refUsed;
    refOf.fill(-1, 0, n);
    used.fill(0, 0, m);
    let matches = 0;
    for (let stage = 0; stage < 2; stage++) {
      const h = stage === 0 ? hw : hs;
      const r = stage === 0 ? rw : rs;
      const head = this.chain(r, stage === 0 ? this.wordIds.size : this.stemNames.length);
      const prev = this.refPrev;
      for (let i = n - 1; i >= 0; i--) {
        if (refOf[i] >= 0) continue;
        // The last reference position left with the same id: the chain of its positions, latest first.
        let j = head[h[i]];
        while (j >= 0 && used[j] !== 0) j = prev[j];
        if (j >= 0) {
          refOf[i] = j;
          used[j] = 1;
          matches++;
        }
      }
      this.unchain(r, head);
    }
    if (matches < n && matches < m) {
      const head = this.chain(rs, this.stemNames.length);
      const prev = this.refPrev;
      for (let i = n - 1; i >= 0; i--) {
        if (refOf[i] >= 0) continue;
        const syns = this.synonymsOf(hs[i]);
        // A stem's set always holds the stem itself, which no reference word left has (the stem stage took those):
        // a set of one matches nothing.
        if (syns.size === 1) continue;
        let best = -1;
        for (const id of syns) {
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
      this.unchain(rs, head);
    }
    if (matches === 0) return 0;
    const precision = matches / n;
    const recall = matches / m;
    const fmean = (precision * recall) / (this.alpha * precision + (1 - this.alpha) * recall);
    const fragFrac = countChunks(refOf, n) / matches;
    const penalty = this.gamma * fragFrac ** this.beta;
    return (1 - penalty) * fmean;
  }

  /** A line's words (the tokenizer, `str.split()`, then `str.lower()` of each) as word ids and stem ids. */
  private ids(line: string): [Int32Array, Int32Array] {
    const source = bleuScan(line, this.scanner, this.lowercase, this.bounds);
    const b = this.bounds;
    const words = new Int32Array(b.count);
    const stems = new Int32Array(b.count);
    for (let k = 0; k < b.count; k++) {
      const token = source.slice(b.start(k), b.end(k));
      let info = this.tokens.get(token);
      if (info === undefined) {
        const lower = pyLower(token);
        let word = this.wordIds.get(lower);
        if (word === undefined) {
          word = this.wordIds.size;
          this.wordIds.set(lower, word);
        }
        info = { word, stem: this.stemId(nltkPorterStem(lower)) };
        this.tokens.set(token, info);
      }
      words[k] = info.word;
      stems[k] = info.stem;
    }
    return [words, stems];
  }

  /** Links the positions of `ids` by id ({@link heads}, {@link refPrev}); ids below `size`. */
  private chain(ids: Int32Array, size: number): Int32Array {
    if (this.heads.length < size) {
      const grown = new Int32Array(Math.max(size, 2 * this.heads.length)).fill(-1);
      this.heads = grown;
    }
    if (this.refPrev.length < ids.length) this.refPrev = new Int32Array(2 * ids.length);
    const head = this.heads;
    for (let j = 0; j < ids.length; j++) {
      this.refPrev[j] = head[ids[j]];
      head[ids[j]] = j;
    }
    return head;
  }

  /** Resets the heads {@link chain} set. */
  private unchain(ids: Int32Array, head: Int32Array): void {
    for (let j = 0; j < ids.length; j++) head[ids[j]] = -1;
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

  /** The stem ids of the synonyms of stem `id` (./wordnet.ts), the stem itself included. */
  private synonymsOf(id: number): Set<number> {
    let set = this.synonymIds[id];
    if (set === undefined) {
      set = new Set<number>();
      for (const name of meteorSynonyms(this.stemNames[id])) set.add(this.stemId(name));
      this.synonymIds[id] = set;
    }
    return set;
  }
}

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

/** References as lowercased words: reference `j` of segment `i` is `words[i][j]`. */
export interface MeteorReferences extends PreparedReferences {
  readonly words: readonly (readonly (readonly string[])[])[];
}

/** One remaining word of a stage: its position in the sentence and its current form (word, then stem). */
interface Enum {
  pos: number;
  word: string;
}

/** NLTK's `_match_enums`: pairs equal words, hypothesis from the end, each with the last equal reference word. */
function matchEnums(hyp: Enum[], ref: Enum[], matches: number[][]): void {
  for (let i = hyp.length - 1; i >= 0; i--) {
    for (let j = ref.length - 1; j >= 0; j--) {
      if (hyp[i].word === ref[j].word) {
        matches.push([hyp[i].pos, ref[j].pos]);
        hyp.splice(i, 1);
        ref.splice(j, 1);
        break;
      }
    }
  }
}

/** NLTK's `_count_chunks` over matches sorted by hypothesis position. */
function countChunks(matches: readonly number[][]): number {
  let chunks = 1;
  for (let i = 0; i < matches.length - 1; i++) {
    if (!(matches[i + 1][0] === matches[i][0] + 1 && matches[i + 1][1] === matches[i][1] + 1)) chunks++;
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
  private readonly stems = new Map<string, string>();
  private readonly synonyms = new Map<string, Set<string>>();

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
    const words: string[][][] = [];
    for (let i = 0; i < segments; i++) words.push(refStreams.map((s) => this.words(s[i])));
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
      const hyp = this.words(hyps[s]);
      let best = -Infinity;
      for (const ref of refs.words[s]) {
        const score = this.single(hyp, ref);
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

  /** `single_meteor_score(reference, hypothesis)` on lowercased words. */
  private single(hypWords: readonly string[], refWords: readonly string[]): number {
    const hyp: Enum[] = hypWords.map((word, pos) => ({ pos, word }));
    const ref: Enum[] = refWords.map((word, pos) => ({ pos, word }));
    const matches: number[][] = [];
    matchEnums(hyp, ref, matches);
    for (const e of hyp) e.word = this.stem(e.word);
    for (const e of ref) e.word = this.stem(e.word);
    matchEnums(hyp, ref, matches);
    for (let i = hyp.length - 1; i >= 0; i--) {
      const syns = this.synonymsOf(hyp[i].word);
      for (let j = ref.length - 1; j >= 0; j--) {
        if (syns.has(ref[j].word)) {
          matches.push([hyp[i].pos, ref[j].pos]);
          hyp.splice(i, 1);
          ref.splice(j, 1);
          break;
        }
      }
    }
    const m = matches.length;
    // NLTK returns 0.0 on a ZeroDivisionError: an empty side, or no match (Fmean's denominator is then 0).
    if (m === 0 || hypWords.length === 0 || refWords.length === 0) return 0;
    matches.sort((a, b) => a[0] - b[0]);
    const precision = m / hypWords.length;
    const recall = m / refWords.length;
    const fmean = (precision * recall) / (this.alpha * precision + (1 - this.alpha) * recall);
    const fragFrac = countChunks(matches) / m;
    const penalty = this.gamma * fragFrac ** this.beta;
    return (1 - penalty) * fmean;
  }

  /** A line's words: the tokenizer, `str.split()`, then `str.lower()` of each word. */
  private words(line: string): string[] {
    const source = bleuScan(line, this.scanner, this.lowercase, this.bounds);
    const b = this.bounds;
    const out: string[] = [];
    for (let k = 0; k < b.count; k++) out.push(pyLower(source.slice(b.start(k), b.end(k))));
    return out;
  }

  private stem(word: string): string {
    let s = this.stems.get(word);
    if (s === undefined) {
      s = nltkPorterStem(word);
      this.stems.set(word, s);
    }
    return s;
  }

  private synonymsOf(stem: string): Set<string> {
    let s = this.synonyms.get(stem);
    if (s === undefined) {
      s = meteorSynonyms(stem);
      this.synonyms.set(stem, s);
    }
    return s;
  }
}

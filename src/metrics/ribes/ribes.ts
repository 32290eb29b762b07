/**
 * RIBES exactly as NLTK 3.8 computes it (`nltk.translate.ribes_score.sentence_ribes` / `corpus_ribes`), which is not
 * the official RIBES.py: NLTK aligns words with its own `word_rank_alignment` (a hypothesis word that occurs once on
 * both sides maps to its reference position; otherwise the shortest n-gram context, right then left for each window
 * size, that occurs exactly once on both sides decides), and its `kendall_tau` counts as increasing pairs only the
 * pairs inside runs of consecutive +1 steps of that alignment, not all ordered pairs. NKT = (τ + 1) / 2, τ = −1 for an
 * alignment of fewer than 2 words. A line scores the best over its references of NKT · P1^α · BP^β with
 * P1 = aligned words / hypothesis length and BP = min(1, exp(1 − reference length / hypothesis length)).
 *
 * The corpus RIBES is the plain mean of the line values (`corpus_ribes`), so rows hold each line's value and a count.
 * A hypothesis without tokens has no RIBES (NLTK divides by its length and raises ZeroDivisionError, and so does its
 * `corpus_ribes`): its row is marked, and a score from rows holding one is an error, as the NLTK call would be. The
 * row itself is computed, since the engine scores the empty hypothesis where an n-best sentence has run out of
 * candidates and drops that row.
 *
 * Tokens: see ../nltk-text/settings.ts (`-tok`, default 13a, then `str.split()`).
 *
 * Statistics row (width 3): `ribes, lines, empty` (the line's RIBES, 1, 0; 0, 1, 1 for a hypothesis without tokens).
 */
import { badOption, InputError } from '../../errors.js';
import { bleuTextOptions, internHypotheses, internReferences, type BleuTextOptions, type InternedReferences } from '../bleu/text.js';
import { checkHypothesisCount, checkReferenceStreams, type Metric, type MetricScore, type PreparedReferences } from '../metric.js';
import { nltkTextDefaults, nltkTextSignatureFields, type NltkTextSettings } from '../nltk-text/settings.js';
import { formatSignature } from '../signature.js';
import { checkStatsWidth } from '../stats-width.js';

/** Options of {@link Ribes}; the defaults are NLTK's. */
export interface RibesOptions extends NltkTextSettings {
  /** Exponent of the unigram precision. @default 0.25 */
  readonly alpha?: number;
  /** Exponent of the brevity penalty. @default 0.10 */
  readonly beta?: number;
}

/** Column names of a RIBES statistics row. */
export const RIBES_STATS_COLUMNS = ['ribes', 'lines', 'empty'] as const;

/** References prepared for {@link Ribes}. */
export interface RibesReferences extends PreparedReferences, InternedReferences {}

/** Occurrences of `a[from .. from + n)` in `b` (as `list.count` of an n-gram over `ngrams(b, n)`), and the first one. */
function occurrences(a: Int32Array, from: number, n: number, b: Int32Array): { count: number; first: number } {
  let count = 0;
  let first = -1;
  outer: for (let i = 0; i + n <= b.length; i++) {
    for (let k = 0; k < n; k++) if (b[i + k] !== a[from + k]) continue outer;
    if (count === 0) first = i;
    count++;
  }
  return { count, first };
}

/** NLTK's `word_rank_alignment(reference, hypothesis)`. */
export function wordRankAlignment(ref: Int32Array, hyp: Int32Array): number[] {
  const worder: number[] = [];
  const hypLen = hyp.length;
  for (let i = 0; i < hypLen; i++) {
    const inRef = occurrences(hyp, i, 1, ref);
    if (inRef.count === 0) continue;
    if (inRef.count === 1 && occurrences(hyp, i, 1, hyp).count === 1) {
      worder.push(inRef.first);
      continue;
    }
    const maxWindow = Math.max(i, hypLen - i + 1);
    for (let window = 1; window < maxWindow; window++) {
      if (i + window < hypLen) {
        const r = occurrences(hyp, i, window + 1, ref);
        // NLTK counts hypothesis n-grams only up to the reference's length; a longer one is in the reference 0 times.
        if (r.count === 1 && occurrences(hyp, i, window + 1, hyp).count === 1) {
          worder.push(r.first);
          break;
        }
      }
      if (window <= i) {
        const r = occurrences(hyp, i - window, window + 1, ref);
        if (r.count === 1 && occurrences(hyp, i - window, window + 1, hyp).count === 1) {
          worder.push(r.first + window);
          break;
        }
      }
    }
  }
  return worder;
}

/** `nltk.util.choose(n, 2)`. */
function choose2(n: number): number {
  return n < 2 ? 0 : (n * (n - 1)) / 2;
}

/** NLTK's normalized `kendall_tau(worder)`: runs of consecutive +1 steps only (see the file comment). */
export function nltkKendallTau(worder: readonly number[]): number {
  const n = worder.length;
  let tau: number;
  if (n < 2) tau = -1;
  else {
    let increasing = 0;
    let run = 1;
    for (let k = 1; k <= n; k++) {
      if (k < n && worder[k - 1] + 1 === worder[k]) run++;
      else {
        if (run > 1) increasing += choose2(run);
        run = 1;
      }
    }
    tau = (2 * increasing) / choose2(n) - 1;
  }
  return (tau + 1) / 2;
}

/** NLTK 3.8 RIBES (see the file comment). */
export class Ribes implements Metric<RibesReferences> {
  /** Metric id as given to `-m`. */
  readonly id = 'ribes';
  /** 3. */
  readonly statsWidth = 3;
  /** {@link RIBES_STATS_COLUMNS}. */
  readonly statsColumns: readonly string[] = RIBES_STATS_COLUMNS;
  /** Exponent of P1. */
  readonly alpha: number;
  /** Exponent of BP. */
  readonly beta: number;
  /** The tokenizer before `str.split()`. */
  readonly tokenize: string;
  /** Whether lines are lowercased first. */
  readonly lowercase: boolean;
  private readonly text: BleuTextOptions;

  /** @throws InputError `E_BAD_OPTION` for a non-finite exponent or an unknown tokenizer. */
  constructor(options: RibesOptions = {}) {
    this.alpha = options.alpha ?? 0.25;
    this.beta = options.beta ?? 0.1;
    if (typeof this.alpha !== 'number' || !Number.isFinite(this.alpha)) throw badOption('RIBES alpha', 'a finite number', this.alpha);
    if (typeof this.beta !== 'number' || !Number.isFinite(this.beta)) throw badOption('RIBES beta', 'a finite number', this.beta);
    ({ tokenize: this.tokenize, lowercase: this.lowercase } = nltkTextDefaults(options));
    this.text = bleuTextOptions(this.tokenize, this.lowercase);
  }

  /** `nrefs:1|case:mixed|tok:13a|a:0.25|b:0.1|version:…`. */
  signature(nRefs: number, short = false): string {
    return formatSignature(
      { nRefs },
      [
        ...nltkTextSignatureFields(this),
        { key: 'alpha', abbr: 'a', value: this.alpha },
        { key: 'beta', abbr: 'b', value: this.beta },
      ],
      short,
    );
  }

  /**
   * Tokenizes and interns the references.
   * @throws InputError `E_EMPTY_INPUT` without streams, `E_LINE_COUNT_MISMATCH` when they differ in length.
   */
  prepareReferences(refStreams: readonly (readonly string[])[]): RibesReferences {
    const segments = checkReferenceStreams('RIBES', refStreams);
    return { segments, ...internReferences(refStreams, segments, this.text) };
  }

  /**
   * One row per hypothesis: `[sentence_ribes, 1, 0]`, or `[0, 1, 1]` for a hypothesis without tokens.
   * @throws InputError `E_LINE_COUNT_MISMATCH` when `hyps` and the references differ in length.
   */
  segmentStats(hyps: readonly string[], refs: RibesReferences): Float64Array {
    checkHypothesisCount(hyps, refs.segments);
    const ids = internHypotheses(hyps, refs, this.text);
    const out = new Float64Array(hyps.length * 3);
    for (let s = 0; s < hyps.length; s++) {
      const hyp = ids.tokens.subarray(ids.offsets[s], ids.offsets[s + 1]);
      out[3 * s + 1] = 1;
      if (hyp.length === 0) {
        out[3 * s + 2] = 1;
        continue;
      }
      let best = -1;
      for (let r = refs.segRefOffsets[s]; r < refs.segRefOffsets[s + 1]; r++) {
        const ref = refs.refs.tokens.subarray(refs.refs.offsets[r], refs.refs.offsets[r + 1]);
        const worder = wordRankAlignment(ref, hyp);
        const nkt = nltkKendallTau(worder);
        const bp = Math.min(1, Math.exp(1 - ref.length / hyp.length));
        const p1 = worder.length / hyp.length;
        const ribes = nkt * p1 ** this.alpha * bp ** this.beta;
        if (ribes > best) best = ribes;
      }
      out[3 * s] = best;
    }
    return out;
  }

  /**
   * Corpus RIBES: the mean of the line values (`corpus_ribes`).
   * @throws InputError `E_BAD_INPUT` when a line has no tokens (NLTK's ZeroDivisionError).
   */
  scoreFromStats(totals: Float64Array): MetricScore {
    checkStatsWidth('RIBES', totals, 3);
    const [sum, lines, empty] = totals;
    if (empty > 0) {
      throw new InputError(
        'E_BAD_INPUT',
        `RIBES is undefined: ${empty} hypothesis line(s) without tokens (NLTK's sentence_ribes divides by the hypothesis ` +
          'length: ZeroDivisionError; -sl names the lines)',
      );
    }
    const score = sum / lines;
    return { name: 'RIBES', score, verboseScore: `(lines = ${lines})`, details: { lines } };
  }

  /**
   * Sentence RIBES from one row.
   * @throws InputError `E_BAD_INPUT` for a hypothesis without tokens (NLTK's ZeroDivisionError).
   */
  sentenceScoreFromStats(row: Float64Array): MetricScore {
    checkStatsWidth('RIBES', row, 3);
    if (row[2] > 0) {
      throw new InputError(
        'E_BAD_INPUT',
        "RIBES is undefined: the hypothesis has no tokens (NLTK's sentence_ribes divides by its length: ZeroDivisionError)",
      );
    }
    return { name: 'RIBES', score: row[0] / row[1], verboseScore: '', details: {} };
  }
}

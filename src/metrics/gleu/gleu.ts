/**
 * Google BLEU exactly as NLTK 3.8 computes it (`nltk.translate.gleu_score.sentence_gleu` / `corpus_gleu`; Hugging
 * Face evaluate's `google_bleu` is the same code). For each line and reference, the n-grams of orders
 * `minLen..maxLen` of each side are pooled into one multiset (NLTK's `everygrams`); `tp` is the size of their
 * multiset intersection and `n_all = max(hypothesis n-grams, reference n-grams)`. The line contributes the
 * `(tp, n_all)` of the reference with the highest `tp / n_all` (the first on ties; references with `n_all = 0` are
 * skipped, and a line with none contributes nothing). Corpus GLEU = Σ tp / Σ n_all (0 when Σ n_all = 0), so it comes
 * from summed rows; sentence GLEU is the same on one line.
 *
 * Tokens: see ../nltk-text/settings.ts (`-tok`, default 13a, then `str.split()`).
 *
 * Statistics row (width 2): `tp, n_all` of the chosen reference.
 */
import type { Csr } from '../../text/csr.js';
import { badOption } from '../../errors.js';
import { bleuTextOptions, internHypotheses, internReferences, type BleuTextOptions, type InternedReferences } from '../bleu/text.js';
import { checkHypothesisCount, checkReferenceStreams, type Metric, type MetricScore, type PreparedReferences } from '../metric.js';
import { nltkTextDefaults, nltkTextSignatureFields, type NltkTextSettings } from '../nltk-text/settings.js';
import { formatSignature } from '../signature.js';
import { checkStatsWidth } from '../stats-width.js';

/** Options of {@link Gleu}; the defaults are NLTK's. */
export interface GleuOptions extends NltkTextSettings {
  /** Smallest n-gram order (`min_len`). @default 1 */
  readonly minLen?: number;
  /** Largest n-gram order (`max_len`). @default 4 */
  readonly maxLen?: number;
}

/** Column names of a GLEU statistics row. */
export const GLEU_STATS_COLUMNS = ['matches', 'total'] as const;

/** References prepared for {@link Gleu}. */
export interface GleuReferences extends PreparedReferences, InternedReferences {}

/** A token id as two UTF-16 units, so that n-gram keys are strings of fixed-width parts. */
function idKey(id: number): string {
  return String.fromCharCode(id & 0xffff, id >>> 16);
}

/**
 * The multiset of n-grams of orders `minLen..maxLen` of row `row` of `csr`, keyed by their ids; returns the number of
 * n-grams (positions, NLTK's `sum(Counter.values())`).
 */
function countNgrams(csr: Csr, row: number, minLen: number, maxLen: number, out: Map<string, number>): number {
  out.clear();
  const start = csr.offsets[row];
  const len = csr.offsets[row + 1] - start;
  let total = 0;
  for (let i = 0; i < len; i++) {
    let key = '';
    for (let n = 1; n <= maxLen && i + n <= len; n++) {
      key += idKey(csr.tokens[start + i + n - 1]);
      if (n < minLen) continue;
      out.set(key, (out.get(key) ?? 0) + 1);
      total++;
    }
  }
  return total;
}

/** NLTK 3.8 GLEU (see the file comment). */
export class Gleu implements Metric<GleuReferences> {
  /** Metric id as given to `-m`. */
  readonly id = 'gleu';
  /** 2. */
  readonly statsWidth = 2;
  /** {@link GLEU_STATS_COLUMNS}. */
  readonly statsColumns: readonly string[] = GLEU_STATS_COLUMNS;
  /** Smallest n-gram order. */
  readonly minLen: number;
  /** Largest n-gram order. */
  readonly maxLen: number;
  /** The tokenizer before `str.split()`. */
  readonly tokenize: string;
  /** Whether lines are lowercased first. */
  readonly lowercase: boolean;
  private readonly text: BleuTextOptions;

  /** @throws InputError `E_BAD_OPTION` for orders that are not integers with 1 <= minLen <= maxLen, or an unknown tokenizer. */
  constructor(options: GleuOptions = {}) {
    this.minLen = options.minLen ?? 1;
    this.maxLen = options.maxLen ?? 4;
    if (!Number.isInteger(this.minLen) || this.minLen < 1) throw badOption('GLEU min_len', 'an integer >= 1', this.minLen);
    if (!Number.isInteger(this.maxLen) || this.maxLen < this.minLen) {
      throw badOption('GLEU max_len', `an integer >= min_len (${this.minLen})`, this.maxLen);
    }
    ({ tokenize: this.tokenize, lowercase: this.lowercase } = nltkTextDefaults(options));
    this.text = bleuTextOptions(this.tokenize, this.lowercase);
  }

  /** `nrefs:1|case:mixed|tok:13a|n:1-4|version:…`. */
  signature(nRefs: number, short = false): string {
    return formatSignature(
      { nRefs },
      [
        ...nltkTextSignatureFields(this),
        { key: 'n', abbr: 'n', value: `${this.minLen}-${this.maxLen}` },
      ],
      short,
    );
  }

  /**
   * Tokenizes and interns the references.
   * @throws InputError `E_EMPTY_INPUT` without streams, `E_LINE_COUNT_MISMATCH` when they differ in length.
   */
  prepareReferences(refStreams: readonly (readonly string[])[]): GleuReferences {
    const segments = checkReferenceStreams('GLEU', refStreams);
    return { segments, ...internReferences(refStreams, segments, this.text) };
  }

  /**
   * One row per hypothesis: `tp, n_all` of its best reference (0, 0 when every reference and the hypothesis are
   * shorter than `minLen`).
   * @throws InputError `E_LINE_COUNT_MISMATCH` when `hyps` and the references differ in length.
   */
  segmentStats(hyps: readonly string[], refs: GleuReferences): Float64Array {
    checkHypothesisCount(hyps, refs.segments);
    const ids = internHypotheses(hyps, refs, this.text);
    const out = new Float64Array(hyps.length * 2);
    const hypCounts = new Map<string, number>();
    const refCounts = new Map<string, number>();
    for (let s = 0; s < hyps.length; s++) {
      const tpfp = countNgrams(ids, s, this.minLen, this.maxLen, hypCounts);
      let bestTp = 0;
      let bestAll = 0;
      let found = false;
      for (let r = refs.segRefOffsets[s]; r < refs.segRefOffsets[s + 1]; r++) {
        const tpfn = countNgrams(refs.refs, r, this.minLen, this.maxLen, refCounts);
        const nAll = Math.max(tpfp, tpfn);
        if (nAll === 0) continue;
        let tp = 0;
        const [small, large] = hypCounts.size <= refCounts.size ? [hypCounts, refCounts] : [refCounts, hypCounts];
        for (const [key, c] of small) {
          const d = large.get(key);
          if (d !== undefined) tp += c < d ? c : d;
        }
        // Python's max() keeps the first of equal keys: a later reference replaces it only when strictly better.
        if (!found || tp / nAll > bestTp / bestAll) {
          bestTp = tp;
          bestAll = nAll;
          found = true;
        }
      }
      out[2 * s] = bestTp;
      out[2 * s + 1] = bestAll;
    }
    return out;
  }

  /** Corpus GLEU from summed rows: `corpus_gleu`. */
  scoreFromStats(totals: Float64Array): MetricScore {
    checkStatsWidth('GLEU', totals, 2);
    return this.scoreOf(totals);
  }

  /** Sentence GLEU from one row: `sentence_gleu`. */
  sentenceScoreFromStats(row: Float64Array): MetricScore {
    checkStatsWidth('GLEU', row, 2);
    return this.scoreOf(row);
  }

  private scoreOf(stats: Float64Array): MetricScore {
    const [matches, total] = stats;
    const score = total === 0 ? 0 : matches / total;
    return { name: 'GLEU', score, verboseScore: `(matches = ${matches}, total = ${total})`, details: { matches, total } };
  }
}

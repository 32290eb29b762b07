/**
 * The `lin-och` flavor: smoothed sentence BLEU "BLEUS" (Lin & Och 2004, ORANGE; seed paper 002): one is added to
 * the matched and the total n-gram counts of every order n > 1, the brevity penalty is BLEU's. ORANGE uses
 * BLEUS1 … BLEUS9 (max order 1–9).
 *
 * This is exactly sacrebleu's `add-k` smoothing with k = 1 and effective order off (sacrebleu generalised Chen &
 * Cherry's method 2 from Lin & Och), so the flavor is that configuration of {@link Bleu} and shares its arithmetic
 * and statistics rows: {@link linOchBleu} gives the plain {@link Bleu} (sacrebleu's signature,
 * `smooth:add-k[1.00]|eff:no`), {@link LinOchBleu} the flavor as a metric of its own, whose signature names it
 * (`nrefs:1|flavor:lin-och|case:mixed|tok:13a|reflen:closest|n:4|version:…`; the order is part of it because
 * BLEUS-N differ by N). Corpus and sentence scores use the same reduction. Scores are on sacrebleu's 0–100 scale.
 */
import { Bleu, toMetricScore, type BleuOptions, type BleuReferences } from './bleu.js';
import { bleuFromStats, type BleuReduction, type BleuResult } from './score.js';
import type { Metric, MetricScore } from '../metric.js';
import { formatSignature } from '../signature.js';

/** The BLEUS reduction for max order `n`. */
export function linOchReduction(n: number): BleuReduction {
  return { maxNgramOrder: n, smoothMethod: 'add-k', smoothValue: 1, effectiveOrder: false };
}

/**
 * BLEUS of one statistics row `[hyp_len, ref_len, correct_1..N, total_1..N]` (or column sums), N = `maxNgramOrder`.
 * @param offset index of `hyp_len` in `stats`.
 */
export function linOchBleuFromStats(stats: ArrayLike<number>, maxNgramOrder = 4, offset = 0): BleuResult {
  return bleuFromStats(stats, linOchReduction(maxNgramOrder), offset);
}

/** Options of the `lin-och` flavor: text settings, order and reference length; the smoothing is fixed. */
export type LinOchBleuOptions = Omit<BleuOptions, 'smoothMethod' | 'smoothValue' | 'effectiveOrder'>;

/**
 * A {@link Bleu} computing BLEUS-N (default N = 4) at sentence and corpus level.
 * @param options tokenizer, case and order; smoothing and effective order are fixed by the flavor.
 */
export function linOchBleu(options: LinOchBleuOptions = {}): Bleu {
  return new Bleu({ ...options, smoothMethod: 'add-k', smoothValue: 1, effectiveOrder: false });
}

/** BLEUS as a {@link Metric} with a `flavor:lin-och` signature (see the file comment). */
export class LinOchBleu implements Metric<BleuReferences> {
  /** Metric id. */
  readonly id = 'bleu-lin-och';
  /** The {@link Bleu} whose rows and arithmetic this flavor uses (add-k 1, effective order off). */
  readonly bleu: Bleu;
  /** `2 + 2 * maxNgramOrder`. */
  readonly statsWidth: number;
  /** `hyp_len, ref_len, correct_1..N, total_1..N`. */
  readonly statsColumns: readonly string[];

  /** @throws InputError `E_BAD_OPTION` / `E_UNKNOWN_TOKENIZER` for a bad option. */
  constructor(options: LinOchBleuOptions = {}) {
    this.bleu = linOchBleu(options);
    this.statsWidth = this.bleu.statsWidth;
    this.statsColumns = this.bleu.statsColumns;
  }

  /** `nrefs:1|flavor:lin-och|case:mixed|tok:13a|reflen:closest|n:4|version:…`, the same for sentence scores. */
  signature(nRefs: number, short = false): string {
    const o = this.bleu.options;
    return formatSignature(
      { nRefs },
      [
        { key: 'flavor', abbr: 'f', value: 'lin-och' },
        { key: 'case', abbr: 'c', value: o.lowercase ? 'lc' : 'mixed' },
        { key: 'tok', abbr: 'tok', value: o.tokenize },
        { key: 'reflen', abbr: 'rl', value: o.refLength },
        { key: 'n', abbr: 'n', value: o.maxNgramOrder },
      ],
      short,
    );
  }

  /** Tokenizes and interns references; shareable with any {@link Bleu} of the same tokenizer and case. */
  prepareReferences(refStreams: readonly (readonly string[])[]): BleuReferences {
    return this.bleu.prepareReferences(refStreams);
  }

  /** Statistics rows, exactly {@link Bleu.segmentStats}. */
  segmentStats(hyps: readonly string[], refs: BleuReferences): Float64Array {
    return this.bleu.segmentStats(hyps, refs);
  }

  /** Corpus BLEUS from column sums. @throws RangeError for a wrong width. */
  scoreFromStats(totals: Float64Array): MetricScore {
    return toMetricScore(this.bleu.corpusResult(totals));
  }

  /** Sentence BLEUS from one row (the same reduction). @throws RangeError for a wrong width. */
  sentenceScoreFromStats(row: Float64Array): MetricScore {
    return toMetricScore(this.bleu.sentenceResult(row));
  }
}

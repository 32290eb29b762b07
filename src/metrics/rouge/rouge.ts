/**
 * The ROUGE metrics (Lin & Och 2004; Lin 2004) behind the `Metric` contract: ROUGE-N, ROUGE-L (sentence and
 * summary level), ROUGE-W, ROUGE-S/SU, in the flavors of ROUGE-1.5.5, rouge-score and the paper (see
 * ./options.ts for what each flavor fixes).
 *
 * Pipeline: references are split into sentences where the type needs them, tokenized and interned once
 * (./summary-text.ts); a batch of hypotheses is read the same way; the kernels give statistics of every
 * (hypothesis, reference) pair (./pair-stats.ts); the flavor's multi-reference combination (and optional
 * jackknifing) makes one row per segment (./segment-row.ts, which documents the 7 columns); the corpus score
 * averages the rows' P, R, F (`average: 'segment'`) or pools their counts (`'pooled'`).
 *
 * Scores are fractions in [0, 1]; `score` is the F-measure, `details` has `precision`, `recall`, `fmeasure`.
 */
import { Vocabulary } from '../../text/intern.js';
import { sentenceSplitName } from '../../text/rouge/index.js';
import { isTokenizerName } from '../../text/tokenizers/index.js';
import { wlcsWeightInverse } from '../../wasm/rouge.js';
import { checkHypothesisCount, checkReferenceStreams, type Metric, type MetricScore, type PreparedReferences } from '../metric.js';
import { perlFixed5 } from '../rouge155/perl-format.js';
import { alphaFMeasure, fMeasureOf, type FMeasure } from './f-measure.js';
import { resolveRougeOptions, type ResolvedRougeOptions, type RougeOptions } from './options.js';
import { humanReferenceScores, type HumanScores } from './jackknife.js';
import { rougeTypeId, rougeTypeName } from './rouge-type.js';
import { ROUGE_STATS_COLUMNS, ROUGE_STATS_WIDTH } from './segment-row.js';
import { SummaryReader, type SummaryStore } from './summary-text.js';
import { rougeRowWriter, rougeTokenStage, type RougeRowWriter } from './token-stage.js';
import { identitySegments, type TokenStage } from '../token-stage.js';
import { formatSignature, type SignatureField } from '../signature.js';
import { checkStatsWidth } from '../stats-width.js';

/** Flavors, multi-reference modes and option resolution (./options.ts). */
export { ROUGE_FLAVORS, ROUGE_MULTI_REFERENCE, resolveRougeOptions } from './options.js';
/** The option types (./options.ts). */
export type {
  ResolvedRougeOptions,
  RougeAverage,
  RougeFlavor,
  RougeMultiReference,
  RougeOptions,
} from './options.js';
/** ROUGE variants: ids, names, parsing (./rouge-type.ts). */
export { parseRougeType, rougeTypeId, rougeTypeName, type RougeType } from './rouge-type.js';
/** The statistics row layout (./segment-row.ts). */
export { ROUGE_STATS_COLUMNS, ROUGE_STATS_WIDTH } from './segment-row.js';
/** What {@link Rouge.humanScores} returns (./jackknife.ts). */
export type { HumanScores } from './jackknife.js';

/** References prepared for one {@link Rouge} configuration. */
export interface RougeReferences extends PreparedReferences {
  /** References per segment. */
  readonly nRefs: number;
  /** Reference `j` of segment `s` is summary `s · nRefs + j`. */
  readonly refs: SummaryStore;
  /** References of segment `s` are summaries `segRefOffsets[s] .. segRefOffsets[s + 1]`. */
  readonly segRefOffsets: Int32Array;
  /** Reads hypotheses into the references' vocabulary (it grows with new hypothesis tokens). */
  readonly reader: SummaryReader;
  /** The text settings the references were read with. */
  readonly prepKey: string;
}

/** The text settings that change what a store holds. */
function prepKeyOf(o: ResolvedRougeOptions): string {
  const { flavor, type, tokenizer, lowercase, stem, removeStopwords, split, limit } = o;
  return JSON.stringify([flavor, type.kind, tokenizer, lowercase, stem, removeStopwords, split, limit]);
}

/** One ROUGE variant in one flavor. */
export class Rouge implements Metric<RougeReferences> {
  /** Metric id as given to `-m`: `rouge-1`, `rouge-l`, `rouge-lsum`, `rouge-w-1.2`, `rouge-su4`, `rouge-s*`. */
  readonly id: string;
  /** Score name as ROUGE-1.5.5 prints it: `ROUGE-1`, `ROUGE-L`, `ROUGE-W-1.2`, `ROUGE-SU4`. */
  readonly name: string;
  /** The options with their defaults. */
  readonly options: ResolvedRougeOptions;
  /** {@link ROUGE_STATS_WIDTH}. */
  readonly statsWidth = ROUGE_STATS_WIDTH;
  /** {@link ROUGE_STATS_COLUMNS}: `hit, hyp, ref, precision, recall, fmeasure, segments`. */
  readonly statsColumns: readonly string[] = ROUGE_STATS_COLUMNS;
  private readonly fmeasure: FMeasure;
  private readonly rowWriter: RougeRowWriter;

  /** @throws InputError `E_BAD_OPTION` (see {@link resolveRougeOptions}). */
  constructor(options: RougeOptions) {
    this.options = resolveRougeOptions(options);
    this.id = rougeTypeId(this.options.type);
    this.name = rougeTypeName(this.options.type);
    this.fmeasure = fMeasureOf(this.options.weighting);
    this.rowWriter = rougeRowWriter(this.options);
  }

  /**
   * Every setting that changes the number, e.g.
   * `nrefs:1|type:ROUGE-L|flavor:rouge155|tok:rouge155|stem:no|stop:no|split:none|mref:pool|alpha:0.5|avg:segment|
   * jk:no|version:…`.
   * `case` appears with sacrebleu tokenizers, `limit` (`100w`, `665b`) when set. `nRefs < 0` gives `var`.
   */
  signature(nRefs: number, short = false): string {
    const o = this.options;
    const w = o.weighting;
    const limit = o.limit.words > 0 ? `${o.limit.words}w` : o.limit.bytes > 0 ? `${o.limit.bytes}b` : null;
    const fields: SignatureField[] = [
      { key: 'type', abbr: 'r', value: this.name },
      { key: 'flavor', abbr: 'fl', value: o.flavor },
      { key: 'tok', abbr: 'tok', value: o.tokenizer },
      { key: 'case', abbr: 'c', value: isTokenizerName(o.tokenizer) ? (o.lowercase ? 'lc' : 'mixed') : null },
      { key: 'stem', abbr: 'st', value: o.stem },
      { key: 'stop', abbr: 'sw', value: o.removeStopwords },
      { key: 'split', abbr: 'sp', value: sentenceSplitName(o.split) },
      { key: 'limit', abbr: 'lim', value: limit },
      { key: 'mref', abbr: 'mr', value: o.multiReference },
      { key: 'alpha', abbr: 'a', value: w.form === 'alpha' ? w.alpha : null },
      { key: 'beta', abbr: 'b', value: w.form === 'beta' ? w.beta : null },
      { key: 'avg', abbr: 'avg', value: o.average },
      { key: 'jk', abbr: 'jk', value: o.jackknife },
    ];
    return formatSignature({ nRefs }, fields, short);
  }

  /**
   * Splits, limits, tokenizes and interns every reference.
   * @throws InputError `E_EMPTY_INPUT` without reference streams, `E_LINE_COUNT_MISMATCH` when they differ in length.
   */
  prepareReferences(refStreams: readonly (readonly string[])[]): RougeReferences {
    const segments = checkReferenceStreams(this.name, refStreams);
    const nRefs = refStreams.length;
    const reader = new SummaryReader(this.options, new Vocabulary());
    function* segmentMajor(): Generator<string> {
      for (let i = 0; i < segments; i++) for (let j = 0; j < nRefs; j++) yield refStreams[j][i];
    }
    const refs = reader.read(segmentMajor(), segments * nRefs);
    const segRefOffsets = new Int32Array(segments + 1);
    for (let i = 0; i <= segments; i++) segRefOffsets[i] = i * nRefs;
    return { segments, nRefs, refs, segRefOffsets, reader, prepKey: prepKeyOf(this.options) };
  }

  /**
   * One statistics row per hypothesis (columns: ./segment-row.ts): the pair statistics of the hypotheses read as
   * text (sentences included) against their segments, reduced by the writer the token stage uses.
   * @throws InputError `E_LINE_COUNT_MISMATCH` when `hyps` and the references differ in length; TypeError for
   *   references prepared with other text settings.
   */
  segmentStats(hyps: readonly string[], refs: RougeReferences): Float64Array {
    checkHypothesisCount(hyps, refs.segments);
    if (refs.prepKey !== prepKeyOf(this.options)) {
      throw new TypeError(`${this.name} references were prepared with other flavor/type/tokenizer/split/limit options`);
    }
    const store = refs.reader.read(hyps, hyps.length);
    const out = new Float64Array(hyps.length * ROUGE_STATS_WIDTH);
    this.rowWriter(store, refs.refs, refs.segRefOffsets, identitySegments(hyps.length), out, 0, ROUGE_STATS_WIDTH);
    return out;
  }

  /**
   * The token stage (./token-stage.ts) where these settings allow one: the pair statistics and row reduction of
   * `segmentStats` over token batches with a candidate→segment map.
   */
  tokenStage(): TokenStage | undefined {
    return rougeTokenStage(this.options);
  }

  /** Corpus score from the column sums of the rows: mean of the segments' P/R/F, or P/R/F of the pooled counts. */
  scoreFromStats(totals: Float64Array): MetricScore {
    this.checkWidth(totals);
    if (this.options.average === 'segment') {
      const n = totals[6];
      return this.toScore(n > 0 ? totals[3] / n : 0, n > 0 ? totals[4] / n : 0, n > 0 ? totals[5] / n : 0, totals);
    }
    const [hit, hyp, ref] = [totals[0], totals[1], totals[2]];
    const { type, flavor, weighting } = this.options;
    // ROUGE-1.5.5's -t 1 divides ROUGE-W's pooled weights without f⁻¹ (its bootstrap routine has no ROUGE-W case).
    const inverse =
      type.kind === 'w' && flavor !== 'rouge155'
        ? (x: number): number => wlcsWeightInverse(x, type.weight)
        : (x: number) => x;
    const recall = ref > 0 ? inverse(hit / ref) : 0;
    const precision = hyp > 0 ? inverse(hit / hyp) : 0;
    // ROUGE-1.5.5 pools without rounding.
    const fm = flavor === 'rouge155' && weighting.form === 'alpha' ? alphaFMeasure(weighting.alpha) : this.fmeasure;
    return this.toScore(precision, recall, fm(precision, recall), totals);
  }

  /** Sentence score from one row: the segment's own P, R, F. */
  sentenceScoreFromStats(row: Float64Array): MetricScore {
    this.checkWidth(row);
    const n = row[6];
    return this.toScore(n > 0 ? row[3] / n : 0, n > 0 ? row[4] / n : 0, n > 0 ? row[5] / n : 0, row);
  }

  /**
   * Human performance by jackknifing (paper §5): each reference stream scored against the other N−1 with these
   * settings (jackknifing itself off), and the mean of those scores.
   * @throws InputError `E_BAD_INPUT` with fewer than 2 reference streams.
   */
  humanScores(refStreams: readonly (readonly string[])[]): HumanScores {
    return humanReferenceScores(this.options, refStreams, (options) => new Rouge(options));
  }

  private checkWidth(stats: Float64Array): void {
    checkStatsWidth(this.name, stats, ROUGE_STATS_WIDTH);
  }

  private toScore(precision: number, recall: number, fmeasure: number, stats: Float64Array): MetricScore {
    return {
      name: this.name,
      score: fmeasure,
      verboseScore: `R: ${perlFixed5(recall)} P: ${perlFixed5(precision)} F: ${perlFixed5(fmeasure)}`,
      details: { precision, recall, fmeasure, hit: stats[0], hyp: stats[1], ref: stats[2], segments: stats[6] },
    };
  }
}

/**
 * All-pairs sentence scores: for hypotheses A and references B, the |A| × |B| matrix whose entry (i, j) is the
 * metric's sentence score of `A[i]` against `B[j]` as its only reference — exactly `sentenceScore(metric, A[i],
 * [B[j]])`. Each text is tokenized once (as a hypothesis, and once as a reference); the pairs go to the metric's own
 * kernels in tiles through its pairwise stage (src/metrics/pairwise.ts), and each pair's score is the metric's
 * sentence score of its row (`sentenceScoreFromStats`, through the stage's `score`). Memory is bounded by the tile, not by the matrix: {@link pairwiseRowBlocks}
 * gives the matrix a block of rows at a time.
 *
 * Minimum Bayes risk selection ({@link mbrSelect}) reduces one segment's matrix (samples × pseudo-references) to
 * the sample with the best expected utility.
 *
 * @example
 * ```ts
 * import { Chrf, pairwiseScores } from 'palette-mt';
 * const m = pairwiseScores(new Chrf(), hyps, refs); // m[i * refs.length + j]
 * ```
 */
import { InputError } from '../../errors.js';
import type { Metric } from '../../metrics/metric.js';
import type { PairwiseStage, PairwiseTexts } from '../../metrics/pairwise.js';
import { tokenPairwiseStage } from './token-stage.js';

/** Options of the pairwise scorers. */
export interface PairwiseOptions {
  /** Hypotheses per tile (one kernel batch). @default 64 */
  readonly tileRows?: number;
  /** References per tile. @default 256 */
  readonly tileColumns?: number;
}

const DEFAULT_TILE_ROWS = 64;
const DEFAULT_TILE_COLUMNS = 256;

/**
 * Whether a metric has pairwise scores: a pairwise stage of its own (chrF, chrF++, BLEU, TER) or a token stage
 * (ROUGE-N/L/W/S/SU, WER, PER with their default word splits, …; ./token-stage.ts).
 */
export function hasPairwise(metric: Metric): boolean {
  return typeof metric.pairwise === 'function' || metric.tokenStage?.() !== undefined;
}

/**
 * The pairwise stage of `metric`: its own, or one over its token stage.
 * @throws InputError `E_UNKNOWN_METRIC` when the metric has neither.
 */
export function pairwiseStageOf(metric: Metric): PairwiseStage {
  if (metric.pairwise) return metric.pairwise();
  const tokens = metric.tokenStage?.();
  if (tokens === undefined) {
    throw new InputError(
      'E_UNKNOWN_METRIC',
      `metric "${metric.id}" has no pairwise sentence scores with these settings (chrf, bleu, ter, wer, per and rouge-* have)`,
    );
  }
  return tokenPairwiseStage(metric, tokens);
}

function tileSize(name: string, value: number | undefined, fallback: number): number {
  const v = value ?? fallback;
  if (!Number.isInteger(v) || v < 1) throw new RangeError(`${name} must be a positive integer (got ${value})`);
  return v;
}

/**
 * Hypotheses and references prepared once for any number of pairwise queries: rows of the matrix, blocks of it,
 * or the whole.
 */
export class PairwiseScorer {
  /** Number of hypotheses (matrix rows). */
  readonly rows: number;
  /** Number of references (matrix columns). */
  readonly columns: number;
  private readonly stage: PairwiseStage;
  private readonly refs: PairwiseTexts;
  private readonly hyps: PairwiseTexts;
  private readonly tileRows: number;
  private readonly tileColumns: number;

  /**
   * Tokenizes `hyps` and `refs` once.
   * @throws InputError `E_UNKNOWN_METRIC` when the metric has no pairwise stage.
   */
  constructor(
    /** The metric whose sentence scores fill the matrix. */
    readonly metric: Metric,
    hyps: readonly string[],
    refs: readonly string[],
    options: PairwiseOptions = {},
  ) {
    this.stage = pairwiseStageOf(metric);
    this.tileRows = tileSize('tileRows', options.tileRows, DEFAULT_TILE_ROWS);
    this.tileColumns = tileSize('tileColumns', options.tileColumns, DEFAULT_TILE_COLUMNS);
    this.refs = this.stage.references(refs);
    this.hyps = this.stage.hypotheses(hyps, this.refs);
    this.rows = hyps.length;
    this.columns = refs.length;
  }

  /**
   * Scores of rows `[from, to)`: `(to - from) × columns` numbers, row-major (entry `(i - from) · columns + j`).
   * @throws RangeError for a range outside the rows.
   */
  scoreRows(from: number, to: number): Float64Array {
    if (!(Number.isInteger(from) && Number.isInteger(to) && from >= 0 && from <= to && to <= this.rows)) {
      throw new RangeError(`rows [${from}, ${to}) are not within the ${this.rows} hypotheses`);
    }
    const m = this.columns;
    const out = new Float64Array((to - from) * m);
    if (this.stage.scoreRows !== undefined) {
      // The stage scores whole rows itself (n-gram bags against the references' inverted index): no tiles.
      if (m > 0) this.stage.scoreRows(this.hyps, from, to, this.refs, out, 0);
      return out;
    }
    const width = this.stage.statsWidth;
    for (let i0 = from; i0 < to; i0 += this.tileRows) {
      const i1 = Math.min(to, i0 + this.tileRows);
      for (let j0 = 0; j0 < m; j0 += this.tileColumns) {
        const j1 = Math.min(m, j0 + this.tileColumns);
        const stats = this.stage.pairStats(this.hyps, i0, i1, this.refs, j0, j1);
        const tw = j1 - j0;
        for (let i = i0; i < i1; i++) {
          for (let j = j0; j < j1; j++) {
            out[(i - from) * m + j] = this.stage.score(stats, ((i - i0) * tw + (j - j0)) * width);
          }
        }
      }
    }
    return out;
  }
}

/**
 * The whole |hyps| × |refs| matrix of sentence scores, row-major: entry `i · refs.length + j` is the score of
 * `hyps[i]` against `refs[j]` alone.
 * @throws InputError `E_UNKNOWN_METRIC` when the metric has no pairwise stage.
 */
export function pairwiseScores(
  metric: Metric,
  hyps: readonly string[],
  refs: readonly string[],
  options: PairwiseOptions = {},
): Float64Array {
  const scorer = new PairwiseScorer(metric, hyps, refs, options);
  return scorer.scoreRows(0, scorer.rows);
}

/** A block of matrix rows from {@link pairwiseRowBlocks}. */
export interface PairwiseRowBlock {
  /** First row of the block. */
  readonly from: number;
  /** One past its last row. */
  readonly to: number;
  /** `(to - from) × columns` scores, row-major. */
  readonly scores: Float64Array;
}

/**
 * The matrix a block of `blockRows` rows at a time (memory bounded by the block, for matrices too big to hold).
 * @throws InputError `E_UNKNOWN_METRIC` when the metric has no pairwise stage.
 */
export function* pairwiseRowBlocks(
  metric: Metric,
  hyps: readonly string[],
  refs: readonly string[],
  options: PairwiseOptions & { readonly blockRows?: number } = {},
): Generator<PairwiseRowBlock> {
  const scorer = new PairwiseScorer(metric, hyps, refs, options);
  const block = tileSize('blockRows', options.blockRows, 256);
  for (let from = 0; from < scorer.rows; from += block) {
    const to = Math.min(scorer.rows, from + block);
    yield { from, to, scores: scorer.scoreRows(from, to) };
  }
}

/** Options of {@link mbrSelect}. */
export interface MbrOptions {
  /** Whether higher utilities are better (chrF, BLEU) or lower (TER). @default 'higher' */
  readonly direction?: 'higher' | 'lower';
  /**
   * Count each sample's score against itself as a pseudo-reference (only when the pseudo-references are the
   * samples: column `i` is sample `i`). @default false
   */
  readonly includeSelf?: boolean;
  /**
   * A non-negative weight per pseudo-reference (column), e.g. its model probability: a sample's expected utility is
   * then `Σ w_j · M[i][j] / Σ w_j` over its counted columns, both sums left to right. Undefined: uniform weights
   * (the plain mean).
   */
  readonly weights?: Float64Array;
}

/**
 * Checks pseudo-reference weights.
 * @throws RangeError for a count other than `columns`, or a weight that is negative or not finite.
 */
function checkWeights(w: Float64Array, columns: number): void {
  if (w.length !== columns) throw new RangeError(`${w.length} weights for ${columns} pseudo-references`);
  for (let j = 0; j < columns; j++) {
    if (!(w[j] >= 0 && Number.isFinite(w[j]))) throw new RangeError(`weight ${j + 1} is ${w[j]}, not a non-negative number`);
  }
}

/** The MBR choice of one segment. */
export interface MbrChoice {
  /** Index of the chosen sample (the lowest on ties). */
  readonly choice: number;
  /** Expected utility of every sample. */
  readonly utilities: Float64Array;
}

/**
 * Minimum Bayes risk selection over one segment's matrix of `rows` samples × `columns` pseudo-references
 * (row-major, as {@link pairwiseScores} gives it) with uniform weights. When the pseudo-references are the samples
 * themselves (`columns === rows`), each sample's self-pair is left out unless `includeSelf`; a sample's expected
 * utility is the mean of its row's other entries, summed left to right in column order. The choice is the best
 * utility in `direction`, the lowest index on ties.
 * @throws RangeError when the matrix does not have `rows × columns` entries, or no column is left for a row.
 */
export function mbrSelect(matrix: Float64Array, rows: number, columns: number, options: MbrOptions = {}): MbrChoice {
  if (matrix.length !== rows * columns) throw new RangeError(`a ${rows} × ${columns} matrix has ${rows * columns} entries, not ${matrix.length}`);
  const utilities = mbrRowUtilities(matrix, 0, rows, rows, columns, options);
  return { choice: rows === 0 ? -1 : mbrBest(utilities, options.direction ?? 'higher'), utilities };
}

/**
 * The expected utilities of rows `[from, to)` of one segment's matrix of `rows` samples × `columns`
 * pseudo-references, given those rows alone (`block`: `(to − from) × columns` entries, row-major): each row's
 * utility exactly as {@link mbrSelect} computes it (its self-pair, column `i` of row `i`, left out unless
 * `includeSelf`), so a matrix cut into blocks of rows gives the utilities of the whole.
 * @throws RangeError when the block does not have `(to − from) × columns` entries, self-pairs are left out and
 *   `rows !== columns`, no column is left for a row, a weight is bad, or a row's counted weights sum to zero (the
 *   first such row, numbered in the whole matrix).
 */
export function mbrRowUtilities(
  block: Float64Array, from: number, to: number, rows: number, columns: number, options: MbrOptions = {},
): Float64Array {
  if (!(Number.isInteger(from) && Number.isInteger(to) && from >= 0 && from <= to && to <= rows)) {
    throw new RangeError(`rows [${from}, ${to}) are not within the ${rows} samples`);
  }
  if (block.length !== (to - from) * columns) throw new RangeError(`${to - from} rows of ${columns} columns have ${(to - from) * columns} entries, not ${block.length}`);
  const skipSelf = !(options.includeSelf ?? false);
  if (skipSelf && rows !== columns) {
    throw new RangeError(`leaving self-pairs out needs the samples as pseudo-references (${rows} rows, ${columns} columns)`);
  }
  const count = skipSelf ? columns - 1 : columns;
  if (count < 1) throw new RangeError(`a sample needs at least one other pseudo-reference (${columns} columns)`);
  const w = options.weights;
  if (w !== undefined) checkWeights(w, columns);
  const utilities = new Float64Array(to - from);
  for (let i = from; i < to; i++) {
    const at = (i - from) * columns;
    let u: number;
    if (w === undefined) {
      let sum = 0;
      for (let j = 0; j < columns; j++) if (!(skipSelf && j === i)) sum += block[at + j];
      u = sum / count;
    } else {
      let sum = 0;
      let total = 0;
      for (let j = 0; j < columns; j++) {
        if (skipSelf && j === i) continue;
        sum += w[j] * block[at + j];
        total += w[j];
      }
      if (!(total > 0)) throw new RangeError(`the weights of sample ${i + 1}'s pseudo-references sum to zero`);
      u = sum / total;
    }
    utilities[i - from] = u;
  }
  return utilities;
}

/** The MBR choice among a segment's expected utilities: the best in `direction`, the lowest index on ties. */
export function mbrBest(utilities: Float64Array, direction: 'higher' | 'lower'): number {
  let choice = 0;
  for (let i = 1; i < utilities.length; i++) {
    if (direction === 'higher' ? utilities[i] > utilities[choice] : utilities[i] < utilities[choice]) choice = i;
  }
  return choice;
}

/**
 * One metric of a weighted utility ({@link mbrDecode}): the utility of a pair is `Σ_k sign_k · weight_k · s_k`, the
 * metrics' sentence scores on their own printed scale (chrF and BLEU 0–100, TER as its percentage), summed in the
 * order given.
 */
export interface UtilityTerm {
  readonly metric: Metric;
  /** A non-negative weight. */
  readonly weight: number;
  /** Whether the metric's higher scores are better (chrF, BLEU) or lower (TER, WER, PER). @default 'higher' */
  readonly direction?: 'higher' | 'lower';
}

/** A utility: one metric, or a weighted sum of metrics. */
export type Utility = Metric | readonly UtilityTerm[];

/** A utility resolved: each metric with its signed weight, and the direction of the sum. */
export interface ResolvedUtility {
  readonly terms: readonly { readonly metric: Metric; readonly factor: number }[];
  readonly direction: 'higher' | 'lower';
}

/**
 * Resolves a weighted sum of metrics. When every metric has one direction, the sum has it and each weight enters as
 * given; when higher-is-better and lower-is-better metrics are mixed, the sum is higher-is-better and each
 * lower-is-better metric enters with its weight negated (a lower TER raises the utility).
 * @throws InputError `E_BAD_OPTION` without metrics, for a weight that is negative or not finite, or weights that
 *   sum to zero.
 */
export function resolveUtility(terms: readonly UtilityTerm[]): ResolvedUtility {
  if (terms.length === 0) throw new InputError('E_BAD_OPTION', 'a utility needs at least one metric');
  let sum = 0;
  for (const t of terms) {
    if (!(Number.isFinite(t.weight) && t.weight >= 0)) {
      throw new InputError('E_BAD_OPTION', `the weight of ${t.metric.id} is ${t.weight}, not a non-negative number`);
    }
    sum += t.weight;
  }
  if (!(sum > 0)) throw new InputError('E_BAD_OPTION', 'the utility weights sum to zero');
  const lower = terms.map((t) => (t.direction ?? 'higher') === 'lower');
  const mixed = lower.some((l) => l) && lower.some((l) => !l);
  return {
    terms: terms.map((t, k) => ({ metric: t.metric, factor: mixed && lower[k] ? -t.weight : t.weight })),
    direction: !mixed && lower[0] ? 'lower' : 'higher',
  };
}

/**
 * The utility matrix of one set of hypotheses against references: with one term of factor 1, the metric's own
 * sentence scores (`pairwiseScores`); otherwise entry by entry `Σ_k factor_k · s_k`, added in term order.
 */
export function utilityScores(
  utility: ResolvedUtility, hyps: readonly string[], refs: readonly string[], options: PairwiseOptions = {},
): Float64Array {
  const { terms } = utility;
  if (terms.length === 1 && terms[0].factor === 1) return pairwiseScores(terms[0].metric, hyps, refs, options);
  const out = new Float64Array(hyps.length * refs.length);
  for (const { metric, factor } of terms) {
    const m = pairwiseScores(metric, hyps, refs, options);
    for (let e = 0; e < out.length; e++) out[e] += factor * m[e];
  }
  return out;
}

/**
 * One segment's utility matrix a block of rows at a time, every text prepared once (one {@link PairwiseScorer} per
 * metric of the utility): each entry is that of {@link utilityScores} for the whole segment, so blocks of rows
 * (a big segment cut into tasks of a pool) put together are its matrix, and their {@link mbrRowUtilities} its
 * utilities.
 */
export class UtilityRows {
  /** Samples (rows) and pseudo-references (columns). */
  readonly rows: number;
  readonly columns: number;
  private readonly scorers: readonly { readonly scorer: PairwiseScorer; readonly factor: number }[];

  /**
   * Tokenizes the hypotheses and references once per metric.
   * @throws InputError `E_UNKNOWN_METRIC` when a metric has no pairwise stage.
   */
  constructor(utility: ResolvedUtility, hyps: readonly string[], refs: readonly string[], options: PairwiseOptions = {}) {
    this.scorers = utility.terms.map(({ metric, factor }) => ({ scorer: new PairwiseScorer(metric, hyps, refs, options), factor }));
    this.rows = hyps.length;
    this.columns = refs.length;
  }

  /**
   * Utilities of rows `[from, to)`: `(to − from) × columns` entries, row-major; with one metric of factor 1 its
   * scores, otherwise entry by entry `Σ_k factor_k · s_k`, added in term order (as {@link utilityScores}).
   * @throws RangeError for a range outside the rows.
   */
  scoreRows(from: number, to: number): Float64Array {
    const { scorers } = this;
    if (scorers.length === 1 && scorers[0].factor === 1) return scorers[0].scorer.scoreRows(from, to);
    const out = new Float64Array((to - from) * this.columns);
    for (const { scorer, factor } of scorers) {
      const m = scorer.scoreRows(from, to);
      for (let e = 0; e < out.length; e++) out[e] += factor * m[e];
    }
    return out;
  }
}

/**
 * A utility as its signed terms and direction: a weighted sum resolved by {@link resolveUtility}; a single metric,
 * one term of factor 1 in `direction` (default higher is better).
 * @throws InputError as {@link resolveUtility} does, for a weighted sum.
 */
export function resolvedUtilityOf(utility: Utility, direction?: 'higher' | 'lower'): ResolvedUtility {
  if (Array.isArray(utility)) return resolveUtility(utility as readonly UtilityTerm[]);
  return { terms: [{ metric: utility as Metric, factor: 1 }], direction: direction ?? 'higher' };
}

/**
 * A metric of a utility by name, as a command line gives it (`-m chrf:0.5`): weight undefined for a plain metric.
 * What pool workers receive to build the same utility in their thread.
 */
export interface UtilitySpec {
  readonly metric: string;
  readonly weight: number | undefined;
  readonly direction: 'higher' | 'lower';
}

/**
 * The utility of specs, each metric built by `create`: one metric without a weight is that metric (its own
 * scores, exactly); otherwise the weighted sum of {@link resolveUtility}.
 */
export function utilityFromSpecs(specs: readonly UtilitySpec[], create: (id: string) => Metric): Utility {
  if (specs.length === 1 && specs[0].weight === undefined) return create(specs[0].metric);
  return specs.map((t) => ({ metric: create(t.metric), weight: t.weight ?? 1, direction: t.direction }));
}

/** Options of {@link mbrDecode}. */
export interface MbrDecodeOptions extends MbrOptions, PairwiseOptions {
  /**
   * Pseudo-reference streams (`pseudoRefs[r][s]` = pseudo-reference `r` of segment `s`), or undefined for the
   * samples themselves. With separate pseudo-references every pair counts (there is no self-pair to leave out).
   */
  readonly pseudoRefs?: readonly (readonly string[])[];
  /**
   * Weight streams, one per pseudo-reference (`weights[r][s]` = weight of pseudo-reference `r` in segment `s`), or
   * undefined for uniform weights ({@link MbrOptions.weights}).
   */
  readonly weightStreams?: readonly (readonly number[])[];
  /** Receives each segment's matrix (rows × columns, row-major) before it is reduced, e.g. to write it out. */
  readonly onMatrix?: (segment: number, matrix: Float64Array, rows: number, columns: number) => void;
  /**
   * Reference aggregation (Vamvas & Sennrich 2024), an approximation: each sample is scored once, against one
   * aggregate pseudo-reference whose n-gram counts (every order, characters and words for chrF) and n-gram totals
   * are the weighted means of the pseudo-references' (uniform, or `weightStreams`), leaving the sample's own out
   * when the samples are the pseudo-references and self-pairs are left out; BLEU's reference length is the mean
   * length, and its matches are clipped to the fractional mean counts. Each metric of the utility needs
   * aggregation (chrF, chrF++, BLEU); there is no matrix (`onMatrix` is not called). @default false
   */
  readonly aggregate?: boolean;
}

function streamLength(what: string, streams: readonly (readonly unknown[])[]): number {
  if (streams.length === 0) throw new InputError('E_EMPTY_INPUT', `MBR needs at least one ${what} stream`);
  const n = streams[0].length;
  streams.forEach((s, k) => {
    if (s.length !== n) {
      throw new InputError('E_LINE_COUNT_MISMATCH', `${what} stream ${k + 1} has ${s.length} lines, ${what} stream 1 has ${n}`);
    }
  });
  return n;
}

/**
 * Expected utilities by reference aggregation (see {@link MbrDecodeOptions.aggregate}): per term the stage's
 * aggregate scores, summed with the terms' factors in term order.
 * @throws RangeError when the weights counted for a sample sum to zero.
 */
function aggregateUtilities(
  utility: ResolvedUtility, hyps: readonly string[], refs: readonly string[], weights: Float64Array | undefined, leaveOutSelf: boolean,
): Float64Array {
  const out = new Float64Array(hyps.length);
  for (const { metric, factor } of utility.terms) {
    const stage = pairwiseStageOf(metric);
    const preparedRefs = stage.references(refs);
    const u = stage.aggregateScores!(stage.hypotheses(hyps, preparedRefs), preparedRefs, { weights, leaveOutSelf });
    if (utility.terms.length === 1 && factor === 1) return u;
    for (let i = 0; i < out.length; i++) out[i] += factor * u[i];
  }
  return out;
}

/**
 * Minimum Bayes risk decoding of every segment: `samples[k][s]` is sample `k` of segment `s` (one stream per
 * sample, all of one length); each segment's samples are scored against its pseudo-references (the samples
 * themselves unless `pseudoRefs`) with {@link utilityScores} (one metric: {@link pairwiseScores}; a weighted sum:
 * {@link resolveUtility}) and reduced by {@link mbrSelect}, or scored against the aggregate pseudo-reference
 * (`aggregate`). One segment's matrix at a time. A single metric's direction is `options.direction`; a weighted
 * sum's is its terms'.
 * @throws InputError `E_EMPTY_INPUT` without streams, `E_LINE_COUNT_MISMATCH` when streams differ in length,
 *   `E_BAD_INPUT` when the samples are their own pseudo-references, self-pairs are left out and there is one sample,
 *   or a segment's weights sum to zero (its line), `E_UNKNOWN_METRIC` when a metric has no pairwise stage (or no
 *   aggregation, with `aggregate`), `E_BAD_OPTION` for bad utility weights.
 */
export function mbrDecode(utility: Utility, samples: readonly (readonly string[])[], options: MbrDecodeOptions = {}): MbrChoice[] {
  const segments = streamLength('sample', samples);
  const pseudo = options.pseudoRefs;
  if (pseudo !== undefined && streamLength('pseudo-reference', pseudo) !== segments) {
    throw new InputError('E_LINE_COUNT_MISMATCH', `the pseudo-references have ${pseudo[0].length} lines, the samples ${segments}`);
  }
  const includeSelf = pseudo !== undefined || (options.includeSelf ?? false);
  if (!includeSelf && samples.length < 2) {
    throw new InputError('E_BAD_INPUT', 'MBR with the samples as pseudo-references needs at least two samples (or self-pairs included)');
  }
  const columns = pseudo === undefined ? samples.length : pseudo.length;
  const weightStreams = options.weightStreams;
  if (weightStreams !== undefined) {
    if (weightStreams.length !== columns) {
      throw new InputError('E_BAD_INPUT', `${weightStreams.length} weight streams for ${columns} pseudo-references`);
    }
    if (streamLength('weight', weightStreams) !== segments) {
      throw new InputError('E_LINE_COUNT_MISMATCH', `the weights have ${weightStreams[0].length} lines, the samples ${segments}`);
    }
  }
  const resolved = resolvedUtilityOf(utility, options.direction);
  for (const { metric } of resolved.terms) {
    const stage = pairwiseStageOf(metric);
    if (options.aggregate && stage.aggregateScores === undefined) {
      throw new InputError('E_UNKNOWN_METRIC', `metric "${metric.id}" has no reference aggregation (chrf and bleu have)`);
    }
  }
  const out: MbrChoice[] = [];
  for (let s = 0; s < segments; s++) {
    const hyps = samples.map((stream) => stream[s]);
    const refs = pseudo === undefined ? hyps : pseudo.map((stream) => stream[s]);
    const weights = weightStreams === undefined ? undefined : Float64Array.from(weightStreams, (stream) => stream[s]);
    try {
      if (options.aggregate) {
        if (weights !== undefined) checkWeights(weights, refs.length);
        const utilities = aggregateUtilities(resolved, hyps, refs, weights, !includeSelf);
        out.push({ choice: mbrBest(utilities, resolved.direction), utilities });
        continue;
      }
      const matrix = utilityScores(resolved, hyps, refs, options);
      options.onMatrix?.(s, matrix, hyps.length, refs.length);
      out.push(mbrSelect(matrix, hyps.length, refs.length, { direction: resolved.direction, includeSelf, weights }));
    } catch (err) {
      if (!(err instanceof RangeError) || weights === undefined) throw err;
      throw new InputError('E_BAD_INPUT', `segment ${s + 1}: ${err.message}`, { line: s + 1 });
    }
  }
  return out;
}

/**
 * What IMPACT and the NP-chunk metric share: parameter checks, reference preparation (chunked and interned once),
 * statistics rows of sentence scores, and the corpus score as the mean of the sentence scores.
 *
 * Both metrics are sentence-level methods (seed 003 §3 correlates sentence scores); Palette's corpus score is the
 * arithmetic mean of the sentence scores. Every column of a row is a per-sentence value plus a final `segments`
 * column of 1, so the column sums divided by `segments` are the means the corpus score needs, and a row alone is the
 * sentence score.
 */
import { badOption } from '../../errors.js';
import { Vocabulary } from '../../text/intern.js';
import type { NpChunker } from '../../text/chunk/index.js';
import { checkHypothesisCount, checkReferenceStreams, type Metric, type MetricScore, type PreparedReferences } from '../metric.js';
import { formatSignature, type SignatureField } from '../signature.js';
import { chunkLines, type ChunkedCorpus } from './chunked-corpus.js';
import { SegmentScorer, type NpChunkParams, type SegmentResult } from './segment-scorer.js';
import { checkStatsWidth } from '../stats-width.js';

/** The seed paper's parameter values (§3.1: α = 0.1, β = 1.1, δ = 0.3, tuned on Reuters English). */
export const NPCHUNK_DEFAULTS = { alpha: 0.1, beta: 1.1, delta: 0.3 } as const;

/** Parameters shared by IMPACT and the NP-chunk metric. */
export interface ImpactOptions {
  /** α, the weight α^i of round i (eqs. 3–4), 0 ≤ α ≤ 1. @default 0.1 */
  readonly alpha?: number;
  /** β, the length weighting of common parts (eqs. 1, 3–4), β ≥ 1. @default 1.1 */
  readonly beta?: number;
  /** RN, the last round counted (0-based), an integer ≥ 0. @default until no common word is left */
  readonly rounds?: number;
  /** Compare words case-insensitively (Python `str.lower()`, after chunking). @default false */
  readonly lowercase?: boolean;
}

/** Checked parameters. */
export function resolveParams(options: ImpactOptions & { delta?: number }): NpChunkParams {
  const alpha = options.alpha ?? NPCHUNK_DEFAULTS.alpha;
  const beta = options.beta ?? NPCHUNK_DEFAULTS.beta;
  const delta = options.delta ?? NPCHUNK_DEFAULTS.delta;
  if (typeof alpha !== 'number' || !(alpha >= 0 && alpha <= 1)) throw badOption('alpha', 'a number from 0 to 1', alpha);
  if (typeof beta !== 'number' || !(beta >= 1) || !Number.isFinite(beta)) throw badOption('beta', 'a finite number >= 1', beta);
  if (typeof delta !== 'number' || !(delta >= 0) || !Number.isFinite(delta)) throw badOption('delta', 'a finite number >= 0', delta);
  const rounds = options.rounds;
  if (rounds !== undefined && !(Number.isSafeInteger(rounds) && rounds >= 0)) {
    throw badOption('rounds', 'an integer >= 0', rounds);
  }
  return { alpha, beta, delta, maxRound: rounds ?? Infinity };
}

/** References of IMPACT / the NP-chunk metric: chunked and interned, segment-major (`i·nRefs + j`). */
export interface ChunkedReferences extends PreparedReferences {
  /** References per segment. */
  readonly nRefs: number;
  /** The sentences. */
  readonly refs: ChunkedCorpus;
  /** Word ids of the references; hypotheses are looked up in it. */
  readonly vocab: Vocabulary;
}

/** The common part of {@link Impact} and {@link NpChunk}. */
export abstract class ChunkMetric implements Metric<ChunkedReferences> {
  abstract readonly id: string;
  abstract readonly statsWidth: number;
  abstract readonly statsColumns: readonly string[];
  /** The checked parameters. */
  readonly params: NpChunkParams;
  /** Whether words are lowercased. */
  readonly lowercase: boolean;
  private readonly scorer: SegmentScorer;
  private readonly result: SegmentResult = { score: 0, wordScore: 0, phraseScore: 0, wordRecall: 0, wordPrecision: 0 };

  protected constructor(
    options: ImpactOptions & { delta?: number },
    protected readonly chunker: NpChunker | null,
  ) {
    this.params = resolveParams(options);
    if (options.lowercase !== undefined && typeof options.lowercase !== 'boolean') {
      throw badOption('lowercase', 'a boolean', options.lowercase);
    }
    this.lowercase = options.lowercase ?? false;
    this.scorer = new SegmentScorer(this.params, chunker !== null);
  }

  /** Signature: `nrefs`, the metric's fields, `version`. */
  signature(nRefs: number, short = false): string {
    return formatSignature({ nRefs }, this.signatureFields(), short);
  }

  protected signatureFields(): SignatureField[] {
    const { alpha, beta, maxRound } = this.params;
    return [
      { key: 'case', abbr: 'c', value: this.lowercase ? 'lc' : 'mixed' },
      { key: 'alpha', abbr: 'a', value: alpha },
      { key: 'beta', abbr: 'b', value: beta },
      { key: 'rn', abbr: 'rn', value: Number.isFinite(maxRound) ? maxRound : 'all' },
    ];
  }

  /**
   * Chunks and interns the references.
   * @throws InputError `E_EMPTY_INPUT`, `E_LINE_COUNT_MISMATCH`, or the chunker's `E_BAD_INPUT` at the segment's line.
   */
  prepareReferences(refStreams: readonly (readonly string[])[]): ChunkedReferences {
    const segments = checkReferenceStreams(this.id, refStreams);
    const nRefs = refStreams.length;
    const lines: string[] = new Array<string>(segments * nRefs);
    for (let i = 0; i < segments; i++) for (let j = 0; j < nRefs; j++) lines[i * nRefs + j] = refStreams[j][i];
    const vocab = new Vocabulary();
    const refs = chunkLines(lines, this.chunker, vocab, true, (k) => Math.floor(k / nRefs) + 1, this.lowercase);
    return { segments, nRefs, refs, vocab };
  }

  /**
   * One row of sentence values per hypothesis.
   * @throws InputError `E_LINE_COUNT_MISMATCH`, or the chunker's `E_BAD_INPUT` at the hypothesis's line.
   */
  segmentStats(hyps: readonly string[], refs: ChunkedReferences): Float64Array {
    return this.statsOfChunked(this.chunkHypotheses(hyps, refs), refs);
  }

  /** Rows for hypotheses chunked already (benchmarks time chunking and scoring apart). */
  statsOfChunked(hyps: ChunkedCorpus, refs: ChunkedReferences): Float64Array {
    const width = this.statsWidth;
    const out = new Float64Array(refs.segments * width);
    const r = this.result;
    for (let i = 0; i < refs.segments; i++) {
      this.scorer.score(hyps, i, refs.refs, i * refs.nRefs, (i + 1) * refs.nRefs, r);
      this.writeRow(r, out, i * width);
    }
    return out;
  }

  /** Chunks and interns hypotheses against prepared references (the first half of {@link segmentStats}). */
  chunkHypotheses(hyps: readonly string[], refs: ChunkedReferences): ChunkedCorpus {
    checkHypothesisCount(hyps, refs.segments);
    return chunkLines(hyps, this.chunker, refs.vocab, false, undefined, this.lowercase);
  }

  /** The scorer (its word search traces the last pair: tests and worked examples). */
  get segmentScorer(): SegmentScorer {
    return this.scorer;
  }

  /** Corpus score: the mean of the sentence scores. */
  scoreFromStats(totals: Float64Array): MetricScore {
    return this.toScore(totals);
  }

  /** Sentence score from one row. */
  sentenceScoreFromStats(row: Float64Array): MetricScore {
    return this.toScore(row);
  }

  private toScore(stats: Float64Array): MetricScore {
    checkStatsWidth(this.id, stats, this.statsWidth);
    const segments = stats[this.statsWidth - 1];
    const means = this.statsColumns.slice(0, -1).map((_, c) => (segments === 0 ? 0 : stats[c] / segments));
    return this.scoreOf(means, segments);
  }

  protected abstract writeRow(r: SegmentResult, out: Float64Array, at: number): void;
  protected abstract scoreOf(means: readonly number[], segments: number): MetricScore;
}

/** `0.1234` with 4 decimals, as the paper prints. */
export function fourDecimals(x: number): string {
  return x.toFixed(4);
}

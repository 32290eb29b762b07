/**
 * The NP-chunk metric of Echizen-ya & Araki 2010 (seed 003 §2): noun phrases of hypothesis and reference are
 * chunked, corresponding phrases found by a PER-based F-measure (mutual best, above 0; ./correspondence.ts),
 * the LCS route of every round chosen by the route score with words of corresponding phrases weighing 2
 * (./common-parts.ts), and the final score combines the word level (eqs. 3–8) and the phrase level on the
 * phrase-generalised sentences (eqs. 9–12) as score = (score_wd + δ·score_np)/(1 + δ) (eq. 13; the seed's §2.4).
 * Defaults are the paper's experimental values α = 0.1, β = 1.1, δ = 0.3; its worked example uses α = 0.5, β = 2.0,
 * δ = 0.7 and gives 0.4185.
 *
 * The chunker is pluggable (src/text/chunk/): `compromise` by default, `bracketed` for pre-chunked `[NP … ]` input
 * (then scores depend on no chunker). Words are whitespace-separated and compared case-sensitively unless
 * `lowercase` (applied after chunking, so the chunker sees the case).
 *
 * The corpus score is the mean of the sentence scores (the paper's is a sentence-level method); statistics row:
 * `score, wordScore, phraseScore, wordRecall, wordPrecision, segments` (./chunk-metric.ts).
 */
import { createChunker, DEFAULT_CHUNKER, type NpChunker } from '../../text/chunk/index.js';
import type { MetricScore } from '../metric.js';
import { ChunkMetric, fourDecimals, type ImpactOptions } from './chunk-metric.js';
import type { SegmentResult } from './segment-scorer.js';
import type { SignatureField } from '../signature.js';

/** Options of {@link NpChunk}. */
export interface NpChunkOptions extends ImpactOptions {
  /** δ of eq. 13, the weight of the phrase level, ≥ 0. @default 0.3 */
  readonly delta?: number;
  /** A chunker name (`compromise`, `bracketed`) or an {@link NpChunker}. @default 'compromise' */
  readonly chunker?: string | NpChunker;
}

/** Column names of an NP-chunk statistics row. */
export const NPCHUNK_STATS_COLUMNS = ['score', 'wordScore', 'phraseScore', 'wordRecall', 'wordPrecision', 'segments'] as const;

/** The NP-chunk metric. */
export class NpChunk extends ChunkMetric {
  /** Metric id as given to `-m`. */
  readonly id = 'npchunk';
  /** 6. */
  readonly statsWidth = NPCHUNK_STATS_COLUMNS.length;
  /** {@link NPCHUNK_STATS_COLUMNS}. */
  readonly statsColumns: readonly string[] = NPCHUNK_STATS_COLUMNS;

  /** @throws InputError `E_BAD_OPTION` for an unknown chunker or a parameter out of range. */
  constructor(options: NpChunkOptions = {}) {
    super(options, createChunker(options.chunker ?? DEFAULT_CHUNKER));
  }

  protected override signatureFields(): SignatureField[] {
    return [
      { key: 'chunker', abbr: 'ch', value: this.chunker!.name },
      ...super.signatureFields(),
      { key: 'delta', abbr: 'd', value: this.params.delta },
    ];
  }

  protected writeRow(r: SegmentResult, out: Float64Array, at: number): void {
    out[at] = r.score;
    out[at + 1] = r.wordScore;
    out[at + 2] = r.phraseScore;
    out[at + 3] = r.wordRecall;
    out[at + 4] = r.wordPrecision;
    out[at + 5] = 1;
  }

  protected scoreOf(means: readonly number[], segments: number): MetricScore {
    const [score, wordScore, phraseScore, wordRecall, wordPrecision] = means;
    return {
      name: 'NPCHUNK',
      score,
      verboseScore:
        `(word = ${fourDecimals(wordScore)}, phrase = ${fourDecimals(phraseScore)}, ` +
        `R_wd = ${fourDecimals(wordRecall)}, P_wd = ${fourDecimals(wordPrecision)}, segments = ${segments})`,
      details: { wordScore, phraseScore, wordRecall, wordPrecision, segments },
    };
  }
}

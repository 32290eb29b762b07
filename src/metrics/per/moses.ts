/**
 * PER as Moses MERT's `PerScorer` writes its statistics (mert/PerScorer.cpp), what `extractor --sctype PER` puts in
 * SCORES_TXT: `correct hypLength refLength` per candidate, the row of Palette's PER (./per.ts) against Moses' single
 * reference, with Moses' words: a line cut at ASCII spaces (a tab stays inside its word), `case:false` lowering
 * ASCII letters only (C's `tolower`).
 *
 * Those three numbers are Moses BLEU's order-1 statistics against one reference: clipped unigram matches (the
 * multiset intersection, `correct`), hypothesis unigrams (its length) and the reference length (the only reference's,
 * whatever the strategy). So the rows come from Moses BLEU of order 1 (../bleu/moses-metric.ts, its token stage
 * included): Moses' own word split and case, and no second copy of the counting.
 *
 * Scores: PER = 1 − (correct − max(0, n − m)) / m, as ./per.ts (Moses' `calculateScore` reports 1 − PER in single
 * precision). Moses refuses more than one reference; so does {@link MosesPer.prepareReferences}.
 */
import { InputError } from '../../errors.js';
import { MosesBleu, type MosesBleuReferences } from '../bleu/moses-metric.js';
import type { Metric, MetricScore } from '../metric.js';
import { mosesWordSignature } from '../bleu/moses.js';
import { checkStatsWidth } from '../stats-width.js';
import type { TokenStage } from '../token-stage.js';
import { PER_STATS_COLUMNS, perScoreOfStats } from './per.js';

/** Options of {@link MosesPer}. */
export interface MosesPerOptions {
  /** Lowercase ASCII letters (Moses `case:false`). @default false */
  readonly lowercase?: boolean;
}

/** Moses' PER statistics (see the file comment). */
export class MosesPer implements Metric<MosesBleuReferences> {
  readonly id = 'per-moses';
  /** 3. */
  readonly statsWidth = PER_STATS_COLUMNS.length;
  /** `correct, hypLength, refLength`. */
  readonly statsColumns: readonly string[] = PER_STATS_COLUMNS;
  readonly lowercase: boolean;
  private readonly unigrams: MosesBleu;

  constructor(options: MosesPerOptions = {}) {
    this.lowercase = options.lowercase ?? false;
    this.unigrams = new MosesBleu({ maxNgramOrder: 1, lowercase: this.lowercase });
  }

  /** `nrefs:1|case:…|tok:space|flavor:moses|version:…`. */
  signature(nRefs: number, short = false): string {
    return mosesWordSignature(this.lowercase, nRefs, short);
  }

  /**
   * Moses' words of the single reference stream.
   * @throws InputError `E_BAD_OPTION` for more than one reference stream (Moses' PerScorer takes one).
   */
  prepareReferences(refStreams: readonly (readonly string[])[]): MosesBleuReferences {
    if (refStreams.length > 1) {
      throw new InputError('E_BAD_OPTION', `Moses' PER takes a single reference (got ${refStreams.length})`);
    }
    return this.unigrams.prepareReferences(refStreams);
  }

  /** `correct hypLength refLength` of `hyps[i]` against segment `i`'s reference. */
  segmentStats(hyps: readonly string[], refs: MosesBleuReferences): Float64Array {
    return this.unigrams.segmentStats(hyps, refs);
  }

  /** Moses BLEU's order-1 token stage: the same rows on the n-best fast path. */
  tokenStage(): TokenStage | undefined {
    return this.unigrams.tokenStage();
  }

  scoreFromStats(totals: Float64Array): MetricScore {
    checkStatsWidth('Moses PER', totals, this.statsWidth);
    return perScoreOfStats(totals);
  }

  sentenceScoreFromStats(row: Float64Array): MetricScore {
    checkStatsWidth('Moses PER', row, this.statsWidth);
    return perScoreOfStats(row);
  }
}

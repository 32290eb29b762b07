/**
 * WER as Moses MERT's `CderScorer` without long jumps writes its statistics (mert/CderScorer.cpp, `--sctype WER`):
 * `edits refLength` per candidate, the word-level Levenshtein distance to the chosen reference and that reference's
 * length, with Moses' words (a line cut at ASCII spaces, `case:false` lowering ASCII letters only; the words of
 * ../bleu/moses.ts).
 *
 * With several references Moses keeps the first unless a later one has a higher score, where a reference's score is
 * `1 − edits / refLength` in single precision (1 for an empty reference) *truncated to an integer*: in practice the
 * first reference, unless a later one is matched exactly (or the first is worse than twice its length). Palette's
 * WER (./wer.ts) picks the reference with the fewest edits instead, so the rows here choose as Moses does; the
 * distances are the edit kernel's (src/wasm/edit.ts), the same as Palette's WER counts.
 *
 * Scores: edits / refLength summed (Moses' `calculateScore` reports 1 − that in single precision; 1 when the
 * references are empty).
 */
import { csrLength } from '../../text/csr.js';
import { editDistances } from '../../wasm/edit.js';
import { mosesCandidateTokens, mosesWordSignature, prepareMosesReferences, type MosesReferences } from '../bleu/moses.js';
import { spaceChunkTokenizer } from '../bleu/moses-token-stage.js';
import { checkHypothesisCount, checkReferenceStreams, type Metric, type MetricScore, type PreparedReferences } from '../metric.js';
import { checkStatsWidth } from '../stats-width.js';
import { identitySegments, type TokenBatch, type TokenStage } from '../token-stage.js';

/** Column names of a Moses WER row. */
export const MOSES_WER_COLUMNS = ['edits', 'refLength'] as const;

/** References prepared for {@link MosesWer}. */
export interface MosesWerReferences extends PreparedReferences, MosesReferences {}

/** Options of {@link MosesWer}. */
export interface MosesWerOptions {
  /** Lowercase ASCII letters (Moses `case:false`). @default false */
  readonly lowercase?: boolean;
}

/**
 * Writes the Moses WER row of every candidate of `batch` at `out[h · stride + column ..]`: edits to, and length
 * of, the reference Moses chooses (see the file comment).
 */
export function writeMosesWerRows(batch: TokenBatch, out: Float64Array, column: number, stride: number): void {
  // Read at once: the engine's reusable stores rather than new arrays per batch.
  const { distances, rowOffsets } = editDistances(batch, { reuse: true });
  const n = batch.hypSegment.length;
  for (let h = 0; h < n; h++) {
    const first = batch.segRefOffsets[batch.hypSegment[h]];
    let best = -Infinity;
    for (let k = 0; k < rowOffsets[h + 1] - rowOffsets[h]; k++) {
      const edits = distances[rowOffsets[h] + k];
      const length = csrLength(batch.refs, first + k);
      // CderScorer::calculateScore in float, then stored in an int.
      const score = length === 0 ? 1 : Math.trunc(Math.fround(1 - Math.fround(edits / length)));
      if (k === 0 || score > best) {
        best = score;
        out[h * stride + column] = edits;
        out[h * stride + column + 1] = length;
      }
    }
  }
}

/** Moses' WER statistics (see the file comment). */
export class MosesWer implements Metric<MosesWerReferences> {
  readonly id = 'wer-moses';
  /** 2. */
  readonly statsWidth = MOSES_WER_COLUMNS.length;
  /** `edits, refLength`. */
  readonly statsColumns: readonly string[] = MOSES_WER_COLUMNS;
  readonly lowercase: boolean;

  constructor(options: MosesWerOptions = {}) {
    this.lowercase = options.lowercase ?? false;
  }

  /** `nrefs:N|case:…|tok:space|flavor:moses|version:…`. */
  signature(nRefs: number, short = false): string {
    return mosesWordSignature(this.lowercase, nRefs, short);
  }

  prepareReferences(refStreams: readonly (readonly string[])[]): MosesWerReferences {
    checkReferenceStreams('WER', refStreams);
    return prepareMosesReferences(refStreams, { lowercase: this.lowercase });
  }

  segmentStats(hyps: readonly string[], refs: MosesWerReferences): Float64Array {
    checkHypothesisCount(hyps, refs.segments);
    const batch = {
      hyps: mosesCandidateTokens(hyps, refs),
      hypSegment: identitySegments(hyps.length),
      refs: refs.refs,
      segRefOffsets: refs.segRefOffsets,
    };
    const out = new Float64Array(hyps.length * this.statsWidth);
    writeMosesWerRows(batch, out, 0, this.statsWidth);
    return out;
  }

  /** Moses' split as the n-best fast path's tokens (not with `case:false`, which changes the text first). */
  tokenStage(): TokenStage | undefined {
    if (this.lowercase) return undefined;
    return { tokenizerKey: 'space', createTokenizer: spaceChunkTokenizer, writeRows: writeMosesWerRows };
  }

  scoreFromStats(totals: Float64Array): MetricScore {
    checkStatsWidth('Moses WER', totals, this.statsWidth);
    return this.scoreOf(totals);
  }

  sentenceScoreFromStats(row: Float64Array): MetricScore {
    checkStatsWidth('Moses WER', row, this.statsWidth);
    return this.scoreOf(row);
  }

  private scoreOf(stats: Float64Array): MetricScore {
    const [edits, refLength] = stats;
    const score = refLength === 0 ? 0 : edits / refLength;
    return {
      name: 'WER',
      score,
      verboseScore: `(edits = ${edits}, ref words = ${refLength})`,
      details: { wer: score, edits, refLength },
    };
  }
}

/**
 * GTM, the General Text Matcher (Turian, Shen & Melamed 2003, "Evaluation of machine translation and its
 * evaluation"): precision and recall of the maximum matching of hypothesis and reference words in which runs of
 * contiguous matches count more, and their F-measure.
 *
 * A matching pairs each hypothesis word with at most one equal reference word and vice versa; its runs are maximal
 * diagonals of pairs (i, j), (i+1, j+1), …; with runs of lengths L_k, its size is MMS = (Σ L_k^e)^(1/e). Then
 * P = MMS / n, R = MMS / m and F = 2PR / (P + R) (0 when P + R = 0). What Palette computes, exactly:
 *   - e = 1: the maximum matching size, Σ_w min(count_hyp(w), count_ref(w)) (exact; order plays no part);
 *   - e > 1: the maximum is NP-hard, and, as GTM's own tool, Palette takes runs greedily: repeatedly the longest
 *     diagonal of free equal-word pairs (rows and columns not used yet) — on ties the one starting at the smallest
 *     hypothesis position, then the smallest reference position — until none is left (`assembly/gtm.ts`). The tool's
 *     own tie-breaking is not documented, so its numbers can differ where equally long runs compete;
 *   - run weights L^e are `Math.pow(L, e)`, summed longest run first; the root is the identity for e = 1,
 *     `Math.sqrt` for e = 2, `Math.cbrt` for e = 3 and `Math.pow(x, 1 / e)` otherwise (so that a perfect match scores
 *     exactly 1 for the exponents of the literature).
 * The corpus is one grid whose blocks are the lines (runs never cross a line boundary, as in GTM's document-level
 * score): Σ L^e, n and m are summed over the lines before the root is taken.
 *
 * With several references, each line is counted against the reference with the highest F, the first one on ties.
 *
 * Statistics row (width 4): `runWeight` (Σ L^e), `matched` (Σ L), `hypLength`, `refLength`.
 */
import { badOption } from '../../errors.js';
import { pyFixed } from '../../util/py-fixed.js';
import { gtmRunStats } from '../../wasm/edit.js';
import { WordMetric } from '../edit/word-metric.js';
import type { EditReferences, EditTokenizer } from '../edit/words.js';
import type { MetricScore } from '../metric.js';
import type { SignatureField } from '../signature.js';

/** Options of {@link Gtm}. */
export interface GtmOptions {
  /** Run exponent e (seed paper 000 uses 1, 2 and 3). @default 1 */
  readonly exponent?: number;
  /**
   * How lines become words: a sacrebleu tokenizer name (that tokenizer, then a Python whitespace split; `none` = the
   * split alone) or `jiwer` (jiwer's `wer_default`).
   * @default 'none'
   */
  readonly tokenize?: EditTokenizer;
  /** Lowercase both sides first (Python `str.lower()`). @default false */
  readonly lowercase?: boolean;
}

/** Column names of a GTM statistics row. */
export const GTM_STATS_COLUMNS = ['runWeight', 'matched', 'hypLength', 'refLength'] as const;

/** The e-th root as Palette takes it (see the file comment). */
function root(x: number, exponent: number): number {
  if (exponent === 1) return x;
  if (exponent === 2) return Math.sqrt(x);
  if (exponent === 3) return Math.cbrt(x);
  return Math.pow(x, 1 / exponent);
}

/** GTM precision, recall and F of a run weight Σ L^e against n hypothesis and m reference words. */
export function gtmFromStats(
  runWeight: number,
  hypLength: number,
  refLength: number,
  exponent: number,
): { mms: number; precision: number; recall: number; f: number } {
  const mms = root(runWeight, exponent);
  const precision = hypLength > 0 ? mms / hypLength : 0;
  const recall = refLength > 0 ? mms / refLength : 0;
  const f = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { mms, precision, recall, f };
}

/** The General Text Matcher's F-measure. */
export class Gtm extends WordMetric {
  /** Metric id as given to `-m`. */
  readonly id = 'gtm';
  /** Run exponent e. */
  readonly exponent: number;
  /** 4. */
  readonly statsWidth = GTM_STATS_COLUMNS.length;
  /** {@link GTM_STATS_COLUMNS}. */
  readonly statsColumns: readonly string[] = GTM_STATS_COLUMNS;
  protected readonly label = 'GTM';

  /** @throws InputError `E_BAD_OPTION` for an exponent that is not ≥ 1 and finite, or a bad word split or case. */
  constructor(options: GtmOptions = {}) {
    const exponent = options.exponent ?? 1;
    // e < 1 would reward splitting runs, the opposite of what GTM measures; the paper's family starts at 1.
    if (typeof exponent !== 'number' || !Number.isFinite(exponent) || exponent < 1) {
      throw badOption('exponent', 'a finite number ≥ 1', exponent);
    }
    super(options, 'none');
    this.exponent = exponent;
  }

  /** Adds the run exponent: `nrefs:1|case:mixed|tok:none|e:2|version:…`. */
  protected override signatureFields(): readonly SignatureField[] {
    return [{ key: 'e', abbr: 'e', value: this.exponent }];
  }

  /**
   * One row per hypothesis against the reference with the highest F.
   * @throws InputError `E_LINE_COUNT_MISMATCH` when `hyps` and the references differ in length.
   */
  segmentStats(hyps: readonly string[], refs: EditReferences): Float64Array {
    const words = this.words(hyps, refs);
    const { rows, rowOffsets } = gtmRunStats(
      { hyps: words, hypSegment: null, refs: refs.refs, segRefOffsets: refs.segRefOffsets },
      this.exponent,
    );
    const out = new Float64Array(hyps.length * 4);
    for (let h = 0; h < hyps.length; h++) {
      const n = words.offsets[h + 1] - words.offsets[h];
      let best = -1;
      for (let pair = rowOffsets[h]; pair < rowOffsets[h + 1]; pair++) {
        const r = refs.segRefOffsets[h] + pair - rowOffsets[h];
        const m = refs.refs.offsets[r + 1] - refs.refs.offsets[r];
        const { f } = gtmFromStats(rows[2 * pair], n, m, this.exponent);
        if (f > best) {
          best = f;
          out.set([rows[2 * pair], rows[2 * pair + 1], n, m], 4 * h);
        }
      }
    }
    return out;
  }

  /** GTM from a row or the column sums (one grid of line blocks for a corpus; one formula for both). */
  protected scoreOfStats(stats: Float64Array): MetricScore {
    const [runWeight, matched, hypLength, refLength] = stats;
    const { mms, precision, recall, f } = gtmFromStats(runWeight, hypLength, refLength, this.exponent);
    return {
      name: 'GTM',
      score: f,
      verboseScore: `(P = ${pyFixed(precision, 4)}, R = ${pyFixed(recall, 4)}, MMS = ${Number.isInteger(mms) ? mms : pyFixed(mms, 4)}, e = ${this.exponent})`,
      details: { f, precision, recall, mms, runWeight, matched, hypLength, refLength, exponent: this.exponent },
    };
  }
}

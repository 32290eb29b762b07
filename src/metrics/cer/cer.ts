/**
 * Character error rate exactly as jiwer 4.0 computes it (`jiwer.cer` / `jiwer.process_characters` with the default
 * transform `cer_default`: `Strip()` then `ReduceToListOfListOfChars()`). A line loses its leading and trailing
 * whitespace (Python's `str.strip()`), and every remaining character is one unit: spaces inside the line count, runs
 * of them are not collapsed, case is kept, nothing is normalized. Characters are Python's, i.e. code points (a
 * character outside the BMP is one unit, not two UTF-16 halves).
 *
 * The distance and the H/S/D/I split come from the engine's edit kernel (the one WER uses) over character ids, which
 * follows RapidFuzz's alignment as jiwer reports it. CER = (S + D + I) / (H + S + D); the corpus CER pools the counts
 * of all lines (jiwer's corpus value), not a mean of line rates. An empty reference gives jiwer's value for it: the
 * number of edits itself.
 *
 * With several references (jiwer takes one), each line is counted against the reference with the fewest edits, the
 * first one on ties, as WER does.
 *
 * Statistics row (width 4): `hits, substitutions, deletions, insertions` of the line against its chosen reference.
 */
import { CsrBuilder, type Csr } from '../../text/csr.js';
import { isPyWhitespace, pyLower } from '../../text/pystr.js';
import { editDistances } from '../../wasm/edit.js';
import { jiwerMeasures } from '../edit/jiwer-measures.js';
import {
  checkHypothesisCount, checkReferenceStreams, type Metric, type MetricScore, type PreparedReferences,
} from '../metric.js';
import { formatSignature } from '../signature.js';
import { checkStatsWidth } from '../stats-width.js';
import { identitySegments } from '../token-stage.js';
import { badOption } from '../../errors.js';

/** Options of {@link Cer}; the defaults are jiwer 4.0's. */
export interface CerOptions {
  /** Lowercase both sides first (Python `str.lower()`); jiwer's `cer` is case-sensitive. @default false */
  readonly lowercase?: boolean;
}

/** Column names of a CER statistics row. */
export const CER_STATS_COLUMNS = ['hits', 'substitutions', 'deletions', 'insertions'] as const;

/** References as character ids, with the vocabulary hypotheses are looked up in. */
export interface CerReferences extends PreparedReferences {
  /** Number of references per segment. */
  readonly nRefs: number;
  /** Reference `j` of segment `i` is row `i · nRefs + j`. */
  readonly refs: Csr;
  /** `segments + 1` offsets: segment `s`'s references are rows `segRefOffsets[s] .. segRefOffsets[s + 1]`. */
  readonly segRefOffsets: Int32Array;
  /** Code point → id (ids of characters no reference has are added per call, past these). */
  readonly vocab: ReadonlyMap<number, number>;
}

/** Python's `str.isspace()` on a code point (every whitespace character is in the BMP). */
function isSpace(cp: number): boolean {
  return cp <= 0xffff && isPyWhitespace(cp);
}

/**
 * Appends the character ids of `line` after jiwer's `Strip()` (Python whitespace at both ends removed) to `out`;
 * `ids` numbers code points in order of first appearance, new ones added when `grow` is true, otherwise given the
 * id `references' vocabulary size + k` for the k-th unseen code point of the call (equal to no reference character).
 */
function pushChars(line: string, out: CsrBuilder, ids: Map<number, number>, grow: boolean, unseen: Map<number, number>): void {
  const cps: number[] = [];
  for (let i = 0; i < line.length; ) {
    const cp = line.codePointAt(i)!;
    cps.push(cp);
    i += cp > 0xffff ? 2 : 1;
  }
  let start = 0;
  let end = cps.length;
  while (start < end && isSpace(cps[start])) start++;
  while (end > start && isSpace(cps[end - 1])) end--;
  for (let k = start; k < end; k++) {
    const cp = cps[k];
    let id = ids.get(cp);
    if (id === undefined) {
      if (grow) {
        id = ids.size;
        ids.set(cp, id);
      } else {
        id = unseen.get(cp);
        if (id === undefined) {
          id = ids.size + unseen.size;
          unseen.set(cp, id);
        }
      }
    }
    out.push(id);
  }
  out.endRow();
}

/** jiwer-compatible character error rate. */
export class Cer implements Metric<CerReferences> {
  /** Metric id as given to `-m`. */
  readonly id = 'cer';
  /** 4. */
  readonly statsWidth = CER_STATS_COLUMNS.length;
  /** {@link CER_STATS_COLUMNS}. */
  readonly statsColumns: readonly string[] = CER_STATS_COLUMNS;
  /** Whether both sides are lowercased first. */
  readonly lowercase: boolean;

  /** @throws InputError `E_BAD_OPTION` for a non-boolean `lowercase`. */
  constructor(options: CerOptions = {}) {
    const lowercase = options.lowercase ?? false;
    if (typeof lowercase !== 'boolean') throw badOption('CER lowercase', 'a boolean', lowercase);
    this.lowercase = lowercase;
  }

  /** `nrefs:1|case:mixed|version:…`; `nRefs < 0` gives `var`. */
  signature(nRefs: number, short = false): string {
    return formatSignature({ nRefs }, [{ key: 'case', abbr: 'c', value: this.lowercase ? 'lc' : 'mixed' }], short);
  }

  /**
   * Character ids of every reference; empty references are allowed.
   * @throws InputError `E_EMPTY_INPUT` without reference streams, `E_LINE_COUNT_MISMATCH` when they differ in length.
   */
  prepareReferences(refStreams: readonly (readonly string[])[]): CerReferences {
    const segments = checkReferenceStreams('CER', refStreams);
    const nRefs = refStreams.length;
    const vocab = new Map<number, number>();
    const builder = new CsrBuilder(1024, segments * nRefs);
    for (let i = 0; i < segments; i++) {
      for (let j = 0; j < nRefs; j++) pushChars(this.text(refStreams[j][i]), builder, vocab, true, new Map());
    }
    const segRefOffsets = new Int32Array(segments + 1);
    for (let i = 0; i <= segments; i++) segRefOffsets[i] = i * nRefs;
    return { segments, nRefs, refs: builder.finish(), segRefOffsets, vocab };
  }

  /**
   * One row per hypothesis: the kernel's alignment counts against the reference with the fewest edits.
   * @throws InputError `E_LINE_COUNT_MISMATCH` when `hyps` and the references differ in length.
   */
  segmentStats(hyps: readonly string[], refs: CerReferences): Float64Array {
    checkHypothesisCount(hyps, refs.segments);
    const builder = new CsrBuilder(1024, hyps.length);
    const vocab = refs.vocab as Map<number, number>;
    const unseen = new Map<number, number>();
    for (const h of hyps) pushChars(this.text(h), builder, vocab, false, unseen);
    const batch = { hyps: builder.finish(), hypSegment: identitySegments(hyps.length), refs: refs.refs, segRefOffsets: refs.segRefOffsets };
    const { ops } = editDistances(batch, { alignment: true });
    const out = new Float64Array(hyps.length * 4);
    // ops rows are `best, hits, substitutions, deletions, insertions`: the row is its last four.
    for (let h = 0; h < hyps.length; h++) for (let c = 0; c < 4; c++) out[h * 4 + c] = ops![5 * h + 1 + c];
    return out;
  }

  /** Corpus CER from the column sums of the rows (pooled counts, jiwer's corpus value). */
  scoreFromStats(totals: Float64Array): MetricScore {
    checkStatsWidth('CER', totals, this.statsWidth);
    return this.scoreOfStats(totals);
  }

  /** Line CER from one row: the same formula (`process_characters(ref, hyp).cer`). */
  sentenceScoreFromStats(row: Float64Array): MetricScore {
    checkStatsWidth('CER', row, this.statsWidth);
    return this.scoreOfStats(row);
  }

  private text(line: string): string {
    return this.lowercase ? pyLower(line) : line;
  }

  private scoreOfStats(stats: Float64Array): MetricScore {
    const [hits, substitutions, deletions, insertions] = stats;
    if (![hits, substitutions, deletions, insertions].every((x) => Number.isInteger(x) && x >= 0)) {
      throw new RangeError(`CER statistics must be non-negative integer counts (got ${Array.from(stats).join(', ')})`);
    }
    const cer = jiwerMeasures(hits, substitutions, deletions, insertions).wer;
    const refChars = hits + substitutions + deletions;
    return {
      name: 'CER',
      score: cer,
      verboseScore: `(H = ${hits}, S = ${substitutions}, D = ${deletions}, I = ${insertions}, ref chars = ${refChars})`,
      details: { cer, hits, substitutions, deletions, insertions, refChars, hypChars: hits + substitutions + insertions },
    };
  }
}

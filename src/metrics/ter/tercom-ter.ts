/**
 * TER, `tercom` flavor: the numbers of tercom 0.10.0 (jhclark/tercom, `java ter.TER -r REF -h HYP` on Trans
 * files), where the default `sacrebleu` flavor gives sacreBLEU 2.6.0's. The two differ in the shift search
 * (tercom's finds cheaper alignments on some segments), in tokenization (tercom splits on ASCII whitespace only,
 * keeps U+00A0 inside words, has its own `-N` normaliser, and `-A` needs no `-N`) and in their search limits
 * (tercom: beam 20, shift distance 50, no candidate cap).
 *
 * Per segment, as tercom's `score_all_refs`: each reference is scored on its own; the segment takes the counts
 * of the reference with the fewest edits (the first on ties) and, as its length, the mean of all references'
 * word counts (summed in reference order, then divided). An empty hypothesis or reference (after trimming and
 * case folding) is not aligned: empty hypothesis → every reference word deleted; empty reference → every
 * hypothesis word inserted, reference length 0; both empty → 0 edits, length 0.
 *
 * Statistics row (width 7): `[num_edits, ref_length, ins, del, sub, shifts, words_shifted]` (sacreBLEU's two
 * TER columns first); `num_edits` counts each shift once. Corpus TER = Σ num_edits / Σ ref_length, both summed in
 * segment order like tercom's totals; when Σ ref_length is 0 that is tercom's Java division (`NaN` for 0/0,
 * `Infinity` otherwise), kept as tercom prints it. A sentence score follows tercom's per-segment rule instead: 1
 * when the length is 0 and there are edits, 0 when both are 0. Scores are on sacreBLEU's 0–100 scale;
 * `details.ter` is tercom's fraction itself.
 */
import { CsrBuilder, type Csr } from '../../text/csr.js';
import { badOption } from '../../errors.js';
import { tokenHash, Vocabulary } from '../../text/intern.js';
import { TokenBounds } from '../../text/tokenizers/token-bounds.js';
import {
  checkHypothesisCount,
  checkReferenceStreams,
  type Metric,
  type MetricScore,
  type PreparedReferences,
} from '../metric.js';
import { formatSignature } from '../signature.js';
import type { TerSegmentAlignment } from './ter.js';
import { TerOp, type TerAlignment, type TerResult } from './alignment.js';
import { TercomAligner, TERCOM_SEARCH_DEFAULTS } from './tercom-aligner.js';
import { javaSplitWhitespace } from './tercom-java-text.js';
import { tercomNormalizedText, tercomSegmentText, tercomTokenize, type TercomTextOptions } from './tercom-tokenizer.js';
import { checkStatsWidth } from '../stats-width.js';

/** Options of {@link TercomTer}, named after sacreBLEU's TER options; tercom's flags in brackets. */
export interface TercomTerOptions extends TercomTextOptions {
  /** Beam width of the edit distance (`-b`), an integer from 0 to 2^31 − 1. @default 20 */
  readonly beamWidth?: number;
  /** Maximum shift distance (`-d`), an integer from 0 to 2^31 − 1; 0 disables shifts. @default 50 */
  readonly maxShiftDistance?: number;
}

/** Column names of a {@link TercomTer} statistics row. */
export const TERCOM_STATS_COLUMNS = [
  'num_edits',
  'ref_length',
  'ins',
  'del',
  'sub',
  'shifts',
  'words_shifted',
] as const;

/** tercom's result for one hypothesis against one reference: the shared TER result plus the words shifted. */
export interface TercomResult extends TerResult {
  /** Words moved by the shifts (tercom's `WdSh` column). */
  readonly wordsShifted: number;
}

/** One segment aligned to each of its references (the tercom counterpart of the sacreBLEU flavor's). */
export interface TercomSegmentAlignment extends TerSegmentAlignment {
  /** The result against each reference, with its alignment. */
  readonly perReference: readonly TercomResult[];
  /** The segment's tercom statistics row (width 7, {@link TERCOM_STATS_COLUMNS}). */
  readonly stats: Float64Array;
}

/** References tokenized and interned for {@link TercomTer}. */
export interface TercomReferences extends PreparedReferences {
  /** References per segment. */
  readonly nRefs: number;
  /** Token ids of reference `j` of segment `s` in row `s * nRefs + j`. */
  readonly tokens: Csr;
  /** 1 where that reference is empty after trimming and case folding (tercom's empty-segment rule). */
  readonly empty: Uint8Array;
  /** The reference vocabulary (frozen: hypotheses only look words up). */
  readonly vocab: Vocabulary;
  /** Id of every hypothesis word no reference has (one past the vocabulary). */
  readonly missingId: number;
  /** The text options the references were prepared with. */
  readonly prepKey: string;
}

/** tercom reads `-b` and `-d` as Java `int`s. */
const JAVA_INT_MAX = 2147483647;

function checkCount(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0 || value > JAVA_INT_MAX) {
    throw badOption(name, `an integer from 0 to ${JAVA_INT_MAX}`, value);
  }
  return value;
}

/** Java-splits `text` and appends its tokens' ids (interned into `vocab`) as one row of `out`. */
function appendIds(text: string, bounds: TokenBounds, vocab: Vocabulary, out: CsrBuilder): void {
  javaSplitWhitespace(text, bounds);
  for (let k = 0; k < bounds.count; k++) {
    const start = bounds.start(k);
    const end = bounds.end(k);
    out.push(vocab.idOfRange(text, start, end, tokenHash(text, start, end)));
  }
  out.endRow();
}

/** tercom 0.10.0's TER as a {@link Metric} (see the file comment). */
export class TercomTer implements Metric<TercomReferences> {
  /** Metric id as given to `-m`. */
  readonly id = 'ter';
  /** Width of a statistics row. */
  readonly statsWidth = TERCOM_STATS_COLUMNS.length;
  /** {@link TERCOM_STATS_COLUMNS}. */
  readonly statsColumns: readonly string[] = TERCOM_STATS_COLUMNS;
  /** Case-sensitive (`-s`). */
  readonly caseSensitive: boolean;
  /** Normalised (`-N`). */
  readonly normalized: boolean;
  /** Punctuation removed (`-P`). */
  readonly noPunct: boolean;
  /** Asian support (`-A`). */
  readonly asianSupport: boolean;
  /** Beam width (`-b`). */
  readonly beamWidth: number;
  /** Maximum shift distance (`-d`). */
  readonly maxShiftDistance: number;
  private readonly aligner: TercomAligner;
  private readonly bounds = new TokenBounds();
  /** Token ids of the hypothesis being scored. */
  private hypIds = new Int32Array(256);

  /**
   * @throws InputError `E_BAD_OPTION` when `beamWidth` or `maxShiftDistance` is not an integer from 0 to Java's
   * largest `int`.
   */
  constructor(options: TercomTerOptions = {}) {
    this.caseSensitive = options.caseSensitive ?? false;
    this.normalized = options.normalized ?? false;
    this.noPunct = options.noPunct ?? false;
    this.asianSupport = options.asianSupport ?? false;
    this.beamWidth = checkCount('beamWidth', options.beamWidth ?? TERCOM_SEARCH_DEFAULTS.beamWidth);
    this.maxShiftDistance = checkCount(
      'maxShiftDistance',
      options.maxShiftDistance ?? TERCOM_SEARCH_DEFAULTS.maxShiftDistance,
    );
    this.aligner = new TercomAligner({ beamWidth: this.beamWidth, maxShiftDistance: this.maxShiftDistance });
  }

  /**
   * `nrefs:1|flavor:tercom|case:lc|tok:tercom|norm:no|punct:yes|asian:no|beam:20|dist:50|version:…` (short form
   * `#:1|f:tercom|c:lc|t:tercom|nr:no|pn:yes|as:no|b:20|d:50|v:…`): sacreBLEU's TER fields and abbreviations,
   * the flavor after `nrefs` as Palette's other flavors, then tercom's search limits.
   */
  signature(nRefs: number, short = false): string {
    return formatSignature(
      { nRefs },
      [
        { key: 'flavor', abbr: 'f', value: 'tercom' },
        { key: 'case', abbr: 'c', value: this.caseSensitive ? 'mixed' : 'lc' },
        { key: 'tok', abbr: 't', value: 'tercom' },
        { key: 'norm', abbr: 'nr', value: this.normalized },
        { key: 'punct', abbr: 'pn', value: !this.noPunct },
        { key: 'asian', abbr: 'as', value: this.asianSupport },
        { key: 'beam', abbr: 'b', value: this.beamWidth },
        { key: 'dist', abbr: 'd', value: this.maxShiftDistance },
      ],
      short,
    );
  }

  private get prepKey(): string {
    return [this.caseSensitive, this.normalized, this.noPunct, this.asianSupport].map(Number).join('');
  }

  /**
   * Trims, case-folds, normalises and interns every reference.
   * @throws InputError `E_EMPTY_INPUT` without reference streams, `E_LINE_COUNT_MISMATCH` when they differ in length.
   */
  prepareReferences(refStreams: readonly (readonly string[])[]): TercomReferences {
    const segments = checkReferenceStreams('TER', refStreams);
    const nRefs = refStreams.length;
    const vocab = new Vocabulary();
    const tokens = new CsrBuilder(segments * nRefs * 24, segments * nRefs);
    const empty = new Uint8Array(segments * nRefs);
    const bounds = new TokenBounds();
    for (let i = 0; i < segments; i++) {
      for (let j = 0; j < nRefs; j++) {
        const text = tercomSegmentText(refStreams[j][i], this);
        if (text === '') {
          empty[i * nRefs + j] = 1;
          tokens.endRow();
        } else appendIds(tercomNormalizedText(text, this), bounds, vocab, tokens);
      }
    }
    return { segments, nRefs, tokens: tokens.finish(), empty, vocab, missingId: vocab.size, prepKey: this.prepKey };
  }

  private checkRefs(refs: TercomReferences): void {
    if (refs.prepKey !== this.prepKey) {
      throw new TypeError('TER references were prepared with other case/normalized/noPunct/asianSupport options');
    }
  }

  /**
   * Tokenizes one hypothesis into {@link hypIds} (reference ids, `missingId` for other words).
   * @returns its number of tokens, or -1 when the line is empty after trimming and case folding.
   */
  private hypothesisIds(line: string, refs: TercomReferences): number {
    const text = tercomSegmentText(line, this);
    if (text === '') return -1;
    const normalized = tercomNormalizedText(text, this);
    const bounds = this.bounds;
    javaSplitWhitespace(normalized, bounds);
    const n = bounds.count;
    if (this.hypIds.length < n) this.hypIds = new Int32Array(Math.max(n, this.hypIds.length * 2));
    for (let k = 0; k < n; k++) {
      const start = bounds.start(k);
      const end = bounds.end(k);
      const id = refs.vocab.findRange(normalized, start, end, tokenHash(normalized, start, end));
      this.hypIds[k] = id < 0 ? refs.missingId : id;
    }
    return n;
  }

  /**
   * Writes segment `i`'s row at `out[at ..]` for the hypothesis in {@link hypIds} (`hypLen` -1: empty line) and,
   * when `perReference` is given, appends each reference's result with its alignment.
   */
  private segmentRow(
    hypLen: number,
    refs: TercomReferences,
    i: number,
    out: Float64Array,
    at: number,
    perReference: TercomResult[] | null,
  ): number {
    const { nRefs, tokens, empty } = refs;
    const aligner = this.aligner;
    const counts = aligner.counts;
    const hypEmpty = hypLen < 0;
    let totalWords = 0;
    let bestEdits = -1;
    let bestRef = -1;
    for (let j = 0; j < nRefs; j++) {
      const r = i * nRefs + j;
      const refStart = tokens.offsets[r];
      const refLen = tokens.offsets[r + 1] - refStart;
      let edits = 0;
      let words = 0;
      let ins = 0;
      let del = 0;
      let sub = 0;
      let shifts = 0;
      let wordsShifted = 0;
      let alignment: TerAlignment | null = null;
      if (hypEmpty || empty[r] === 1) {
        // tercom's TERnullstr: nothing to align.
        if (!hypEmpty) edits = ins = hypLen;
        else if (empty[r] === 0) edits = words = del = refLen;
        if (perReference) alignment = unaligned(hypEmpty ? 0 : hypLen, ins, del);
      } else {
        edits = aligner.align(this.hypIds, hypLen, tokens.tokens.subarray(refStart), refLen);
        words = refLen;
        ({ ins, del, sub, shifts, wordsShifted } = counts);
        if (perReference) alignment = aligner.alignment(hypLen);
      }
      perReference?.push({ edits, refLength: words, ins, del, sub, shifts, wordsShifted, alignment });
      // Strictly fewer edits replace the best: the first reference wins ties, as in tercom's loop.
      if (bestEdits < 0 || bestEdits > edits) {
        bestEdits = edits;
        bestRef = j;
        out[at] = edits;
        out[at + 2] = ins;
        out[at + 3] = del;
        out[at + 4] = sub;
        out[at + 5] = shifts;
        out[at + 6] = wordsShifted;
      }
      totalWords += words;
    }
    out[at + 1] = totalWords / nRefs;
    return bestRef;
  }

  /**
   * One statistics row per hypothesis (layout in the file comment).
   * @throws InputError `E_LINE_COUNT_MISMATCH` when `hyps` and the references differ in length.
   */
  segmentStats(hyps: readonly string[], refs: TercomReferences): Float64Array {
    checkHypothesisCount(hyps, refs.segments);
    this.checkRefs(refs);
    const width = this.statsWidth;
    const out = new Float64Array(hyps.length * width);
    for (let i = 0; i < hyps.length; i++) {
      this.segmentRow(this.hypothesisIds(hyps[i], refs), refs, i, out, i * width, null);
    }
    return out;
  }

  /**
   * Segment `segment` aligned to each of its references, with words, shifts and operations (for `--detail`);
   * its `stats` equal that segment's row of {@link segmentStats}. An empty line has no words.
   */
  alignSegment(hyp: string, refs: TercomReferences, segment: number): TercomSegmentAlignment {
    this.checkRefs(refs);
    if (!Number.isInteger(segment) || segment < 0 || segment >= refs.segments) {
      throw new RangeError(`segment must be an integer in [0, ${refs.segments}) (got ${segment})`);
    }
    const hypLen = this.hypothesisIds(hyp, refs);
    const hypWords = hypLen < 0 ? [] : tercomTokenize(hyp, this);
    const refWords: string[][] = [];
    for (let j = 0; j < refs.nRefs; j++) {
      const r = segment * refs.nRefs + j;
      const ids = refs.tokens.tokens.subarray(refs.tokens.offsets[r], refs.tokens.offsets[r + 1]);
      refWords.push(Array.from(ids, (id) => refs.vocab.token(id)));
    }
    const perReference: TercomResult[] = [];
    const stats = new Float64Array(this.statsWidth);
    const bestRef = this.segmentRow(hypLen, refs, segment, stats, 0, perReference);
    return { hypWords, refWords, perReference, bestRef, stats };
  }

  /** Corpus TER from summed rows: Σ edits / Σ ref_length (tercom's `Total TER`, see the file comment). */
  scoreFromStats(totals: Float64Array): MetricScore {
    return this.score(totals, totals[0] / totals[1]);
  }

  /** Sentence TER from one row with tercom's per-segment rule for a zero reference length. */
  sentenceScoreFromStats(row: Float64Array): MetricScore {
    const edits = row[0];
    const words = row[1];
    const ter = words <= 0 ? (edits > 0 ? 1 : 0) : edits / words;
    return this.score(row, ter);
  }

  private score(stats: Float64Array, ter: number): MetricScore {
    checkStatsWidth('TER', stats, this.statsWidth);
    const details: Record<string, number> = { ter };
    TERCOM_STATS_COLUMNS.forEach((name, c) => (details[name] = stats[c]));
    return { name: 'TER', score: 100 * ter, verboseScore: '', details };
  }
}

/** The alignment of a segment tercom does not align (an empty side): only insertions or only deletions. */
function unaligned(hypLen: number, ins: number, del: number): TerAlignment {
  const ops = new Uint8Array(ins + del).fill(ins > 0 ? TerOp.Ins : TerOp.Del);
  return { shifts: [], hypOrder: Int32Array.from({ length: hypLen }, (_, k) => k), ops };
}

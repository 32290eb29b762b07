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
 * Statistics row (width 7): `[edits, ref_length, ins, del, sub, shifts, words_shifted]`; `edits` counts each
 * shift once. Corpus TER = Σ edits / Σ ref_length, both summed in segment order like tercom's totals; when
 * Σ ref_length is 0 that is tercom's Java division (`NaN` for 0/0, `Infinity` otherwise), kept as tercom prints
 * it. A sentence score follows tercom's per-segment rule instead: 1 when the length is 0 and there are edits,
 * 0 when both are 0. Scores are on sacreBLEU's 0–100 scale; `details.ter` is tercom's fraction itself.
 */
import { CsrBuilder, type Csr } from '../../corpus/csr.js';
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
import { TercomAligner, TERCOM_SEARCH_DEFAULTS } from './tercom-aligner.js';
import { javaSplitWhitespace } from './tercom-java-text.js';
import { tercomNormalizedText, tercomSegmentText, type TercomTextOptions } from './tercom-tokenizer.js';

/** Options of {@link TercomTer}, named after sacreBLEU's TER options; tercom's flags in brackets. */
export interface TercomTerOptions extends TercomTextOptions {
  /** Beam width of the edit distance (`-b`), a non-negative integer. @default 20 */
  readonly beamWidth?: number;
  /** Maximum shift distance (`-d`), a non-negative integer; 0 disables shifts. @default 50 */
  readonly maxShiftDistance?: number;
}

/** Column names of a {@link TercomTer} statistics row. */
export const TERCOM_STATS_COLUMNS = ['edits', 'ref_length', 'ins', 'del', 'sub', 'shifts', 'words_shifted'] as const;

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

function checkCount(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 0) throw badOption(name, 'a non-negative integer', value);
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

  /** @throws InputError `E_BAD_OPTION` when `beamWidth` or `maxShiftDistance` is not a non-negative integer. */
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

  private get textOptions(): TercomTextOptions {
    return this;
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
    const options = this.textOptions;
    for (let i = 0; i < segments; i++) {
      for (let j = 0; j < nRefs; j++) {
        const text = tercomSegmentText(refStreams[j][i], options);
        if (text === '') {
          empty[i * nRefs + j] = 1;
          tokens.endRow();
        } else appendIds(tercomNormalizedText(text, options), bounds, vocab, tokens);
      }
    }
    return { segments, nRefs, tokens: tokens.finish(), empty, vocab, missingId: vocab.size, prepKey: this.prepKey };
  }

  /**
   * One statistics row per hypothesis (layout in the file comment).
   * @throws InputError `E_LINE_COUNT_MISMATCH` when `hyps` and the references differ in length.
   */
  segmentStats(hyps: readonly string[], refs: TercomReferences): Float64Array {
    checkHypothesisCount(hyps, refs.segments);
    if (refs.prepKey !== this.prepKey) {
      throw new TypeError('TER references were prepared with other case/normalized/noPunct/asianSupport options');
    }
    const width = this.statsWidth;
    const out = new Float64Array(hyps.length * width);
    let hyp = new Int32Array(256);
    const bounds = new TokenBounds();
    const { nRefs, tokens, empty } = refs;
    const aligner = this.aligner;
    const counts = aligner.counts;
    const options = this.textOptions;
    for (let i = 0; i < hyps.length; i++) {
      const text = tercomSegmentText(hyps[i], options);
      const hypEmpty = text === '';
      let hypLen = 0;
      if (!hypEmpty) {
        const normalized = tercomNormalizedText(text, options);
        javaSplitWhitespace(normalized, bounds);
        hypLen = bounds.count;
        if (hyp.length < hypLen) hyp = new Int32Array(Math.max(hypLen, hyp.length * 2));
        for (let k = 0; k < hypLen; k++) {
          const start = bounds.start(k);
          const end = bounds.end(k);
          const id = refs.vocab.findRange(normalized, start, end, tokenHash(normalized, start, end));
          hyp[k] = id < 0 ? refs.missingId : id;
        }
      }
      const row = i * width;
      let totalWords = 0;
      let bestEdits = -1;
      for (let j = 0; j < nRefs; j++) {
        const r = i * nRefs + j;
        const refStart = tokens.offsets[r];
        const refLen = tokens.offsets[r + 1] - refStart;
        let edits: number;
        let words: number;
        let ins = 0;
        let del = 0;
        let sub = 0;
        let shifts = 0;
        let wordsShifted = 0;
        if (empty[r] === 1 && hypEmpty) {
          edits = words = 0;
        } else if (hypEmpty) {
          edits = words = del = refLen;
        } else if (empty[r] === 1) {
          edits = ins = hypLen;
          words = 0;
        } else {
          edits = aligner.align(hyp, hypLen, tokens.tokens.subarray(refStart), refLen);
          words = refLen;
          ({ ins, del, sub, shifts, wordsShifted } = counts);
        }
        // Strictly fewer edits replace the best: the first reference wins ties, as in tercom's loop.
        if (bestEdits < 0 || bestEdits > edits) {
          bestEdits = edits;
          out[row] = edits;
          out[row + 2] = ins;
          out[row + 3] = del;
          out[row + 4] = sub;
          out[row + 5] = shifts;
          out[row + 6] = wordsShifted;
        }
        totalWords += words;
      }
      out[row + 1] = totalWords / nRefs;
    }
    return out;
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
    return {
      name: 'TER',
      score: 100 * ter,
      verboseScore: '',
      details: {
        ter,
        numEdits: stats[0],
        refLength: stats[1],
        ins: stats[2],
        del: stats[3],
        sub: stats[4],
        shifts: stats[5],
        wordsShifted: stats[6],
      },
    };
  }
}

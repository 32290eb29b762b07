/**
 * The `nltk` BLEU flavor behind the common {@link Metric} contract: text in, NLTK 3.8 numbers out (0–1 scale, as
 * NLTK returns them). NLTK takes token lists; Palette makes them with sacrebleu's BLEU preprocessing and the chosen
 * tokenizer (`none` by default = whitespace split, as NLTK's own tests do on pre-tokenized text).
 *
 * Statistics row, `4 + 2W` numbers for W weights:
 * `[hyp_len, ref_len, num_1 … num_W, den_1 … den_W, num_5, den_5]` — NLTK's clipped matches and
 * `max(1, hypothesis n-grams)` per order, plus order 5 for method 5.
 *
 * Corpus scores: NLTK hands its smoothing function the *last* segment (methods 5–7 depend on it), which column sums
 * cannot carry. `scoreFromStats` is therefore exact for methods 0–4 and throws for 5–7; use
 * {@link NltkBleu.corpusScoreFromRows} (the rows in corpus order) for those.
 */
import { badOption, PaletteError } from '../../errors.js';
import { type TokenizerName } from '../../text/tokenizers/index.js';
import { bleuStatsColumns } from './bleu.js';
import {
  nltkBleuFromStats,
  nltkSegmentStatsFromIds,
  type NltkBleuOptions,
  type NltkSegmentStats,
  type NltkTotals,
} from './nltk.js';
import { bleuTextOptions, internHypotheses, internReferences, type BleuTextOptions, type InternedReferences } from './text.js';
import { checkHypothesisCount, checkReferenceStreams, type Metric, type MetricScore, type PreparedReferences } from '../metric.js';
import { formatSignature } from '../signature.js';

/** Options of {@link NltkBleu}: NLTK's options plus how text becomes tokens. */
export interface NltkBleuMetricOptions extends NltkBleuOptions {
  /**
   * Tokenizer applied before NLTK sees the tokens.
   * @default 'none'
   */
  readonly tokenize?: TokenizerName;
  /**
   * Lowercase (Python `str.lower()`) first.
   * @default false
   */
  readonly lowercase?: boolean;
}

/** References prepared for {@link NltkBleu}. */
export interface NltkReferences extends PreparedReferences, InternedReferences {}

/** NLTK 3.8 BLEU as a {@link Metric} (see the file comment). */
export class NltkBleu implements Metric<NltkReferences> {
  /** Metric id. */
  readonly id = 'bleu-nltk';
  /** `4 + 2W`. */
  readonly statsWidth: number;
  /** `hyp_len, ref_len, num_1..W, den_1..W, num_5, den_5`. */
  readonly statsColumns: readonly string[];
  /** The NLTK options in effect. */
  readonly nltkOptions: NltkBleuOptions;
  private readonly order: number;
  private readonly text: BleuTextOptions;
  private readonly tokenize: TokenizerName;

  constructor(options: NltkBleuMetricOptions = {}) {
    const { tokenize = 'none', lowercase = false, ...nltk } = options;
    this.tokenize = tokenize;
    this.text = bleuTextOptions(tokenize, lowercase);
    this.nltkOptions = nltk;
    this.order = (nltk.weights ?? [0.25, 0.25, 0.25, 0.25]).length;
    if (this.order === 0) throw badOption('options.weights', 'a non-empty list', nltk.weights);
    const method = nltk.method ?? 0;
    if (!Number.isInteger(method) || method < 0 || method > 7)
      throw badOption('options.method', 'an integer 0..7', method);
    this.statsWidth = 4 + 2 * this.order;
    const cols = bleuStatsColumns(this.order).map((c) => c.replace('correct_', 'num_').replace('total_', 'den_'));
    this.statsColumns = [...cols, 'num_5', 'den_5'];
  }

  /** Palette's signature for this flavor (sacrebleu has none for NLTK). */
  signature(nRefs: number): string {
    const o = this.nltkOptions;
    return formatSignature({ nRefs }, [
      { key: 'flavor', abbr: 'f', value: 'nltk' },
      { key: 'case', abbr: 'c', value: this.text.lowercase ? 'lc' : 'mixed' },
      { key: 'tok', abbr: 'tok', value: this.tokenize },
      { key: 'smooth', abbr: 's', value: `method${o.method ?? 0}` },
      { key: 'weights', abbr: 'w', value: (o.weights ?? [0.25, 0.25, 0.25, 0.25]).join(',') },
    ]);
  }

  /** Tokenizes and interns references (`refStreams[j][i]` = reference `j` of segment `i`). */
  prepareReferences(refStreams: readonly (readonly string[])[]): NltkReferences {
    const segments = checkReferenceStreams('BLEU', refStreams);
    return { ...internReferences(refStreams, segments, this.text), segments };
  }

  /** Statistics rows (see the file comment). */
  segmentStats(hyps: readonly string[], refs: NltkReferences): Float64Array {
    checkHypothesisCount(hyps, refs.segments);
    const stats = nltkSegmentStatsFromIds(
      internHypotheses(hyps, refs, this.text),
      refs.refs,
      refs.segRefOffsets,
      this.order,
    );
    const out = new Float64Array(hyps.length * this.statsWidth);
    stats.forEach((s, i) => out.set(this.toRow(s), i * this.statsWidth));
    return out;
  }

  private toRow(s: NltkSegmentStats): number[] {
    return [s.hypLen, s.refLen, ...s.numerators, ...s.denominators, s.numerator5, s.denominator5];
  }

  private fromRow(row: ArrayLike<number>, at = 0): NltkSegmentStats {
    const w = this.order;
    const numerators: number[] = [];
    const denominators: number[] = [];
    for (let i = 0; i < w; i++) {
      numerators.push(row[at + 2 + i]);
      denominators.push(row[at + 2 + w + i]);
    }
    return {
      hypLen: row[at],
      refLen: row[at + 1],
      numerators,
      denominators,
      numerator5: row[at + 2 + 2 * w],
      denominator5: row[at + 3 + 2 * w],
    };
  }

  private score(totals: NltkTotals, last: NltkSegmentStats | undefined): MetricScore {
    return { name: 'BLEU', score: nltkBleuFromStats(totals, last, this.nltkOptions), verboseScore: '' };
  }

  /**
   * NLTK `corpus_bleu` from column sums: exact for methods 0–4.
   * @throws PaletteError `E_BAD_OPTION` for methods 5–7, which need the last segment: use {@link corpusScoreFromRows}.
   */
  scoreFromStats(totals: Float64Array): MetricScore {
    const method = this.nltkOptions.method ?? 0;
    if (method >= 5) {
      throw new PaletteError(
        'E_BAD_OPTION',
        `NLTK corpus BLEU with method${method} depends on the last segment; score it from the rows (corpusScoreFromRows)`,
      );
    }
    return this.score(this.fromRow(totals), undefined);
  }

  /** NLTK `corpus_bleu` from the statistics rows in corpus order: exact for every method. */
  corpusScoreFromRows(rows: Float64Array): MetricScore {
    const w = this.statsWidth;
    const n = rows.length / w;
    const sums = new Float64Array(w);
    for (let i = 0; i < rows.length; i += w) for (let c = 0; c < w; c++) sums[c] += rows[i + c];
    return this.score(this.fromRow(sums), n > 0 ? this.fromRow(rows, (n - 1) * w) : undefined);
  }

  /** NLTK `sentence_bleu` from one row. @throws NltkBleuError where NLTK raises (method 6). */
  sentenceScoreFromStats(row: Float64Array): MetricScore {
    const s = this.fromRow(row);
    return this.score(s, s);
  }
}

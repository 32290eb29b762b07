/**
 * What WER, PER and GTM share: a word split and a case setting fixed at construction, references split and interned
 * once (src/metrics/edit/words.ts), hypotheses looked up against them, and a `case|tok` signature to which each
 * metric may add its own fields.
 */
import type { Csr } from '../../text/csr.js';
import type { BleuTextOptions } from '../bleu/text.js';
import type { Metric, MetricScore } from '../metric.js';
import { identitySegments, type TokenStage } from '../token-stage.js';
import { formatSignature, type SignatureField } from '../signature.js';
import { checkStatsWidth } from '../stats-width.js';
import {
  editHypotheses, editPrepKey, editTextOptions, prepareEditReferences, type EditReferences, type EditTokenizer,
} from './words.js';

/** Options every word-level metric takes. */
export interface WordMetricOptions {
  /** How lines become words: `jiwer` or a sacrebleu tokenizer name (then a Python whitespace split). */
  readonly tokenize?: EditTokenizer;
  /** Lowercase both sides first (Python `str.lower()`). @default false */
  readonly lowercase?: boolean;
}

/** Base of the word-level metrics over {@link EditReferences}. */
export abstract class WordMetric implements Metric<EditReferences> {
  /** Metric id as given to `-m`. */
  abstract readonly id: string;
  /** Width of a statistics row. */
  abstract readonly statsWidth: number;
  /** Column names of a statistics row. */
  abstract readonly statsColumns: readonly string[];
  /** How lines become words. */
  readonly tokenize: EditTokenizer;
  /** Whether both sides are lowercased first. */
  readonly lowercase: boolean;
  /** Name used in error messages (`WER`, `PER`, `GTM`). */
  protected abstract readonly label: string;
  private readonly text: BleuTextOptions;
  private readonly prepKey: string;

  /** @throws InputError `E_BAD_OPTION` for an unknown word split or a non-boolean `lowercase`. */
  protected constructor(options: WordMetricOptions, defaultTokenize: EditTokenizer) {
    this.tokenize = options.tokenize ?? defaultTokenize;
    this.lowercase = options.lowercase ?? false;
    this.text = editTextOptions(this.tokenize, this.lowercase);
    this.prepKey = editPrepKey(this.tokenize, this.lowercase);
  }

  /** `nrefs:1|case:mixed|tok:…[|extra fields]|version:…`; `nRefs < 0` gives `var`. */
  signature(nRefs: number, short = false): string {
    return formatSignature(
      { nRefs },
      [
        { key: 'case', abbr: 'c', value: this.lowercase ? 'lc' : 'mixed' },
        { key: 'tok', abbr: 'tok', value: this.tokenize },
        ...this.signatureFields(),
      ],
      short,
    );
  }

  /**
   * Splits and interns references; empty references are allowed.
   * @throws InputError `E_EMPTY_INPUT` without reference streams, `E_LINE_COUNT_MISMATCH` when they differ in length.
   */
  prepareReferences(refStreams: readonly (readonly string[])[]): EditReferences {
    return prepareEditReferences(this.label, refStreams, this.text, this.prepKey);
  }

  abstract segmentStats(hyps: readonly string[], refs: EditReferences): Float64Array;

  /** Corpus score from the column sums of the rows (pooled counts). */
  scoreFromStats(totals: Float64Array): MetricScore {
    checkStatsWidth(this.label, totals, this.statsWidth);
    return this.scoreOfStats(totals);
  }

  /** Line score from one row: the same formula as the corpus score. */
  sentenceScoreFromStats(row: Float64Array): MetricScore {
    checkStatsWidth(this.label, row, this.statsWidth);
    return this.scoreOfStats(row);
  }

  /** The score of a statistics vector of {@link statsWidth} columns, a row or the column sums alike. */
  protected abstract scoreOfStats(stats: Float64Array): MetricScore;

  /** Fields a metric adds to the signature after `case` and `tok`. */
  protected signatureFields(): readonly SignatureField[] {
    return [];
  }

  /**
   * Rows of `hyps` from a token-stage row writer (the metric's own), one hypothesis per segment: the identity
   * candidate→segment map over the hypotheses' words.
   * @throws InputError `E_LINE_COUNT_MISMATCH` when `hyps` and the references differ in length.
   */
  protected rowsOf(writeRows: TokenStage['writeRows'], hyps: readonly string[], refs: EditReferences): Float64Array {
    const words = this.words(hyps, refs);
    const out = new Float64Array(hyps.length * this.statsWidth);
    const batch = { hyps: words, hypSegment: identitySegments(hyps.length), refs: refs.refs, segRefOffsets: refs.segRefOffsets };
    writeRows(batch, out, 0, this.statsWidth);
    return out;
  }

  /**
   * The hypotheses' words as ids of the references' vocabulary.
   * @throws InputError `E_LINE_COUNT_MISMATCH` when `hyps` and the references differ in length.
   */
  protected words(hyps: readonly string[], refs: EditReferences): Csr {
    return editHypotheses(this.label, hyps, refs, this.text, this.prepKey);
  }
}

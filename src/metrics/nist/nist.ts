/**
 * The NIST metric (Doddington 2002) in two flavors that give different numbers on the same text:
 * - `mteval` (default): mteval-v13a.pl's NIST, see mteval.ts (row layout there);
 * - `nltk`: NLTK 3.8's `corpus_nist` / `sentence_nist`, see nltk.ts (row layout there).
 *
 * Text: each line goes through the tokenizer (default `13a`, sacrebleu's = mteval-v13a's normalisation) and is
 * split on whitespace. `lowercase` follows each oracle: mteval (run without `-c`) lowercases only ASCII A–Z
 * (`tr/[A-Z]/[a-z]/`), NLTK's goldens lowercase with Python's `str.lower()` before tokenizing.
 * Information weights come from every reference of the prepared test set, so references must be prepared as a
 * whole before any segment is scored. Where an oracle gives no number the score is NaN, or an error on request
 * (failure.ts).
 *
 * Input is plain text (what an SGML `<seg>` encodes, already unescaped). Known differences from mteval that no
 * golden exercises: mteval splits on Perl's `\s`, which lacks U+001C–U+001F (Python whitespace, used here, has
 * them); and a line holding a literal entity such as `&quot;` is decoded by the 13a tokenizer here, while mteval,
 * reading that line escaped in SGML (`&amp;quot;`), only undoes the escaping and keeps the entity text.
 */
import { CsrBuilder, type Csr } from '../../text/csr.js';
import { badOption } from '../../errors.js';
import { Vocabulary, internLine, lookupLine } from '../../text/intern.js';
import { pyJoinSplit, pyLower } from '../../text/pystr.js';
import { getTokenizer, type Tokenizer, type TokenizerName } from '../../text/tokenizers/index.js';
import { pyFixed } from '../../util/py-fixed.js';
import { ngramWeights, type NgramWeights } from '../../wasm/ngram.js';
import {
  checkCandidateSegments, checkHypothesisCount, checkReferenceStreams, type Metric, type MetricScore, type PreparedReferences,
} from '../metric.js';
import { NistOracleError, nistFailure } from './failure.js';
import { NIST_FLAVORS, type NistFlavor } from './flavor.js';
import { mtevalColumns, mtevalRows, mtevalScore } from './mteval.js';
import { nltkColumns, nltkRows, nltkScore } from './nltk.js';
import { formatSignature } from '../signature.js';
import { checkStatsWidth } from '../stats-width.js';

export { NIST_FLAVORS, type NistFlavor } from './flavor.js';

/** Options of {@link Nist}. */
export interface NistOptions {
  /** Whose NIST: mteval-v13a.pl or NLTK 3.8. @default 'mteval' */
  readonly flavor?: NistFlavor;
  /** Highest n-gram order N. @default 5 */
  readonly maxOrder?: number;
  /** Tokenizer applied to every line. @default '13a' */
  readonly tokenize?: TokenizerName;
  /** Case-insensitive scoring, the way the flavor's oracle lowercases (see the file comment). @default false */
  readonly lowercase?: boolean;
  /**
   * What a score is where the oracle fails (mteval dies, NLTK raises ZeroDivisionError): `nan`, or `throw` a
   * {@link NistOracleError} saying why. Never changes a number, so not part of the signature.
   * @default 'nan'
   */
  readonly onOracleFailure?: 'nan' | 'throw';
}

/** References prepared for {@link Nist}. */
export interface NistReferences extends PreparedReferences {
  /** References per segment. */
  readonly nRefs: number;
  /** Token ids of every reference, segment-major. */
  readonly refs: Csr;
  /** References of segment `s` are rows `segRefOffsets[s] .. segRefOffsets[s + 1]`. */
  readonly segRefOffsets: Int32Array;
  /** Words of all references of each segment together. */
  readonly refWords: Float64Array;
  /** Information weights over all references. */
  readonly weights: NgramWeights;
  /** Id of the word `0` in the references, or -1 (mteval's Perl-truthiness quirk, see mteval.ts). */
  readonly zeroId: number;
  /** Vocabulary of the references (frozen: hypotheses only look tokens up). */
  readonly vocab: Vocabulary;
  /** Id given to hypothesis tokens that no reference has (one past the vocabulary). */
  readonly missingId: number;
  /** Text settings the references were prepared with. */
  readonly prepKey: string;
}

/** mteval's ASCII-only lowercasing (`tr/[A-Z]/[a-z]/`). */
function asciiLower(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

/** NIST (mteval-v13a or NLTK flavor). */
export class Nist implements Metric<NistReferences> {
  /** Metric id as given to `-m`. */
  readonly id = 'nist';
  /** Flavor. */
  readonly flavor: NistFlavor;
  /** Highest n-gram order. */
  readonly maxOrder: number;
  /** Tokenizer name. */
  readonly tokenize: TokenizerName;
  /** Whether scoring is case-insensitive. */
  readonly lowercase: boolean;
  /** Row width: `3 + 3N` (mteval) or `1 + 5N` (nltk). */
  readonly statsWidth: number;
  /** Column names of a row. */
  readonly statsColumns: readonly string[];
  /** NaN or an error where the oracle fails. */
  readonly onOracleFailure: 'nan' | 'throw';
  private readonly tokenizer: Tokenizer;

  constructor(options: NistOptions = {}) {
    const flavor = options.flavor ?? 'mteval';
    if (!(NIST_FLAVORS as readonly string[]).includes(flavor)) {
      throw badOption('flavor', `one of ${NIST_FLAVORS.join(', ')}`, flavor);
    }
    this.flavor = flavor;
    const maxOrder = options.maxOrder ?? 5;
    if (!Number.isInteger(maxOrder) || maxOrder < 1) throw badOption('maxOrder', 'a positive integer', maxOrder);
    this.maxOrder = maxOrder;
    this.tokenize = options.tokenize ?? '13a';
    this.tokenizer = getTokenizer(this.tokenize);
    this.lowercase = options.lowercase ?? false;
    const onOracleFailure = options.onOracleFailure ?? 'nan';
    if (onOracleFailure !== 'nan' && onOracleFailure !== 'throw') {
      throw badOption('onOracleFailure', 'nan or throw', onOracleFailure);
    }
    this.onOracleFailure = onOracleFailure;
    this.statsColumns = flavor === 'mteval' ? mtevalColumns(maxOrder) : nltkColumns(maxOrder);
    this.statsWidth = this.statsColumns.length;
  }

  /**
   * Signature in sacrebleu's style: `nrefs:1|case:mixed|tok:13a|n:5|flavor:mteval|version:…`
   * (short form `#:1|c:mixed|tok:13a|n:5|f:mteval|v:…`).
   */
  signature(nRefs: number, short = false): string {
    return formatSignature(
      { nRefs },
      [
        { key: 'case', abbr: 'c', value: this.lowercase ? 'lc' : 'mixed' },
        { key: 'tok', abbr: 'tok', value: this.tokenize },
        { key: 'n', abbr: 'n', value: this.maxOrder },
        { key: 'flavor', abbr: 'f', value: this.flavor },
      ],
      short,
    );
  }

  private get prepKey(): string {
    return `${this.flavor}|${this.tokenize}|${this.lowercase}|${this.maxOrder}`;
  }

  /** A line as the flavor's oracle sees it: tokens joined by single spaces. */
  private tokens(line: string): string {
    if (this.flavor === 'nltk') return pyJoinSplit(this.tokenizer(this.lowercase ? pyLower(line) : line));
    const tokenized = pyJoinSplit(this.tokenizer(line));
    return this.lowercase ? asciiLower(tokenized) : tokenized;
  }

  /**
   * Tokenizes and interns every reference and computes the information weights over all of them.
   * @throws InputError `E_EMPTY_INPUT` without reference streams, `E_LINE_COUNT_MISMATCH` when they differ in length.
   */
  prepareReferences(refStreams: readonly (readonly string[])[]): NistReferences {
    const segments = checkReferenceStreams('NIST', refStreams);
    const nRefs = refStreams.length;
    const vocab = new Vocabulary();
    const builder = new CsrBuilder(segments * nRefs * 32, segments * nRefs);
    for (let i = 0; i < segments; i++)
      for (let j = 0; j < nRefs; j++) internLine(vocab, this.tokens(refStreams[j][i]), builder);
    const refs = builder.finish();
    const segRefOffsets = new Int32Array(segments + 1);
    const refWords = new Float64Array(segments);
    for (let i = 0; i < segments; i++) {
      segRefOffsets[i + 1] = (i + 1) * nRefs;
      refWords[i] = refs.offsets[(i + 1) * nRefs] - refs.offsets[i * nRefs];
    }
    return {
      segments,
      nRefs,
      refs,
      segRefOffsets,
      refWords,
      weights: ngramWeights(refs, this.maxOrder),
      zeroId: vocab.find('0'),
      vocab,
      missingId: vocab.size,
      prepKey: this.prepKey,
    };
  }

  /**
   * One statistics row per hypothesis (layouts in mteval.ts / nltk.ts).
   * @throws InputError `E_LINE_COUNT_MISMATCH` when `hyps` and the references differ in length.
   */
  segmentStats(hyps: readonly string[], refs: NistReferences): Float64Array {
    checkHypothesisCount(hyps, refs.segments);
    return this.rows(hyps, null, refs);
  }

  /**
   * Rows of candidates grouped by segment (`Metric.candidateStats`): one n-gram kernel call over the whole-reference
   * weights, each segment's reference table built once for all of its candidates.
   * @throws RangeError when `segmentOf` does not give each candidate a segment of `refs`, in non-decreasing order.
   */
  candidateStats(hyps: readonly string[], segmentOf: Int32Array, refs: NistReferences): Float64Array {
    checkCandidateSegments(hyps.length, segmentOf, refs.segments);
    return this.rows(hyps, segmentOf, refs);
  }

  /** Rows of `hyps[h]` against segment `segmentOf[h]` (`h` when null). */
  private rows(hyps: readonly string[], segmentOf: Int32Array | null, refs: NistReferences): Float64Array {
    if (refs.prepKey !== this.prepKey) {
      throw new TypeError('NIST references were prepared with another flavor, tokenizer, case or order');
    }
    const builder = new CsrBuilder(hyps.length * 32, hyps.length);
    // Tokens no reference has can never match and have no weight: one shared id keeps the references frozen.
    for (const h of hyps) lookupLine(refs.vocab, this.tokens(h), builder, refs.missingId);
    const hypCsr = builder.finish();
    return this.flavor === 'mteval'
      ? mtevalRows(hypCsr, refs, this.maxOrder, segmentOf)
      : nltkRows(hypCsr, refs, this.maxOrder, segmentOf);
  }

  /**
   * Corpus NIST from the column sums of the rows (`corpus_nist` for the nltk flavor). NaN where the oracle fails.
   * @throws NistOracleError there instead, with `onOracleFailure: 'throw'`.
   */
  scoreFromStats(totals: Float64Array): MetricScore {
    return this.toScore(totals, false);
  }

  /**
   * Sentence NIST from one row: mteval's segment score, or NLTK's `sentence_nist` (weights from the segment's own
   * references). NaN where the oracle fails (see failure.ts).
   * @throws NistOracleError there instead, with `onOracleFailure: 'throw'`.
   */
  sentenceScoreFromStats(row: Float64Array): MetricScore {
    return this.toScore(row, true);
  }

  private toScore(stats: Float64Array, sentence: boolean): MetricScore {
    checkStatsWidth('NIST', stats, this.statsWidth);
    if (this.onOracleFailure === 'throw') {
      const reason = nistFailure(this.flavor, stats, this.maxOrder, sentence);
      if (reason !== undefined) throw new NistOracleError(this.flavor, reason);
    }
    if (this.flavor === 'mteval') {
      const r = mtevalScore(stats, this.maxOrder);
      return {
        name: 'NIST',
        score: r.score,
        verboseScore: formatNistVerbose(r.individual, r.penalty, r.ratio, r.hypLen, r.refLen),
        details: {
          individual: r.individual,
          cumulative: r.cumulative,
          penalty: r.penalty,
          ratio: r.ratio,
          hypLen: r.hypLen,
          refLen: r.refLen,
        },
      };
    }
    const r = nltkScore(stats, this.maxOrder, sentence);
    const individual = r.precisions.map((p) => p * r.penalty);
    return {
      name: 'NIST',
      score: r.score,
      verboseScore: formatNistVerbose(individual, r.penalty, r.ratio, r.hypLen, r.refLen),
      details: { precisions: r.precisions, penalty: r.penalty, ratio: r.ratio, hypLen: r.hypLen, refLen: r.refLen },
    };
  }
}

/**
 * The text after the score: the per-order scores with the penalty applied, 4 decimals as mteval prints its
 * "Individual N-gram scoring" line, then penalty, ratio and lengths. Empty when the score is NaN. Digits come from
 * the shared formatter, which rounds exact binary ties to even as Perl's `printf` does (`toFixed` rounds them up).
 */
export function formatNistVerbose(
  individual: readonly number[],
  penalty: number,
  ratio: number,
  hypLen: number,
  refLen: number,
): string {
  if (!Number.isFinite(penalty)) return '';
  const ref = Number.isInteger(refLen) ? String(refLen) : pyFixed(refLen, 2);
  return (
    `${individual.map((x) => pyFixed(x, 4)).join('/')} ` +
    `(BP = ${pyFixed(penalty, 4)} ratio = ${pyFixed(ratio, 4)} hyp_len = ${hypLen} ref_len = ${ref})`
  );
}

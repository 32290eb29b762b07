/**
 * ParaEval (Zhou, Lin & Hovy 2006; seed 001): MT evaluation with paraphrase support. A candidate is matched
 * against its references in two tiers — phrases of one paraphrase set first, then unigrams on the words left over —
 * and scored by precision (matched candidate words / candidate words, §3.3, BLEU's modified unigram precision with
 * paraphrase sets clipped as one phrase) and recall (matched reference words / reference words against a single
 * reference, §5). The exact search is documented in ./match.ts.
 *
 * The paper defines no F-measure and neither does Palette: the score is the precision (the paper's Table 1) or, with
 * `score: 'recall'`, the recall (Table 2); both are always in `details`. Corpus scores are ratios of summed counts
 * (the paper's corpus-level modified precision), sentence scores the same ratios of one row. A side with no words
 * scores 0. With several references, recall adds up each reference matched alone (to get the paper's recall against
 * one reference, give one).
 *
 * Text becomes words with the table's tokenizer and case (`ParaphraseTableOptions`), so that text and phrases are
 * split the same way: the paraphrase table fixes both, and the signature says which.
 */
import { CsrBuilder, type Csr } from '../../text/csr.js';
import { badOption } from '../../errors.js';
import { tokenHash, Vocabulary } from '../../text/intern.js';
import type { ParaphraseTable } from '../../text/paraphrase/index.js';
import { bleuScan, getTokenScanner, TokenBounds, type TokenScanner } from '../../text/tokenizers/index.js';
import {
  checkHypothesisCount,
  checkReferenceStreams,
  type Metric,
  type MetricScore,
  type PreparedReferences,
} from '../metric.js';
import { ParaEvalMatcher, PARAEVAL_STATS_COLUMNS, PARAEVAL_STATS_WIDTH } from './match.js';
import { PARAEVAL_SCORES, type ParaEvalScoreKind } from './score-kind.js';
import { formatSignature } from '../signature.js';
import { checkStatsWidth } from '../stats-width.js';

export { PARAEVAL_STATS_COLUMNS, PARAEVAL_STATS_WIDTH } from './match.js';

export { PARAEVAL_SCORES, type ParaEvalScoreKind } from './score-kind.js';

/** Options of {@link ParaEval}. */
export interface ParaEvalOptions {
  /** The paraphrase table (its tokenizer and case apply to the text too). */
  readonly table: ParaphraseTable;
  /** The ratio reported as the score. @default 'precision' */
  readonly score?: ParaEvalScoreKind;
}

/** References prepared for one {@link ParaEval} (one table). */
export interface ParaEvalReferences extends PreparedReferences {
  /** References per segment. */
  readonly nRefs: number;
  /** Word ids of every reference: segment `s` owns rows `segRefOffsets[s] .. segRefOffsets[s + 1]`. */
  readonly refs: Csr;
  /** `segments + 1` row offsets into `refs`. */
  readonly segRefOffsets: Int32Array;
  /** Reference words the table lacks; word id = table vocabulary size + id here. */
  readonly otherWords: Vocabulary;
  /** The table the ids refer to. */
  readonly table: ParaphraseTable;
}

/** Precision and recall of a statistics row or of column sums. */
export function paraEvalFromStats(stats: ArrayLike<number>): { precision: number; recall: number } {
  checkStatsWidth('ParaEval', stats, PARAEVAL_STATS_WIDTH);
  const [hypMatched, , hypLength, refMatched, , refLength] = Array.from(stats);
  return {
    precision: hypLength === 0 ? 0 : hypMatched / hypLength,
    recall: refLength === 0 ? 0 : refMatched / refLength,
  };
}

/** ParaEval as a {@link Metric}. */
export class ParaEval implements Metric<ParaEvalReferences> {
  /** Metric id as given to `-m`. */
  readonly id = 'paraeval';
  /** 6. */
  readonly statsWidth = PARAEVAL_STATS_WIDTH;
  /** {@link PARAEVAL_STATS_COLUMNS}. */
  readonly statsColumns: readonly string[] = PARAEVAL_STATS_COLUMNS;
  /** The paraphrase table. */
  readonly table: ParaphraseTable;
  /** The ratio reported as the score. */
  readonly score: ParaEvalScoreKind;
  private readonly scanner: TokenScanner;
  private readonly bounds = new TokenBounds();
  /** Scratch of the last call, reused while its word-id space is large enough (its arrays scale with the table). */
  private matcher: ParaEvalMatcher | undefined;
  private matcherWords = 0;

  /** @throws InputError `E_BAD_OPTION` for an unknown score kind. */
  constructor(options: ParaEvalOptions) {
    this.table = options.table;
    this.score = options.score ?? 'precision';
    if (!(PARAEVAL_SCORES as readonly string[]).includes(this.score)) {
      throw badOption('score', `one of ${PARAEVAL_SCORES.join(', ')}`, this.score);
    }
    this.scanner = getTokenScanner(this.table.info.tokenize);
  }

  /**
   * `nrefs:1|case:mixed|tok:13a|table:NAME@SHA8|pfmt:tsv|minw:1|ratio:p|version:…`: the table by name and the first 8
   * hex digits of its SHA-256, its format and minimum phrase length, and the reported ratio.
   */
  signature(nRefs: number, short = false): string {
    const { info } = this.table;
    // `|` separates signature fields; whitespace would split the printed signature.
    const name = info.name.replace(/[|\s]/g, '_');
    return formatSignature(
      { nRefs },
      [
        { key: 'case', abbr: 'c', value: info.lowercase ? 'lc' : 'mixed' },
        { key: 'tok', abbr: 'tok', value: info.tokenize },
        { key: 'table', abbr: 'pt', value: `${name}@${info.sha256.slice(0, 8)}` },
        { key: 'pfmt', abbr: 'pf', value: info.format },
        { key: 'minw', abbr: 'mw', value: info.minWords },
        { key: 'ratio', abbr: 'ra', value: this.score === 'precision' ? 'p' : 'r' },
      ],
      short,
    );
  }

  /**
   * Tokenizes references and maps their words to ids (the table's ids, or new ones after them).
   * @throws InputError `E_EMPTY_INPUT` without streams, `E_LINE_COUNT_MISMATCH` when their lengths differ.
   */
  prepareReferences(refStreams: readonly (readonly string[])[]): ParaEvalReferences {
    const segments = checkReferenceStreams('ParaEval', refStreams);
    const nRefs = refStreams.length;
    const otherWords = new Vocabulary();
    const builder = new CsrBuilder(segments * nRefs * 32, segments * nRefs);
    const segRefOffsets = new Int32Array(segments + 1);
    for (let s = 0; s < segments; s++) {
      for (let j = 0; j < nRefs; j++) this.wordIds(refStreams[j][s], builder, otherWords, true);
      segRefOffsets[s + 1] = segRefOffsets[s] + nRefs;
    }
    return { segments, nRefs, refs: builder.finish(), segRefOffsets, otherWords, table: this.table };
  }

  /**
   * One statistics row per hypothesis (see ./match.ts for the columns).
   * @throws InputError `E_LINE_COUNT_MISMATCH` when `hyps` and the references differ in length; TypeError for
   * references prepared by a ParaEval with another table.
   */
  segmentStats(hyps: readonly string[], refs: ParaEvalReferences): Float64Array {
    checkHypothesisCount(hyps, refs.segments);
    if (refs.table !== this.table) throw new TypeError('ParaEval references were prepared with another paraphrase table');
    const builder = new CsrBuilder(hyps.length * 32, hyps.length);
    for (const h of hyps) this.wordIds(h, builder, refs.otherWords, false);
    const words = builder.finish();
    const wordIds = this.table.vocab.size + refs.otherWords.size;
    if (this.matcher === undefined || this.matcherWords < wordIds) {
      this.matcher = new ParaEvalMatcher(this.table, wordIds);
      this.matcherWords = wordIds;
    }
    const matcher = this.matcher;
    const out = new Float64Array(hyps.length * PARAEVAL_STATS_WIDTH);
    for (let i = 0; i < hyps.length; i++) {
      matcher.match(
        words.tokens,
        words.offsets[i],
        words.offsets[i + 1],
        refs.refs.tokens,
        refs.refs.offsets,
        refs.segRefOffsets[i],
        refs.segRefOffsets[i + 1],
        out,
        i * PARAEVAL_STATS_WIDTH,
      );
    }
    return out;
  }

  /** Corpus score from the column sums of the rows. */
  scoreFromStats(totals: Float64Array): MetricScore {
    return this.toScore(totals);
  }

  /** Sentence score from one row (the same ratios). */
  sentenceScoreFromStats(row: Float64Array): MetricScore {
    return this.toScore(row);
  }

  private toScore(stats: Float64Array): MetricScore {
    const { precision, recall } = paraEvalFromStats(stats);
    const [hypMatched, hypParaphrase, hypLength, refMatched, refParaphrase, refLength] = Array.from(stats);
    return {
      name: 'ParaEval',
      score: this.score === 'precision' ? precision : recall,
      verboseScore:
        `(P = ${hypMatched}/${hypLength} hyp words, R = ${refMatched}/${refLength} ref words; ` +
        `by paraphrase: ${hypParaphrase} hyp, ${refParaphrase} ref)`,
      details: { precision, recall, hypMatched, hypParaphrase, hypLength, refMatched, refParaphrase, refLength },
    };
  }

  /**
   * Appends the word ids of `line` as one row: the table's id of a word the table has, else the table's vocabulary
   * size plus its id in `other` (added when `grow`), else -1 (a hypothesis word no reference or phrase has).
   */
  private wordIds(line: string, out: CsrBuilder, other: Vocabulary, grow: boolean): void {
    const { bounds } = this;
    const { vocab } = this.table;
    const tableWords = vocab.size;
    const source = bleuScan(line, this.scanner, this.table.info.lowercase, bounds);
    for (let k = 0; k < bounds.count; k++) {
      const start = bounds.start(k);
      const end = bounds.end(k);
      const hash = tokenHash(source, start, end);
      const id = vocab.findRange(source, start, end, hash);
      if (id >= 0) out.push(id);
      else {
        const o = grow ? other.idOfRange(source, start, end, hash) : other.findRange(source, start, end, hash);
        out.push(o < 0 ? -1 : tableWords + o);
      }
    }
    out.endRow();
  }
}

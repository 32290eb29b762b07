/**
 * TER (Snover et al. 2006), sacreBLEU flavor: exactly sacreBLEU 2.6.0's `TER` metric (sacrebleu/metrics/ter.py
 * with lib_ter.py), the default TER of Palette. The tercom 0.10.0 flavor lives in `ter/tercom*.ts`.
 *
 * Pipeline, as sacreBLEU runs it: every line is right-stripped and passed through `TercomTokenizer`; references
 * go through that preprocessing *twice* (sacreBLEU's `_cache_references` preprocesses them and
 * `_extract_reference_info` does it again), hypotheses once; words are the Python-whitespace split of the
 * result. Per segment and reference, the greedy shift search of `ter/shift-search.ts`; the segment keeps the
 * fewest edits over its references and the average reference length. Statistics row: `[num_edits,
 * ref_length]`; corpus TER = `100 · Σ num_edits / Σ ref_length`, the sentence score the same on one row.
 */
import { CsrBuilder, csrRow, type Csr } from '../../text/csr.js';
import { PaletteError, badOption } from '../../errors.js';
import {
  checkCandidateSegments, checkHypothesisCount, checkReferenceStreams, type Metric, type MetricScore, type PreparedReferences,
} from '../metric.js';
import { Vocabulary, internLine, lookupLine } from '../../text/intern.js';
import { pyLower, pyRstrip, pySplit } from '../../text/pystr.js';
import { TercomTokenizer } from '../../text/tokenizers/tercom-tokenizer.js';
import { defaultTerEngine, type TerEngine } from '../../wasm/ter.js';
import { buildWords, byteVocabularyTokens, lookupWords, mapRowIds, type ByteVocabulary } from '../../wasm/words-13a.js';
import { formatSignature } from '../signature.js';
import type { TerResult } from './alignment.js';
import { SACREBLEU_TER_LIMITS } from './limits.js';
import { sacrebleuTer } from './shift-search.js';
import { TER_STATS_COLUMNS, TER_STATS_WIDTH, terScore, terSegmentStats } from './statistics.js';
import { checkStatsWidth } from '../stats-width.js';
import { checkPairRange, csrRepeat, csrRepeatEach, csrSlice, type PairwiseStage, type PairwiseTexts } from '../pairwise.js';

/** Options of {@link Ter}, sacreBLEU's `TER(...)` arguments; all default to `false`. */
export interface TerOptions {
  /** Tercom normalisation (`--ter-normalized`). @default false */
  readonly normalized?: boolean;
  /** Remove punctuation (`--ter-no-punct`). @default false */
  readonly noPunct?: boolean;
  /** CJK handling, effective only with `normalized` or `noPunct` (`--ter-asian-support`). @default false */
  readonly asianSupport?: boolean;
  /** Do not lowercase (`--ter-case-sensitive`). @default false */
  readonly caseSensitive?: boolean;
  /**
   * Which implementation of the shift search runs: the WebAssembly kernel, the TypeScript one, or the kernel when
   * the build has it (`auto`). Never changes a number (both are tested against the plain port of lib_ter).
   * @default 'auto'
   */
  readonly engine?: 'auto' | 'wasm' | 'typescript';
}

/** References prepared for {@link Ter}. */
export interface TerReferences extends PreparedReferences {
  /** References per segment. */
  readonly nRefs: number;
  /** Word ids of every reference; reference `j` of segment `i` is row `i · nRefs + j`. */
  readonly words: Csr;
  /** The references' vocabulary (hypothesis words only look ids up). */
  readonly vocab: Vocabulary;
  /** The tokenizer options the references were prepared with. */
  readonly prepKey: string;
  /** The references' words as the split kernel interned them, when it did (see {@link KernelWords}). */
  readonly kernelWords?: KernelWords;
}

/**
 * Words of the references as written (case kept), interned by the WebAssembly split kernel: with neither
 * normalisation nor punctuation removal, sacreBLEU's TER tokens of a line are the lowercased words of its
 * `str.split()` (Python's `lower()` acts on each word alone: whitespace is neither cased nor case-ignorable, so no
 * Final_Sigma context reaches across it, and no lowercase mapping yields whitespace or nothing, which is checked: the
 * lowercased words joined by spaces must split into as many words). So each distinct word is lowercased once, in TypeScript, instead of every line, and the
 * lowercased words are interned by the kernel too.
 */
interface KernelWords {
  /** The distinct words as written, in order of first appearance. */
  readonly raw: ByteVocabulary;
  /** The references' vocabulary (their lowercased words) as the kernel holds it: the same ids as `vocab`. */
  readonly lowered: ByteVocabulary;
  /** For each word of `raw`, the id of its hypothesis form (lowercased once) in the references' vocabulary, or -1. */
  readonly hypIds: Int32Array;
}

/** Texts prepared as references of {@link Ter}'s pairwise stage: each text its own one-reference segment. */
export interface TerPairReferences extends TerReferences, PairwiseTexts {}

/** Texts prepared as hypotheses of {@link Ter}'s pairwise stage: word ids in the references' vocabulary. */
export interface TerPairHypotheses extends PairwiseTexts {
  /** Word ids of every text (-1 for a word no reference has). */
  readonly words: Csr;
}

/** One segment aligned to each of its references: what `--detail` shows. */
export interface TerSegmentAlignment {
  /** Hypothesis words (after tokenization). */
  readonly hypWords: readonly string[];
  /** Words of each reference. */
  readonly refWords: readonly (readonly string[])[];
  /** The result against each reference, with its alignment. */
  readonly perReference: readonly TerResult[];
  /** Index of the reference that gave the segment's edits (the first with the fewest). */
  readonly bestRef: number;
  /** The segment's statistics row `[num_edits, ref_length]`. */
  readonly stats: Float64Array;
}

/**
 * The tokens of the one row of `rows` when it holds exactly `n` (the row of `n` words joined by spaces: each word
 * is one token exactly when they add up, since no lowercased word is empty or all whitespace), else null.
 */
function wordIds(rows: Csr, n: number): Int32Array | null {
  return rows.offsets[1] === n ? rows.tokens.subarray(0, n) : null;
}

/** sacreBLEU's TER metric. */
export class Ter implements Metric<TerReferences> {
  /** Metric id as given to `-m`. */
  readonly id = 'ter';
  /** `[num_edits, ref_length]`. */
  readonly statsWidth = TER_STATS_WIDTH;
  /** `num_edits, ref_length`. */
  readonly statsColumns = TER_STATS_COLUMNS;
  /** The tokenizer (its options are this metric's options). */
  readonly tokenizer: TercomTokenizer;

  /** The implementation choice (see {@link TerOptions.engine}). */
  readonly engine: 'auto' | 'wasm' | 'typescript';

  constructor(options: TerOptions = {}) {
    this.tokenizer = new TercomTokenizer(options);
    const engine = options.engine ?? 'auto';
    if (engine !== 'auto' && engine !== 'wasm' && engine !== 'typescript') {
      throw badOption('engine', '"auto", "wasm" or "typescript"', engine);
    }
    this.engine = engine;
  }

  /** The kernel engine to use, or null for the TypeScript search. */
  private kernel(): TerEngine | null {
    if (this.engine === 'typescript') return null;
    const engine = defaultTerEngine();
    if (engine === null && this.engine === 'wasm') {
      throw new PaletteError('E_WASM', 'the WebAssembly kernels have no TER kernel (run npm run build)');
    }
    return engine;
  }

  /**
   * sacreBLEU's TER signature, e.g. `nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:…` (short
   * form `#:1|c:lc|t:tercom|nr:no|pn:yes|as:no|v:…`). `nRefs < 0` gives `var`.
   */
  signature(nRefs: number, short = false): string {
    const t = this.tokenizer;
    return formatSignature(
      { nRefs },
      [
        { key: 'case', abbr: 'c', value: t.caseSensitive ? 'mixed' : 'lc' },
        { key: 'tok', abbr: 't', value: t.signature() },
        { key: 'norm', abbr: 'nr', value: t.normalized },
        { key: 'punct', abbr: 'pn', value: !t.noPunct },
        { key: 'asian', abbr: 'as', value: t.asianSupport },
      ],
      short,
    );
  }

  /** sacreBLEU's `_preprocess_segment`: the tokenized, right-stripped line. */
  preprocess(line: string): string {
    return this.tokenizer.tokenize(pyRstrip(line));
  }

  private get prepKey(): string {
    const t = this.tokenizer;
    return `${t.caseSensitive ? 'mixed' : 'lc'}|${t.normalized}|${t.noPunct}|${t.asianSupport}`;
  }

  /**
   * Tokenizes (twice, as sacreBLEU) and interns every reference.
   * @throws InputError `E_EMPTY_INPUT` without reference streams, `E_LINE_COUNT_MISMATCH` when they differ in length.
   */
  prepareReferences(refStreams: readonly (readonly string[])[]): TerReferences {
    const segments = checkReferenceStreams('TER', refStreams);
    const nRefs = refStreams.length;
    const kernel = this.splitOnly ? this.kernelReferences(refStreams, segments) : null;
    if (kernel !== null) return kernel;
    const vocab = new Vocabulary();
    const words = new CsrBuilder(segments * nRefs * 24, segments * nRefs);
    for (let i = 0; i < segments; i++) {
      for (let j = 0; j < nRefs; j++) internLine(vocab, this.preprocess(this.preprocess(refStreams[j][i])), words);
    }
    return { segments, nRefs, words: words.finish(), vocab, prepKey: this.prepKey };
  }

  /** Whether the tokenizer only lowercases (or not) and splits: no normalisation, no punctuation removal. */
  private get splitOnly(): boolean {
    return !this.tokenizer.normalized && !this.tokenizer.noPunct;
  }

  /** The tokenizer's lowercasing of one word (none when case-sensitive). */
  private lower(word: string): string {
    return this.tokenizer.caseSensitive ? word : pyLower(word);
  }

  /**
   * {@link prepareReferences} through the split kernel (see {@link KernelWords}): a reference word is its written
   * form lowercased twice (sacreBLEU preprocesses references twice), a hypothesis word once. Null when a lowercased
   * word is not one word (then only the string tokenizer is exact).
   */
  private kernelReferences(refStreams: readonly (readonly string[])[], segments: number): TerReferences | null {
    const nRefs = refStreams.length;
    const lines = nRefs === 1 ? refStreams[0].slice(0, segments) : [];
    if (nRefs !== 1) for (let s = 0; s < segments; s++) for (let j = 0; j < nRefs; j++) lines.push(refStreams[j][s]);
    const built = buildWords('split', lines);
    const once = byteVocabularyTokens(built.vocab);
    for (let r = 0; r < once.length; r++) once[r] = this.lower(once[r]);
    const twice = once.map((w) => this.lower(w));
    // The written words' reference forms as one line: the kernel's id of its k-th word is that of written word k.
    const low = buildWords('split', [twice.join(' ')]);
    const refIds = wordIds(low.rows, twice.length);
    // Looked up only once every reference word is in: a word's once-lowered form may be another's twice-lowered one.
    const hypIds = refIds === null ? null : wordIds(lookupWords('split', [once.join(' ')], low.vocab, -1), once.length);
    if (refIds === null || hypIds === null) return null;
    const lowered = low.vocab;
    return {
      segments, nRefs, words: mapRowIds(built.rows, refIds), prepKey: this.prepKey,
      vocab: Vocabulary.deferred(() => byteVocabularyTokens(lowered)),
      kernelWords: { raw: built.vocab, lowered, hypIds: hypIds.slice() },
    };
  }

  private checkRefs(refs: TerReferences): void {
    if (refs.prepKey !== this.prepKey) throw new TypeError('TER references were prepared with other tokenizer options');
  }

  /** Hypothesis word ids against the references' vocabulary (-1 for a word no reference has). */
  private hypIds(hyps: readonly string[], refs: TerReferences): Csr {
    const kernel = refs.kernelWords;
    if (kernel !== undefined) {
      // The references' written words keep their ids; each new written word is lowercased and looked up once.
      const built = buildWords('split', hyps, kernel.raw);
      const base = kernel.raw.count;
      const fresh = byteVocabularyTokens(built.vocab, base);
      for (let k = 0; k < fresh.length; k++) fresh[k] = this.lower(fresh[k]);
      const found = wordIds(lookupWords('split', [fresh.join(' ')], kernel.lowered, -1), fresh.length);
      if (found !== null) {
        const ids = new Int32Array(built.vocab.count);
        ids.set(kernel.hypIds);
        ids.set(found, base);
        return mapRowIds(built.rows, ids);
      }
    }
    const vocab = refs.vocab;
    const b = new CsrBuilder(hyps.length * 24, hyps.length);
    // lookupLine splits on Python whitespace itself: the tokenizer's final join would only be split again.
    for (const h of hyps) lookupLine(vocab, this.tokenizer.unjoined(pyRstrip(h)), b, -1);
    return b.finish();
  }

  /**
   * One `[num_edits, ref_length]` row per hypothesis.
   * @throws InputError `E_LINE_COUNT_MISMATCH` when `hyps` and the references differ in length.
   */
  segmentStats(hyps: readonly string[], refs: TerReferences): Float64Array {
    checkHypothesisCount(hyps, refs.segments);
    this.checkRefs(refs);
    return this.rows(this.hypIds(hyps, refs), refs.words, refs.nRefs);
  }

  /**
   * Rows of candidates grouped by segment (`Metric.candidateStats`): each candidate against the references of its
   * segment, in one kernel call.
   * @throws RangeError when `segmentOf` does not give each candidate a segment of `refs`, in non-decreasing order.
   */
  candidateStats(hyps: readonly string[], segmentOf: Int32Array, refs: TerReferences): Float64Array {
    checkCandidateSegments(hyps.length, segmentOf, refs.segments);
    this.checkRefs(refs);
    const nRefs = refs.nRefs;
    return this.rows(this.hypIds(hyps, refs), referencesOf(refs.words, segmentOf, nRefs), nRefs);
  }

  /**
   * The pairwise stage (src/metrics/pairwise.ts): each text preprocessed once as a hypothesis and (twice, as
   * sacreBLEU) as a reference; every pair of a tile goes to the shift-search kernel as one hypothesis with one
   * reference, so a pair's row is the one {@link segmentStats} gives with that reference alone.
   */
  pairwise(): PairwiseStage<TerPairHypotheses, TerPairReferences> {
    return {
      statsWidth: TER_STATS_WIDTH,
      references: (texts) => ({ ...this.prepareReferences([texts]), count: texts.length }),
      hypotheses: (texts, refs) => {
        this.checkRefs(refs);
        return { count: texts.length, words: this.hypIds(texts, refs) };
      },
      pairStats: (hyps, hypFrom, hypTo, refs, refFrom, refTo) => {
        checkPairRange('hypothesis', hypFrom, hypTo, hyps.count);
        checkPairRange('reference', refFrom, refTo, refs.count);
        const n = hypTo - hypFrom;
        const m = refTo - refFrom;
        if (n === 0 || m === 0) return new Float64Array(0);
        // Pair (i, j) is row i · m + j on both sides: each hypothesis m times, the references' run n times.
        const refRows = csrSlice(refs.words, refFrom, refTo);
        return this.rows(csrRepeatEach(hyps.words, hypFrom, hypTo, m), csrRepeat(refRows, 0, m, n), 1);
      },
      score: (rows, at) => terScore(rows[at], rows[at + 1]),
    };
  }

  /** Rows of hypothesis `i` (row `i` of `hypWords`) against reference rows `i · nRefs .. i · nRefs + nRefs − 1`. */
  private rows(hypWords: Csr, refWords: Csr, nRefs: number): Float64Array {
    const n = hypWords.offsets.length - 1;
    const out = new Float64Array(n * TER_STATS_WIDTH);
    const engine = this.kernel();
    const edits = engine ? engine.sacrebleuEdits(hypWords, refWords, nRefs, SACREBLEU_TER_LIMITS) : null;
    const offsets = refWords.offsets;
    for (let i = 0; i < n; i++) {
      // sacreBLEU: the fewest edits (strictly fewer replaces), the reference lengths summed then divided once.
      let best = Infinity;
      let lengths = 0;
      for (let j = 0; j < nRefs; j++) {
        const row = i * nRefs + j;
        const e = edits ? edits[row] : sacrebleuTer(csrRow(hypWords, i), csrRow(refWords, row)).edits;
        if (e < best) best = e;
        lengths += offsets[row + 1] - offsets[row];
      }
      out[i * TER_STATS_WIDTH] = best;
      out[i * TER_STATS_WIDTH + 1] = lengths / nRefs;
    }
    return out;
  }

  /**
   * Segment `segment` aligned to each of its references, with words and operations (for `--detail`); its
   * `stats` equal that segment's row of {@link segmentStats}.
   */
  alignSegment(hyp: string, refs: TerReferences, segment: number): TerSegmentAlignment {
    this.checkRefs(refs);
    if (!Number.isInteger(segment) || segment < 0 || segment >= refs.segments) {
      throw new RangeError(`segment must be an integer in [0, ${refs.segments}) (got ${segment})`);
    }
    const hypWords = pySplit(this.preprocess(hyp));
    const b = new CsrBuilder(hypWords.length + 1, 1);
    lookupLine(refs.vocab, hypWords.join(' '), b, -1);
    const ids = csrRow(b.finish(), 0);
    const refWords: string[][] = [];
    const perReference: TerResult[] = [];
    for (let j = 0; j < refs.nRefs; j++) {
      const r = csrRow(refs.words, segment * refs.nRefs + j);
      refWords.push(Array.from(r, (id) => refs.vocab.token(id)));
      perReference.push(sacrebleuTer(ids, r, undefined, true));
    }
    const s = terSegmentStats(perReference);
    return { hypWords, refWords, perReference, bestRef: s.bestRef, stats: Float64Array.of(s.edits, s.refLength) };
  }

  /** Corpus TER from the column sums of the rows. */
  scoreFromStats(totals: Float64Array): MetricScore {
    return this.toScore(totals);
  }

  /** Sentence TER from one row (the same formula, as in sacreBLEU). */
  sentenceScoreFromStats(row: Float64Array): MetricScore {
    return this.toScore(row);
  }

  private toScore(stats: Float64Array): MetricScore {
    checkStatsWidth('TER', stats, TER_STATS_WIDTH);
    return {
      name: 'TER',
      score: terScore(stats[0], stats[1]),
      verboseScore: '',
      details: { num_edits: stats[0], ref_length: stats[1] },
    };
  }
}

/** The reference rows of each candidate's segment, candidate after candidate (the layout the kernel pairs with them). */
function referencesOf(words: Csr, segmentOf: Int32Array, nRefs: number): Csr {
  const offsets = new Int32Array(segmentOf.length * nRefs + 1);
  let total = 0;
  for (let h = 0; h < segmentOf.length; h++) {
    for (let j = 0; j < nRefs; j++) {
      const r = segmentOf[h] * nRefs + j;
      total += words.offsets[r + 1] - words.offsets[r];
      offsets[h * nRefs + j + 1] = total;
    }
  }
  const tokens = new Int32Array(total);
  for (let h = 0; h < segmentOf.length; h++) {
    for (let j = 0; j < nRefs; j++) tokens.set(csrRow(words, segmentOf[h] * nRefs + j), offsets[h * nRefs + j]);
  }
  return { tokens, offsets };
}

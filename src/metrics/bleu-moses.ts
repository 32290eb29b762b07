/**
 * The `moses` BLEU flavor: Moses MERT's BLEU (mosesdecoder mert/BleuScorer.cpp, Reference.h).
 *
 * - Sufficient statistics per candidate as `extractor` writes them to SCORESTAT:
 *   `m1 t1 m2 t2 m3 t3 m4 t4 reflen` (clipped matches and hypothesis n-grams interleaved per order, then the
 *   reference length). Tokens are split on ASCII spaces only (a tab is part of a token), case is kept unless
 *   `lowercase` (ASCII `tolower`, Moses `case:false`); reference counts are max-merged over references.
 * - Reference length: `closest` (Moses' default; ties to the shorter), `shortest`, `average` (truncated to an
 *   integer, computed in single precision as Moses does).
 * - Scores in Moses' single-precision arithmetic: `mosesBleu` (`BleuScorer::calculateScore`, corpus BLEU without
 *   smoothing) and `mosesSmoothedSentenceBleu` (`smoothedSentenceBleu`: add `smoothing` to every order's matches
 *   and totals, optionally to the reference length — BLEU+1 for PRO/MIRA).
 *
 * Scores are on the 0–1 scale, as Moses computes them.
 */
import { CsrBuilder, type Csr } from '../corpus/csr.js';
import { clippedNgramCounts } from '../wasm/ngram.js';
import { expCR, logCR } from '../util/correctly-rounded.js';
import { internId } from './bleu-text.js';

/** Reference-length strategies of Moses' `reflen` scorer option. */
export type MosesRefLength = 'closest' | 'shortest' | 'average';

/** Options of the Moses statistics; every field is optional. */
export interface MosesBleuOptions {
  /**
   * Reference length strategy (`--sctype BLEU --scconfig reflen:…`).
   * @default 'closest'
   */
  readonly refLength?: MosesRefLength;
  /**
   * Lowercase ASCII letters (Moses `case:false`); Moses preserves case by default.
   * @default false
   */
  readonly lowercase?: boolean;
  /**
   * N-gram order (Moses fixes `kBleuNgramOrder` = 4).
   * @default 4
   */
  readonly order?: number;
}

/** References prepared for Moses statistics (one entry per sentence id). */
export interface MosesReferences {
  /** Sentences (sentence ids 0 .. segments − 1). */
  readonly segments: number;
  /** Reference rows; sentence `s` owns rows `segRefOffsets[s] .. segRefOffsets[s + 1]`. */
  readonly refs: Csr;
  /** `segments + 1` offsets into the rows of `refs`. */
  readonly segRefOffsets: Int32Array;
  /** Token → id of every reference token. */
  readonly vocab: ReadonlyMap<string, number>;
  /** Lowercasing setting the references were prepared with. */
  readonly lowercase: boolean;
}

const asciiLower = (s: string): string => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());

/** Appends the space-separated tokens of `line` (empty tokens skipped, as Moses' `TokenIter<…, true>`). */
function appendSpaceTokens(line: string, out: CsrBuilder, lookup: (t: string) => number): void {
  for (const t of line.split(' ')) if (t.length > 0) out.push(lookup(t));
  out.endRow();
}

/** Tokenizes and interns references: `refStreams[j][s]` is reference `j` of sentence `s`. */
export function prepareMosesReferences(
  refStreams: readonly (readonly string[])[],
  options: MosesBleuOptions = {},
): MosesReferences {
  if (refStreams.length === 0) throw new RangeError('Moses BLEU needs at least one reference stream');
  const lowercase = options.lowercase ?? false;
  const segments = refStreams[0].length;
  const vocab = new Map<string, number>();
  const builder = new CsrBuilder(segments * refStreams.length * 32, segments * refStreams.length);
  const segRefOffsets = new Int32Array(segments + 1);
  const lookup = (t: string): number => internId(vocab, t);
  for (let s = 0; s < segments; s++) {
    for (const stream of refStreams) {
      if (stream.length !== segments) throw new RangeError('reference streams differ in length');
      appendSpaceTokens(lowercase ? asciiLower(stream[s]) : stream[s], builder, lookup);
    }
    segRefOffsets[s + 1] = segRefOffsets[s] + refStreams.length;
  }
  return { segments, refs: builder.finish(), segRefOffsets, vocab, lowercase };
}

/** Moses' `Reference::CalcClosest/CalcShortest/CalcAverage`. */
function mosesRefLength(strategy: MosesRefLength, hypLen: number, lengths: number[]): number {
  if (strategy === 'shortest') return Math.min(...lengths);
  if (strategy === 'average') {
    let total = 0;
    for (const l of lengths) total += l;
    // static_cast<int>(static_cast<float>(total) / size): single-precision quotient, truncated.
    return Math.trunc(Math.fround(Math.fround(total) / lengths.length));
  }
  let best = lengths[0];
  for (const l of lengths) {
    const d = Math.abs(l - hypLen);
    const bd = Math.abs(best - hypLen);
    if (d < bd || (d === bd && l < best)) best = l;
  }
  return best;
}

/**
 * Moses BLEU statistics of candidates: `candidates[c]` is a translation of sentence `sentenceIds[c]`.
 * Returns `2 * order + 1` numbers per candidate: `m1 t1 … m_order t_order reflen`.
 * @throws RangeError for a sentence id without references (Moses: "Sentence id … not found in reference set").
 */
export function mosesBleuStats(
  candidates: readonly string[],
  sentenceIds: ArrayLike<number>,
  refs: MosesReferences,
  options: MosesBleuOptions = {},
): Float64Array {
  const order = options.order ?? 4;
  const strategy = options.refLength ?? 'closest';
  if (candidates.length !== sentenceIds.length) throw new RangeError('one sentence id per candidate is needed');
  // Hypothesis tokens unknown to the references share one id, as Moses' kUnknownToken.
  const unknown = refs.vocab.size;
  const lookup = (t: string): number => refs.vocab.get(t) ?? unknown;
  const builder = new CsrBuilder(candidates.length * 32, candidates.length);
  const hypSegment = new Int32Array(candidates.length);
  for (let c = 0; c < candidates.length; c++) {
    const sid = sentenceIds[c];
    if (!Number.isInteger(sid) || sid < 0 || sid >= refs.segments) {
      throw new RangeError(`Sentence id (${sid}) not found in reference set`);
    }
    hypSegment[c] = sid;
    appendSpaceTokens(refs.lowercase ? asciiLower(candidates[c]) : candidates[c], builder, lookup);
  }
  const hyps = builder.finish();
  // The n-gram contract wants hypotheses grouped by segment in non-decreasing order: sort a permutation.
  const perm = Array.from({ length: candidates.length }, (_, i) => i).sort(
    (a, b) => hypSegment[a] - hypSegment[b] || a - b,
  );
  const sortedRows: Int32Array[] = perm.map((c) => hyps.tokens.subarray(hyps.offsets[c], hyps.offsets[c + 1]));
  const sorted = new CsrBuilder(hyps.tokens.length + 16, candidates.length);
  for (const row of sortedRows) {
    for (let i = 0; i < row.length; i++) sorted.push(row[i]);
    sorted.endRow();
  }
  const sortedSegments = Int32Array.from(perm, (c) => hypSegment[c]);
  const counts = clippedNgramCounts(
    { hyps: sorted.finish(), hypSegment: sortedSegments, refs: refs.refs, segRefOffsets: refs.segRefOffsets },
    order,
  );
  const width = 2 * order + 1;
  const out = new Float64Array(candidates.length * width);
  perm.forEach((c, k) => {
    const row = c * width;
    for (let i = 0; i < order; i++) {
      out[row + 2 * i] = counts[k * 2 * order + i];
      out[row + 2 * i + 1] = counts[k * 2 * order + order + i];
    }
    const s = hypSegment[c];
    const lengths: number[] = [];
    for (let r = refs.segRefOffsets[s]; r < refs.segRefOffsets[s + 1]; r++) {
      lengths.push(refs.refs.offsets[r + 1] - refs.refs.offsets[r]);
    }
    out[row + 2 * order] = mosesRefLength(strategy, hyps.offsets[c + 1] - hyps.offsets[c], lengths);
  });
  return out;
}

const f32 = Math.fround;
/** C `logf`/`expf`: the correctly rounded double result rounded to single precision (a correctly rounded float
 * except when the double lands on a float rounding boundary, about one input in 2^29). */
const logf = (x: number): number => f32(logCR(f32(x)));
const expf = (x: number): number => f32(expCR(f32(x)));

/**
 * `BleuScorer::calculateScore`: corpus BLEU (0–1) from summed statistics `m1 t1 … m4 t4 reflen`, no smoothing,
 * 0 when any order has no match; single-precision arithmetic as Moses.
 */
export function mosesBleu(stats: ArrayLike<number>, order = 4): number {
  let logbleu = 0;
  for (let i = 0; i < order; i++) {
    if (stats[2 * i] === 0) return 0;
    logbleu = f32(logbleu + f32(logf(stats[2 * i]) - logf(stats[2 * i + 1])));
  }
  logbleu = f32(logbleu / order);
  // 1.0 - float(reflen) / hyp_len: the quotient in float, the subtraction in double, stored as float.
  const brevity = f32(1.0 - f32(f32(stats[2 * order]) / f32(stats[1])));
  if (brevity < 0) logbleu = f32(logbleu + brevity);
  return expf(logbleu);
}

/**
 * Moses `smoothedSentenceBleu(stats, smoothing, smoothBP)`: BLEU+`smoothing` (0–1) of one candidate, every
 * order's matches and totals increased by `smoothing`, the reference length too when `smoothBP`; single precision.
 * @param smoothing added count @default 1
 * @param smoothBP also add `smoothing` to the reference length @default false
 */
export function mosesSmoothedSentenceBleu(
  stats: ArrayLike<number>,
  smoothing = 1,
  smoothBP = false,
  order = 4,
): number {
  const s = f32(smoothing);
  let logbleu = 0;
  for (let j = 0; j < order; j++) {
    logbleu = f32(logbleu + f32(logf(f32(f32(stats[2 * j]) + s)) - logf(f32(f32(stats[2 * j + 1]) + s))));
  }
  logbleu = f32(logbleu / order);
  const reflength = f32(f32(stats[2 * order]) + (smoothBP ? s : 0));
  const brevity = f32(1.0 - f32(reflength / f32(stats[1])));
  if (brevity < 0) logbleu = f32(logbleu + brevity);
  return expf(logbleu);
}

/**
 * Moses' `sentenceLevelBleuPlusOne(stats)` (PRO's sentence BLEU in older Moses versions): the same arithmetic as
 * {@link mosesSmoothedSentenceBleu} with smoothing 1 and no smoothed brevity penalty.
 */
export function mosesSentenceBleuPlusOne(stats: ArrayLike<number>): number {
  return mosesSmoothedSentenceBleu(stats, 1, false);
}

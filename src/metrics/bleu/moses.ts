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
import { CsrBuilder, type Csr } from '../../text/csr.js';
import { expCR, logCR } from '../../util/correctly-rounded.js';
import { tokenHash, Vocabulary } from '../../text/intern.js';
import { writeMosesBleuRows, type MosesRefLength } from './moses-rows.js';
import { internId } from './text.js';
import { formatSignature } from '../signature.js';

/** Reference-length strategies of Moses' `reflen` scorer option (./moses-rows.ts). */
export type { MosesRefLength } from './moses-rows.js';

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

/**
 * The reference vocabulary as a {@link Vocabulary} (hash table over code units), built once per references object
 * from its `vocab` map: hypothesis tokens are then looked up straight from the candidate text, without a string per
 * token. Undefined when the map's ids are not dense in insertion order (a hand-made references object), in which case
 * the map itself is used.
 */
const vocabularies = new WeakMap<MosesReferences, Vocabulary | null>();
function referenceVocabulary(refs: MosesReferences): Vocabulary | undefined {
  let v = vocabularies.get(refs);
  // Rebuilt if the map grew since (it is a plain Map a caller could still add to).
  if (v === undefined || (v !== null && v.size !== refs.vocab.size)) {
    v = new Vocabulary();
    for (const [token, id] of refs.vocab) {
      if (v.id(token) !== id) {
        v = null;
        break;
      }
    }
    vocabularies.set(refs, v);
  }
  return v ?? undefined;
}

/** Appends the space-separated tokens of `line` looked up in `vocab` (empty tokens skipped, unknown → `unknown`). */
function lookupSpaceTokens(line: string, out: CsrBuilder, vocab: Vocabulary, unknown: number): void {
  const n = line.length;
  let i = 0;
  while (i < n) {
    while (i < n && line.charCodeAt(i) === 0x20) i++;
    if (i === n) break;
    const start = i;
    while (i < n && line.charCodeAt(i) !== 0x20) i++;
    const id = vocab.findRange(line, start, i, tokenHash(line, start, i));
    out.push(id < 0 ? unknown : id);
  }
  out.endRow();
}

/**
 * Moses' words of candidates (its split at spaces, its case setting) as ids of the references' vocabulary, one row
 * per candidate; words no reference has share one id that matches nothing, as Moses' kUnknownToken.
 */
export function mosesCandidateTokens(candidates: readonly string[], refs: MosesReferences): Csr {
  const n = candidates.length;
  const unknown = refs.vocab.size;
  const vocabulary = referenceVocabulary(refs);
  const lookup = (t: string): number => refs.vocab.get(t) ?? unknown;
  const builder = new CsrBuilder(n * 32, n);
  for (let c = 0; c < n; c++) {
    const line = refs.lowercase ? asciiLower(candidates[c]) : candidates[c];
    if (vocabulary !== undefined) lookupSpaceTokens(line, builder, vocabulary, unknown);
    else appendSpaceTokens(line, builder, lookup);
  }
  return builder.finish();
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
  const n = candidates.length;
  if (n !== sentenceIds.length) throw new RangeError('one sentence id per candidate is needed');
  const hypSegment = new Int32Array(n);
  let grouped = true;
  for (let c = 0; c < n; c++) {
    const sid = sentenceIds[c];
    if (!Number.isInteger(sid) || sid < 0 || sid >= refs.segments) {
      throw new RangeError(`Sentence id (${sid}) not found in reference set`);
    }
    hypSegment[c] = sid;
    if (c > 0 && sid < hypSegment[c - 1]) grouped = false;
  }
  const hyps = mosesCandidateTokens(candidates, refs);
  // The n-gram contract wants hypotheses grouped by segment in non-decreasing order. N-best lists already are
  // (the common case, no copy); otherwise a stable sort of a permutation regroups them.
  let perm: Int32Array | undefined;
  let kernelHyps = hyps;
  let kernelSegments = hypSegment;
  if (!grouped) {
    perm = Int32Array.from(
      Array.from({ length: n }, (_, i) => i).sort((a, b) => hypSegment[a] - hypSegment[b] || a - b),
    );
    const sorted = new CsrBuilder(hyps.tokens.length + 16, n);
    for (let k = 0; k < n; k++) {
      const c = perm[k];
      for (let i = hyps.offsets[c]; i < hyps.offsets[c + 1]; i++) sorted.push(hyps.tokens[i]);
      sorted.endRow();
    }
    kernelHyps = sorted.finish();
    kernelSegments = Int32Array.from(perm, (c) => hypSegment[c]);
  }
  const width = 2 * order + 1;
  const batch = { hyps: kernelHyps, hypSegment: kernelSegments, refs: refs.refs, segRefOffsets: refs.segRefOffsets };
  if (perm === undefined) {
    const out = new Float64Array(n * width);
    writeMosesBleuRows(batch, order, strategy, out, 0, width);
    return out;
  }
  // Rows in kernel order, then each one back to its candidate's place.
  const sortedRows = new Float64Array(n * width);
  writeMosesBleuRows(batch, order, strategy, sortedRows, 0, width);
  const out = new Float64Array(n * width);
  for (let k = 0; k < n; k++) out.set(sortedRows.subarray(k * width, (k + 1) * width), perm[k] * width);
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

/**
 * The signature of statistics over Moses' words (`nrefs:N|case:lc|mixed|tok:space|flavor:moses|version:…`): Moses
 * MERT's PER and WER scorers, whose only settings are the references and `case:`.
 */
export function mosesWordSignature(lowercase: boolean, nRefs: number, short = false): string {
  return formatSignature(
    { nRefs },
    [
      { key: 'case', abbr: 'c', value: lowercase ? 'lc' : 'mixed' },
      { key: 'tok', abbr: 'tok', value: 'space' },
      { key: 'flavor', abbr: 'f', value: 'moses' },
    ],
    short,
  );
}

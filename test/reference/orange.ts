/**
 * Reference implementation (oracle) of ORANGE (src/meta/orange/orange.ts, src/meta/orange/scorer.ts): plain and slow on
 * purpose. Every leave-one-out score is computed on its own — one text against one set of u − 1 references through
 * the plain kernels of test/reference/ (n-gram maps, LCS/WLCS tables, skip-bigram maps, Levenshtein tables,
 * multiset intersections) and the metrics' score reductions (`bleuFromStats`, `mtevalScore`, `perFromStats`, the
 * β F-measure) — and the texts of a sentence are ranked by sorting them, ties given the mean of their positions.
 *
 * Tokens come from the same text pipelines as the fast path (tokenizers are not what is under test here).
 *
 * The Metric-API variants (paraeval, impact, npchunk) are scored text by text: one `palette score -sl` sentence
 * score of the text against its set, the set prepared on its own as one segment, no blocks and no rounds.
 */
import { csrFromArrays, type Csr } from '../../src/text/csr.js';
import { linOchReduction } from '../../src/metrics/bleu/lin-och.js';
import { bleuFromStats } from '../../src/metrics/bleu/score.js';
import { bleuTextOptions, internHypotheses, internReferences, type BleuTextOptions } from '../../src/metrics/bleu/text.js';
import { editTextOptions } from '../../src/metrics/edit/words.js';
import { mtevalScore } from '../../src/metrics/nist/mteval.js';
import { perFromStats } from '../../src/metrics/per/per.js';
import { betaFMeasure } from '../../src/metrics/rouge/f-measure.js';
import { resolveRougeOptions } from '../../src/metrics/rouge/options.js';
import { SummaryReader } from '../../src/metrics/rouge/summary-text.js';
import type { OrangeVariant } from '../../src/meta/orange/variants.js';
import { defaultRegistry, type MetricSettings } from '../../src/metrics/registry.js';
import { Vocabulary } from '../../src/text/intern.js';
import { defaultNgramEngine } from '../../src/wasm/ngram.js';
import { wlcsWeight, wlcsWeightInverse } from '../../src/wasm/rouge.js';
import { gtmFromStats } from '../../src/metrics/gtm/gtm.js';
import { gtmRuns, levenshtein, multisetIntersection } from './edit.js';
import * as ngram from './ngram.js';
import * as rouge from './rouge.js';

/** An ORANGE input: u reference streams and, per sentence id, its candidates. */
export interface OrangeCase {
  /** `refStreams[j][s]`: reference j of sentence s. */
  readonly refStreams: readonly (readonly string[])[];
  /** The scored sentences, ascending ids, each with at least one candidate. */
  readonly sentences: readonly { readonly id: number; readonly candidates: readonly string[] }[];
}

/** Leave-one-out scores of one sentence. */
export interface SentenceScores {
  /** Per candidate, the mean over the u sets (summed in set order, then divided by u). */
  readonly candidates: number[];
  /** Per reference, against the others. */
  readonly references: number[];
}

/** Token rows of a case in one family: `refs[s][j]`, `cands[i][c]` (i indexes `c.sentences`). */
interface Tokens {
  readonly refs: number[][][];
  readonly cands: number[][][];
  readonly allRefs: Csr;
}

const rows = (csr: Csr): number[][] =>
  Array.from({ length: csr.offsets.length - 1 }, (_, i) => Array.from(csr.tokens.subarray(csr.offsets[i], csr.offsets[i + 1])));

function textTokens(c: OrangeCase, text: BleuTextOptions): Tokens {
  const u = c.refStreams.length;
  const interned = internReferences(c.refStreams, c.refStreams[0].length, text);
  const all = rows(interned.refs);
  const refs = Array.from({ length: c.refStreams[0].length }, (_, s) => all.slice(s * u, (s + 1) * u));
  const cands = c.sentences.map((s) => rows(internHypotheses(s.candidates, interned, text)));
  return { refs, cands, allRefs: interned.refs };
}

function rougeTokens(c: OrangeCase): Tokens {
  const reader = new SummaryReader(resolveRougeOptions({ flavor: 'paper', type: 'rouge-l' }), new Vocabulary());
  const u = c.refStreams.length;
  const flat: string[] = [];
  for (let s = 0; s < c.refStreams[0].length; s++) for (let j = 0; j < u; j++) flat.push(c.refStreams[j][s]);
  const all = rows(reader.read(flat, flat.length).tokens);
  const refs = Array.from({ length: c.refStreams[0].length }, (_, s) => all.slice(s * u, (s + 1) * u));
  const cands = c.sentences.map((s) => rows(reader.read(s.candidates, s.candidates.length).tokens));
  return { refs, cands, allRefs: csrFromArrays(all) };
}

/** One text against one set of references: `hyp` and `set` token rows. */
type SetScore = (hyp: number[], set: number[][]) => number;

/** sacrebleu's closest reference length (ties to the shorter). */
function closest(hypLen: number, set: number[][]): number {
  let best = -1;
  for (const r of set) {
    const d = Math.abs(hypLen - r.length);
    if (best < 0 || d < Math.abs(hypLen - best) || (d === Math.abs(hypLen - best) && r.length < best)) best = r.length;
  }
  return best;
}

function single(hyp: number[], set: number[][]) {
  return { hyps: csrFromArrays([hyp]), hypSegment: null, refs: csrFromArrays(set), segRefOffsets: Int32Array.from([0, set.length]) };
}

function setScorer(v: OrangeVariant, tokens: Tokens): SetScore {
  const fm = betaFMeasure(1);
  const bestF = (pairs: { p: number; r: number }[]): number => {
    let p = 0;
    let r = 0;
    for (const x of pairs) {
      p = Math.max(p, x.p);
      r = Math.max(r, x.r);
    }
    return fm(p, r);
  };
  switch (v.kind) {
    case 'bleus':
      return (hyp, set) => {
        const counts = ngram.clippedNgramCounts(single(hyp, set), v.order);
        return bleuFromStats([hyp.length, closest(hyp.length, set), ...counts], linOchReduction(v.order)).score;
      };
    case 'nist': {
      const weights = ngram.ngramWeights(tokens.allRefs, 5, defaultNgramEngine().kernels.log2Ratio);
      return (hyp, set) => {
        const counts = ngram.clippedNgramCounts(single(hyp, set), 5, weights);
        const refWords = set.reduce((a, r) => a + r.length, 0);
        const row = [1, set.length, refWords, ...counts.slice(5, 10), ...counts.slice(0, 5), ...counts.slice(10, 15)];
        return mtevalScore(row, 5).score;
      };
    }
    case 'rouge-n':
      return (hyp, set) =>
        bestF(
          set.map((ref) => {
            const row = ngram.perReferenceNgramCounts(single(hyp, [ref]), v.n).rows;
            const [hit, nh, nr] = [row[v.n - 1], row[2 * v.n - 1], row[3 * v.n - 1]];
            return { p: nh > 0 ? hit / nh : 0, r: nr > 0 ? hit / nr : 0 };
          }),
        );
    case 'gtm':
      return (hyp, set) => {
        let best = -1;
        for (const ref of set) {
          let weight = 0;
          for (const length of gtmRuns(ref, hyp)) weight += Math.pow(length, v.exponent);
          best = Math.max(best, gtmFromStats(weight, hyp.length, ref.length, v.exponent).f);
        }
        return best;
      };
    case 'rouge-l':
      return (hyp, set) =>
        bestF(
          set.map((ref) => {
            const lcs = rouge.lcsTable(ref, hyp)[ref.length][hyp.length];
            return { p: hyp.length > 0 ? lcs / hyp.length : 0, r: ref.length > 0 ? lcs / ref.length : 0 };
          }),
        );
    case 'rouge-w': {
      const f = (x: number): number => wlcsWeight(x, v.weight);
      const inv = (x: number): number => wlcsWeightInverse(x, v.weight);
      return (hyp, set) =>
        bestF(
          set.map((ref) => {
            const hit = rouge.wlcsPair(ref, hyp, f).wlcs;
            return { p: f(hyp.length) > 0 ? inv(hit / f(hyp.length)) : 0, r: f(ref.length) > 0 ? inv(hit / f(ref.length)) : 0 };
          }),
        );
    }
    case 'rouge-s': {
      const options = { maxGap: v.maxGap, unigrams: v.unigrams ? ('all' as const) : ('none' as const) };
      return (hyp, set) =>
        bestF(
          set.map((ref) => {
            const h = rouge.skipBigramUnits(hyp, options);
            const r = rouge.skipBigramUnits(ref, options);
            let hits = 0;
            let nh = 0;
            let nr = 0;
            for (const [k, c] of h) {
              hits += Math.min(c, r.get(k) ?? 0);
              nh += c;
            }
            for (const c of r.values()) nr += c;
            return { p: nh > 0 ? hits / nh : 0, r: nr > 0 ? hits / nr : 0 };
          }),
        );
    }
    case 'wer':
      return (hyp, set) => {
        let best = -1;
        let bestD = Infinity;
        set.forEach((ref, j) => {
          const d = levenshtein(ref, hyp);
          if (d < bestD) {
            bestD = d;
            best = j;
          }
        });
        const m = set[best].length;
        return m > 0 ? bestD / m : bestD;
      };
    case 'metric':
      throw new Error('Metric-API variants are scored from text (metricLooScores)');
    case 'per':
      return (hyp, set) => {
        let bestErrors = Infinity;
        let score = Number.NaN;
        for (const ref of set) {
          const correct = multisetIntersection(hyp, ref);
          const errors = Math.max(hyp.length, ref.length) - correct;
          if (errors < bestErrors) {
            bestErrors = errors;
            score = perFromStats(correct, hyp.length, ref.length);
          }
        }
        return score;
      };
  }
}

function tokensFor(v: OrangeVariant, c: OrangeCase): Tokens {
  switch (v.kind) {
    case 'bleus':
    case 'nist':
      return textTokens(c, bleuTextOptions('13a', false));
    case 'wer':
      return textTokens(c, editTextOptions('jiwer', false));
    case 'per':
    case 'gtm':
      return textTokens(c, editTextOptions('none', false));
    default:
      return rougeTokens(c);
  }
}

/** Leave-one-out scores of a Metric-API variant: each text alone against each set, through the registry's metric. */
function metricLooScores(v: Extract<OrangeVariant, { kind: 'metric' }>, c: OrangeCase, settings: MetricSettings): SentenceScores[] {
  const metric = defaultRegistry.create(v.id, { ...settings, sentenceLevel: true }).metric;
  const score = (text: string, set: string[]): number => {
    const prepared = metric.prepareReferences(set.map((r) => [r]));
    return metric.sentenceScoreFromStats(metric.segmentStats([text], prepared)).score;
  };
  const u = c.refStreams.length;
  return c.sentences.map((sentence) => {
    const refs = c.refStreams.map((stream) => stream[sentence.id]);
    const without = (k: number): string[] => refs.filter((_, j) => j !== k);
    const candidates = sentence.candidates.map((hyp) => {
      let sum = 0;
      for (let k = 0; k < u; k++) sum += score(hyp, without(k));
      return sum / u;
    });
    return { candidates, references: refs.map((ref, j) => score(ref, without(j))) };
  });
}

/**
 * Leave-one-out scores of every sentence of a case for one variant.
 * @param settings metric settings of a Metric-API variant (its table, chunker, parameters).
 */
export function referenceLooScores(v: OrangeVariant, c: OrangeCase, settings: MetricSettings = {}): SentenceScores[] {
  if (v.kind === 'metric') return metricLooScores(v, c, settings);
  const tokens = tokensFor(v, c);
  const score = setScorer(v, tokens);
  const u = c.refStreams.length;
  return c.sentences.map((sentence, i) => {
    const refs = tokens.refs[sentence.id];
    const without = (k: number): number[][] => refs.filter((_, j) => j !== k);
    const candidates = tokens.cands[i].map((hyp) => {
      let sum = 0;
      for (let k = 0; k < u; k++) sum += score(hyp, without(k));
      return sum / u;
    });
    const references = refs.map((ref, j) => score(ref, without(j)));
    return { candidates, references };
  });
}

/**
 * avgRank(references) / (N + 1) of one sentence by sorting: best first (highest score, or lowest with `lower`),
 * each run of equal scores given the mean of its 1-based positions.
 */
export function referenceSentenceTerm(candidates: readonly number[], references: readonly number[], lower: boolean): number {
  const all = [...candidates.map((x) => ({ x, ref: false })), ...references.map((x) => ({ x, ref: true }))];
  all.sort((a, b) => (lower ? a.x - b.x : b.x - a.x));
  const ranks = new Array<number>(all.length);
  for (let i = 0; i < all.length; ) {
    let j = i;
    while (j + 1 < all.length && all[j + 1].x === all[i].x) j++;
    const mean = (i + 1 + (j + 1)) / 2;
    for (let q = i; q <= j; q++) ranks[q] = mean;
    i = j + 1;
  }
  let sum = 0;
  all.forEach((t, q) => {
    if (t.ref) sum += ranks[q];
  });
  return sum / references.length / (candidates.length + 1);
}

/** The per-sentence ORANGE terms of a case for one variant (`settings`: as {@link referenceLooScores}). */
export function referenceOrangeTerms(v: OrangeVariant, c: OrangeCase, settings: MetricSettings = {}): number[] {
  const lower = v.kind === 'wer' || v.kind === 'per';
  return referenceLooScores(v, c, settings).map((s) => referenceSentenceTerm(s.candidates, s.references, lower));
}

/**
 * Leave-one-out scores of every candidate and every reference for many ORANGE metric variants in one pass over a
 * block of sentences (see ./orange.ts for what ORANGE does with them).
 *
 * A reference is scored against the other u − 1 references of its sentence; a candidate against each of the u
 * leave-one-out sets, one multi-reference score per set, and the u scores averaged (summed over k = 0 … u − 1, then
 * divided by u). Each set is scored the way the metric scores several references:
 * - BLEUS-n: Lin & Och's smoothed sentence BLEU (`bleu-lin-och`: add-one for orders > 1, closest reference length,
 *   n-gram counts clipped by the maximum over the set's references), 13a tokens, case kept;
 * - NIST: mteval-v13a's segment score (max-merged clipping, length penalty on the set's average reference length),
 *   13a tokens, information weights from every reference of the test set (one table for all sets). mteval's Perl
 *   quirk for bigrams starting with the word `0` (src/metrics/nist/mteval.ts) is not reproduced;
 * - ROUGE-L, ROUGE-W-w, ROUGE-S/SU: the `paper` flavor (Lin & Och 2004, the ORANGE authors' own definitions):
 *   ROUGE-1.5.5's tokenizer, the best precision and the best recall over the set's references, F with β = 1;
 * - ROUGE-N: the same flavor and combination over clipped n-gram counts of each pair;
 * - WER (jiwer's word split) and PER (Python's split, Moses' PerScorer): the set's reference with the fewest
 *   errors, the first on ties, as `palette score` counts several references;
 * - GTM (Python's split, src/metrics/gtm/gtm.ts): the set's reference with the highest F;
 * - ParaEval, IMPACT, NP-chunk: `palette score -sl`'s sentence score with the set as the references, through the
 *   Metric API with the run's metric settings (./metric-variants.ts).
 * These are the numbers `palette score` gives for that metric with the u − 1 references of the set (NIST aside,
 * whose weights come from the whole reference set).
 *
 * One tokenization per family (13a for BLEUS and NIST, ROUGE's, jiwer's, Python's split): references are read and
 * interned once for the whole test set, candidates once per block. The n-gram kernel runs once per leave-one-out
 * set at the highest order any variant needs (all BLEUS-n and NIST from the same counts); the pair kernels (LCS,
 * WLCS per weight, skip-bigrams per distance, edit distance, unigram matches) run once over every (text, reference)
 * pair and every leave-one-out set is combined from those pairs.
 */
import type { Csr } from '../../text/csr.js';
import { chooseRefLength } from '../../metrics/bleu/bleu.js';
import { bleuTextOptions, internHypotheses, internReferences, type BleuTextOptions, type InternedReferences } from '../../metrics/bleu/text.js';
import { editTextOptions } from '../../metrics/edit/words.js';
import { mtevalLengthPenalty } from '../../metrics/nist/mteval.js';
import { gtmFromStats } from '../../metrics/gtm/gtm.js';
import { perFromStats } from '../../metrics/per/per.js';
import { fMeasureOf, pairRatio, type FMeasure } from '../../metrics/rouge/f-measure.js';
import { resolveRougeOptions } from '../../metrics/rouge/options.js';
import { SummaryReader } from '../../metrics/rouge/summary-text.js';
import { Vocabulary } from '../../text/intern.js';
import { editDistances, gtmRunStats } from '../../wasm/edit.js';
import { clippedNgramCounts, ngramWeights, perReferenceNgramCounts, type NgramWeights } from '../../wasm/ngram.js';
import { lcsLengths, skipBigramCounts, wlcsPairStats, wlcsWeight, wlcsWeightInverse } from '../../wasm/rouge.js';
import { BleusSeries } from './bleus.js';
import { layOutBlock, referencesExcept, type OrangeItems } from './block.js';
import { NIST_ORDER, type OrangeVariant } from './variants.js';
import { createOrangeMetric, scoreMetricVariant } from './metric-variants.js';
import type { Metric } from '../../metrics/metric.js';
import type { MetricSettings } from '../../metrics/registry.js';

/** Leave-one-out scores of one block, per variant (in the scorer's variant order). */
export interface OrangeBlockScores {
  /** Per variant: one score per candidate of the block, in input order (the mean over the u sets). */
  readonly candidates: Float64Array[];
  /** Per variant: `b · u` reference scores, sentence-major (reference j of block sentence i at `i · u + j`). */
  readonly references: Float64Array[];
}

/** References and text settings of one bleu-text family (13a, jiwer's split, Python's split). */
interface TextFamily {
  readonly text: BleuTextOptions;
  readonly refs: InternedReferences;
}

/**
 * The mteval segment NIST of a set, from clipped counts with information: Σ_n info_n / max(hyp_n, 1) in order,
 * times the length penalty on hypothesis words over the set's average reference words — mtevalScore's
 * operations, without its per-call arrays, and with the penalty (three correctly rounded logs and an exp) memoised
 * per (hypothesis words, reference words).
 */
class NistOf {
  private readonly penalties = new Map<number, number>();

  constructor(private readonly nRefs: number) {}

  score(counts: Float64Array, at: number, order: number, refWords: number): number {
    const hypLen = counts[at + order];
    let penalty: number;
    if (refWords <= 0) {
      penalty = Number.NaN;
    } else {
      const key = hypLen * 0x100000 + refWords;
      const cached = refWords < 0x100000 ? this.penalties.get(key) : undefined;
      if (cached === undefined) {
        penalty = mtevalLengthPenalty(hypLen / (refWords / this.nRefs));
        if (refWords < 0x100000) this.penalties.set(key, penalty);
      } else {
        penalty = cached;
      }
    }
    let score = 0;
    for (let n = 0; n < NIST_ORDER; n++) score += counts[at + 2 * order + n] / Math.max(counts[at + order + n], 1);
    return score * penalty;
  }
}

/** Scores of `u` pairs: the leave-one-out maximum of each set, in O(u). */
class LooMax {
  private first = -1;
  private second = -1;

  /** Finds the two largest of `values[from .. from + u)` (value order; the index of the first maximum kept). */
  scan(values: Float64Array, from: number, u: number): void {
    let first = -1;
    let second = -1;
    for (let p = 0; p < u; p++) {
      const v = values[from + p];
      if (first < 0 || v > values[from + first]) {
        second = first;
        first = p;
      } else if (second < 0 || v > values[from + second]) {
        second = p;
      }
    }
    this.first = first;
    this.second = second;
  }

  /** Index (0 … u−1) of the maximum over every pair but `k`. */
  without(k: number): number {
    return k === this.first ? this.second : this.first;
  }
}

/** The same for minima, with the first minimum on ties (WER's and PER's choice of reference). */
class LooMin {
  private first = -1;
  private second = -1;

  /** Finds the first minimum and the first minimum of the others. */
  scan(values: Float64Array, from: number, u: number): void {
    let first = 0;
    for (let p = 1; p < u; p++) if (values[from + p] < values[from + first]) first = p;
    let second = -1;
    for (let p = 0; p < u; p++) {
      if (p === first) continue;
      if (second < 0 || values[from + p] < values[from + second]) second = p;
    }
    this.first = first;
    this.second = second;
  }

  /** Index of the first minimum over every pair but `k`. */
  without(k: number): number {
    return k === this.first ? this.second : this.first;
  }
}

/** Scores blocks of sentences for a fixed list of variants against a fixed reference set. */
export class OrangeScorer {
  /** The variants, in output order. */
  readonly variants: readonly OrangeVariant[];
  /** References per sentence (u ≥ 2). */
  readonly u: number;
  /** Sentences of the reference set. */
  readonly segments: number;
  private readonly ngram: (TextFamily & { readonly order: number; readonly weights: NgramWeights | undefined }) | null;
  private readonly wer: TextFamily | null;
  private readonly per: TextFamily | null;
  private readonly rouge: { readonly reader: SummaryReader; readonly refs: Csr; readonly fmeasure: FMeasure } | null;
  /** Memoised BLEUS arithmetic (shared by every block: the memo only grows with new count pairs). */
  private readonly bleus: BleusSeries;
  /** NIST of a leave-one-out set (u − 1 references), its penalty memoised. */
  private readonly nist: NistOf;
  /** The reference streams (Metric-API variants prepare the block's sentences from them). */
  private readonly refStreams: readonly (readonly string[])[];
  /** Per variant, its metric for the Metric-API variants (null for the others). */
  private readonly apiMetrics: (Metric | null)[];

  /**
   * Reads and interns every reference once per family the variants need.
   * @param refStreams `refStreams[j][s]` is reference j of sentence s; at least 2 streams of one length.
   * @param settings metric settings of the Metric-API variants (paraeval's table, the chunker, IMPACT's α/β …).
   * @param metrics those variants' metrics already built (by variant index), so that a table loads once.
   * @throws RangeError with fewer than 2 streams or streams of different lengths (callers check input first);
   * InputError from building a Metric-API variant's metric (its table, its settings).
   */
  constructor(
    variants: readonly OrangeVariant[],
    refStreams: readonly (readonly string[])[],
    settings: MetricSettings = {},
    metrics?: readonly (Metric | null)[],
  ) {
    if (refStreams.length < 2) throw new RangeError(`ORANGE needs at least 2 reference streams (got ${refStreams.length})`);
    const segments = refStreams[0].length;
    for (const s of refStreams) if (s.length !== segments) throw new RangeError('reference streams differ in length');
    this.variants = variants;
    this.u = refStreams.length;
    this.segments = segments;
    const has = (kind: OrangeVariant['kind']): boolean => variants.some((v) => v.kind === kind);
    const family = (text: BleuTextOptions): TextFamily => ({ text, refs: internReferences(refStreams, segments, text) });

    let order = 0;
    for (const v of variants) if (v.kind === 'bleus') order = Math.max(order, v.order);
    if (has('nist')) order = Math.max(order, NIST_ORDER);
    if (order > 0) {
      const f = family(bleuTextOptions('13a', false));
      this.ngram = { ...f, order, weights: has('nist') ? ngramWeights(f.refs.refs, order) : undefined };
    } else {
      this.ngram = null;
    }
    this.wer = has('wer') ? family(editTextOptions('jiwer', false)) : null;
    this.per = has('per') || has('gtm') ? family(editTextOptions('none', false)) : null;
    if (has('rouge-n') || has('rouge-l') || has('rouge-w') || has('rouge-s')) {
      const options = resolveRougeOptions({ flavor: 'paper', type: 'rouge-l' });
      const reader = new SummaryReader(options, new Vocabulary());
      const u = this.u;
      function* segmentMajor(): Generator<string> {
        for (let s = 0; s < segments; s++) for (let j = 0; j < u; j++) yield refStreams[j][s];
      }
      const refs = reader.read(segmentMajor(), segments * u).tokens;
      this.rouge = { reader, refs, fmeasure: fMeasureOf(options.weighting) };
    } else {
      this.rouge = null;
    }
    this.bleus = new BleusSeries(Math.max(1, order));
    this.nist = new NistOf(this.u - 1);
    this.refStreams = refStreams;
    this.apiMetrics = variants.map((v, i) => (v.kind === 'metric' ? (metrics?.[i] ?? createOrangeMetric(v, settings)) : null));
  }

  /**
   * Leave-one-out scores of a block of sentences.
   * @param sentences the block's sentence ids (each < {@link segments}).
   * @param candidates candidate texts, sentence after sentence.
   * @param candidateOffsets `sentences.length + 1` offsets into `candidates`.
   * @param candidateLines n-best line of each candidate, for the messages of Metric-API variants (optional).
   * @throws InputError a Metric-API variant's error reading a candidate (a malformed pre-chunked line).
   */
  scoreBlock(
    sentences: Int32Array,
    candidates: readonly string[],
    candidateOffsets: Int32Array,
    candidateLines?: Int32Array,
  ): OrangeBlockScores {
    const b = sentences.length;
    if (candidateOffsets.length !== b + 1 || candidateOffsets[b] !== candidates.length) {
      throw new RangeError(`candidateOffsets must have ${b + 1} offsets ending at ${candidates.length}`);
    }
    for (const s of sentences) if (!(s >= 0 && s < this.segments)) throw new RangeError(`sentence ${s} has no references`);
    const nCand = candidates.length;
    const out: OrangeBlockScores = {
      candidates: this.variants.map(() => new Float64Array(nCand)),
      references: this.variants.map(() => new Float64Array(b * this.u)),
    };
    const bleuTextBlock = (f: TextFamily): OrangeItems =>
      layOutBlock(internHypotheses(candidates, f.refs, f.text), candidateOffsets, f.refs.refs, sentences, this.u);
    if (this.ngram !== null) this.ngramScores(bleuTextBlock(this.ngram), out);
    if (this.wer !== null) this.werScores(bleuTextBlock(this.wer), out);
    if (this.per !== null) {
      const block = bleuTextBlock(this.per);
      if (this.variants.some((v) => v.kind === 'per')) this.perScores(block, out);
      this.gtmScores(block, out);
    }
    if (this.rouge !== null) {
      const cands = this.rouge.reader.read(candidates, nCand).tokens;
      this.rougeScores(layOutBlock(cands, candidateOffsets, this.rouge.refs, sentences, this.u), out);
    }
    this.apiMetrics.forEach((metric, v) => {
      if (metric === null) return;
      scoreMetricVariant(metric, this.refStreams, sentences, candidates, candidateOffsets, out.candidates[v], out.references[v], candidateLines);
    });
    return out;
  }

  /**
   * Visits the items of a block with where their scores go: a candidate has its output index in `candidate` (and
   * -1 in the others); a reference has -1 there, its index j among the sentence's references in `reference` and
   * its output index in `refOut`.
   */
  private forEachItem(
    block: OrangeItems,
    visit: (item: number, candidate: number, reference: number, refOut: number) => void,
  ): void {
    const u = this.u;
    const b = block.itemOffsets.length - 1;
    let cand = 0;
    for (let i = 0; i < b; i++) {
      const first = block.itemOffsets[i];
      const refsAt = block.itemOffsets[i + 1] - u;
      for (let item = first; item < refsAt; item++) visit(item, cand++, -1, -1);
      for (let j = 0; j < u; j++) visit(refsAt + j, -1, j, i * u + j);
    }
  }

  /** BLEUS-n and NIST: one clipped-count call per leave-one-out set, every BLEUS order from the same counts. */
  private ngramScores(block: OrangeItems, out: OrangeBlockScores): void {
    const { order, weights } = this.ngram!;
    const u = this.u;
    const width = (weights === undefined ? 2 : 3) * order;
    const bleusVariants: number[] = [];
    const bleusOrders: number[] = [];
    let nist = -1;
    this.variants.forEach((v, i) => {
      if (v.kind === 'bleus') {
        bleusVariants.push(i);
        bleusOrders.push(v.order);
      }
      if (v.kind === 'nist') nist = i;
    });
    const orders = Int32Array.from(bleusOrders);
    const series = this.bleus;
    const bleus = new Float64Array(orders.length);
    const items = block.items;
    for (let k = 0; k < u; k++) {
      const set = referencesExcept(block, u, k);
      const counts = clippedNgramCounts(
        { hyps: items, hypSegment: block.hypSegment, refs: set.refs, segRefOffsets: set.segRefOffsets },
        order,
        weights,
      );
      const refLengths = new Int32Array(set.refs.offsets.length - 1);
      for (let r = 0; r < refLengths.length; r++) refLengths[r] = set.refs.offsets[r + 1] - set.refs.offsets[r];
      this.forEachItem(block, (item, candidate, reference, refOut) => {
        if (candidate < 0 && reference !== k) return;
        const s = block.hypSegment[item];
        const from = set.segRefOffsets[s];
        const to = set.segRefOffsets[s + 1];
        const at = item * width;
        if (orders.length > 0) {
          const hypLen = items.offsets[item + 1] - items.offsets[item];
          series.scores(counts, at, order, hypLen, chooseRefLength('closest', hypLen, refLengths, from, to), orders, bleus, 0);
          for (let q = 0; q < orders.length; q++) {
            if (candidate >= 0) out.candidates[bleusVariants[q]][candidate] += bleus[q];
            else out.references[bleusVariants[q]][refOut] = bleus[q];
          }
        }
        if (nist >= 0) {
          const refWords = set.refs.offsets[to] - set.refs.offsets[from];
          const score = this.nist.score(counts, at, order, refWords);
          if (candidate >= 0) out.candidates[nist][candidate] += score;
          else out.references[nist][refOut] = score;
        }
      });
    }
    for (const v of bleusVariants) divideInPlace(out.candidates[v], u);
    if (nist >= 0) divideInPlace(out.candidates[nist], u);
  }

  /** WER: edit distances of every pair; each set takes its first reference with the fewest edits. */
  private werScores(block: OrangeItems, out: OrangeBlockScores): void {
    const v = this.variants.findIndex((x) => x.kind === 'wer');
    const { distances } = editDistances({
      hyps: block.items,
      hypSegment: block.hypSegment,
      refs: block.refs,
      segRefOffsets: block.segRefOffsets,
    });
    const edits = Float64Array.from(distances);
    const refs = block.refs;
    const u = this.u;
    const loo = new LooMin();
    // WER of pair p (index of the reference within the item's sentence) of the item at `at`.
    const werOf = (at: number, s: number, p: number): number => {
      const r = s * u + p;
      const m = refs.offsets[r + 1] - refs.offsets[r];
      const d = edits[at + p];
      return m > 0 ? d / m : d;
    };
    this.forEachItem(block, (item, candidate, reference, refOut) => {
      const at = item * u;
      loo.scan(edits, at, u);
      const s = block.hypSegment[item];
      if (candidate >= 0) {
        let sum = 0;
        for (let k = 0; k < u; k++) sum += werOf(at, s, loo.without(k));
        out.candidates[v][candidate] = sum / u;
      } else {
        out.references[v][refOut] = werOf(at, s, loo.without(reference));
      }
    });
  }

  /** PER: unigram matches of every pair; each set takes its first reference with the fewest errors. */
  private perScores(block: OrangeItems, out: OrangeBlockScores): void {
    const v = this.variants.findIndex((x) => x.kind === 'per');
    const u = this.u;
    const { rows } = perReferenceNgramCounts(
      { hyps: block.items, hypSegment: block.hypSegment, refs: block.refs, segRefOffsets: block.segRefOffsets },
      1,
    );
    const nPairs = rows.length / 3;
    const errors = new Float64Array(nPairs);
    for (let p = 0; p < nPairs; p++) errors[p] = Math.max(rows[3 * p + 1], rows[3 * p + 2]) - rows[3 * p];
    const loo = new LooMin();
    // PER of pair row `pair`.
    const perOf = (pair: number): number => perFromStats(rows[3 * pair], rows[3 * pair + 1], rows[3 * pair + 2]);
    this.forEachItem(block, (item, candidate, reference, refOut) => {
      const at = item * u;
      loo.scan(errors, at, u);
      if (candidate >= 0) {
        let sum = 0;
        for (let k = 0; k < u; k++) sum += perOf(at + loo.without(k));
        out.candidates[v][candidate] = sum / u;
      } else {
        out.references[v][refOut] = perOf(at + loo.without(reference));
      }
    });
  }

  /** GTM per run exponent: F of every pair; each set takes its best. */
  private gtmScores(block: OrangeItems, out: OrangeBlockScores): void {
    const u = this.u;
    const batch = { hyps: block.items, hypSegment: block.hypSegment, refs: block.refs, segRefOffsets: block.segRefOffsets };
    const nItems = block.items.offsets.length - 1;
    const f = new Float64Array(nItems * u);
    const best = new LooMax();
    this.variants.forEach((variant, v) => {
      if (variant.kind !== 'gtm') return;
      const { rows } = gtmRunStats(batch, variant.exponent);
      for (let item = 0; item < nItems; item++) {
        const n = block.items.offsets[item + 1] - block.items.offsets[item];
        for (let j = 0; j < u; j++) {
          const r = block.hypSegment[item] * u + j;
          const m = block.refs.offsets[r + 1] - block.refs.offsets[r];
          f[item * u + j] = gtmFromStats(rows[2 * (item * u + j)], n, m, variant.exponent).f;
        }
      }
      this.forEachItem(block, (item, candidate, reference, refOut) => {
        const at = item * u;
        best.scan(f, at, u);
        if (candidate >= 0) {
          let sum = 0;
          for (let k = 0; k < u; k++) sum += f[at + best.without(k)];
          out.candidates[v][candidate] = sum / u;
        } else {
          out.references[v][refOut] = f[at + best.without(reference)];
        }
      });
    });
  }

  /** ROUGE-N, -L, -W, -S/SU: pair precisions and recalls, each set the best of each over its references. */
  private rougeScores(block: OrangeItems, out: OrangeBlockScores): void {
    const u = this.u;
    const batch = { hyps: block.items, hypSegment: block.hypSegment, refs: block.refs, segRefOffsets: block.segRefOffsets };
    const nPairs = (block.items.offsets.length - 1) * u;
    const precision = new Float64Array(nPairs);
    const recall = new Float64Array(nPairs);
    const hypLen = (item: number): number => block.items.offsets[item + 1] - block.items.offsets[item];
    const refLen = (item: number, p: number): number => {
      const r = block.hypSegment[item] * u + p;
      return block.refs.offsets[r + 1] - block.refs.offsets[r];
    };
    let maxN = 0;
    for (const v of this.variants) if (v.kind === 'rouge-n') maxN = Math.max(maxN, v.n);
    // One per-reference count call at the highest order gives every lower order too.
    const ngrams = maxN > 0 ? perReferenceNgramCounts(batch, maxN).rows : null;
    this.variants.forEach((variant, v) => {
      if (variant.kind === 'rouge-n') {
        const n = variant.n;
        const width = 3 * maxN;
        for (let p = 0; p < nPairs; p++) {
          const hit = ngrams![p * width + n - 1];
          const hyp = ngrams![p * width + maxN + n - 1];
          const ref = ngrams![p * width + 2 * maxN + n - 1];
          precision[p] = pairRatio(hit, hyp);
          recall[p] = pairRatio(hit, ref);
        }
      } else if (variant.kind === 'rouge-l') {
        const lcs = lcsLengths(batch).rows;
        for (let item = 0, p = 0; p < nPairs; item++) {
          const n = hypLen(item);
          for (let j = 0; j < u; j++, p++) {
            const m = refLen(item, j);
            precision[p] = pairRatio(lcs[p], n);
            recall[p] = pairRatio(lcs[p], m);
          }
        }
      } else if (variant.kind === 'rouge-w') {
        const w = variant.weight;
        const stats = wlcsPairStats(batch, w).rows;
        const inverse = (x: number): number => wlcsWeightInverse(x, w);
        const f = new Map<number, number>();
        const fOf = (x: number): number => {
          let y = f.get(x);
          if (y === undefined) f.set(x, (y = wlcsWeight(x, w)));
          return y;
        };
        for (let item = 0, p = 0; p < nPairs; item++) {
          const fn = fOf(hypLen(item));
          for (let j = 0; j < u; j++, p++) {
            const hit = stats[3 * p + 2];
            const fm = fOf(refLen(item, j));
            precision[p] = pairRatio(hit, fn, inverse);
            recall[p] = pairRatio(hit, fm, inverse);
          }
        }
      } else if (variant.kind === 'rouge-s') {
        const counts = skipBigramCounts(batch, { maxGap: variant.maxGap, unigrams: variant.unigrams ? 'all' : 'none' }).rows;
        for (let p = 0; p < nPairs; p++) {
          const hit = counts[3 * p];
          precision[p] = pairRatio(hit, counts[3 * p + 1]);
          recall[p] = pairRatio(hit, counts[3 * p + 2]);
        }
      } else {
        return;
      }
      this.combineMax(block, precision, recall, v, out);
    });
  }

  /** The paper's multi-reference ROUGE of every set: F of the best precision and the best recall. */
  private combineMax(block: OrangeItems, precision: Float64Array, recall: Float64Array, v: number, out: OrangeBlockScores): void {
    const u = this.u;
    const fm = this.rouge!.fmeasure;
    const bestP = new LooMax();
    const bestR = new LooMax();
    this.forEachItem(block, (item, candidate, reference, refOut) => {
      const at = item * u;
      bestP.scan(precision, at, u);
      bestR.scan(recall, at, u);
      if (candidate >= 0) {
        let sum = 0;
        for (let k = 0; k < u; k++) sum += fm(precision[at + bestP.without(k)], recall[at + bestR.without(k)]);
        out.candidates[v][candidate] = sum / u;
      } else {
        out.references[v][refOut] = fm(precision[at + bestP.without(reference)], recall[at + bestR.without(reference)]);
      }
    });
  }
}

/** `a[i] /= d` for every element. */
function divideInPlace(a: Float64Array, d: number): void {
  for (let i = 0; i < a.length; i++) a[i] /= d;
}

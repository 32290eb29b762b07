/**
 * Reference implementation (oracle) of MBR with reference aggregation (Vamvas & Sennrich 2024), as
 * `mbrDecode(…, { aggregate: true })` documents it: per sample, the pseudo-references counted for it (all, or all
 * but its own) are merged into one bag per n-gram order whose count of each n-gram is `Σ_j w_j · count_j / Σ_j w_j`
 * and whose total is `Σ_j w_j · total_j / Σ_j w_j`; the sample's statistics against that bag are sacrebleu's
 * (`CHRF._get_match_statistics`: hypothesis total — 0 when the bag has no n-gram of the order —, bag total,
 * Σ min(hypothesis count, bag count)) for chrF, and for BLEU the hypothesis length, the mean reference length, the
 * matches clipped to the bag's counts and the hypothesis totals; then the metric's own sentence formula.
 *
 * Slow on purpose: string n-gram keys, one Map per order, every aggregate built from scratch for every sample. The
 * texts are split by the metrics' own tokenizers (tested against sacrebleu elsewhere); the n-gram counting,
 * averaging and clipping here share nothing with src/metrics/ngram-bags.ts.
 */
import { appendCodePoints, appendWords } from '../../src/metrics/chrf/text.js';
import { chrfScore } from '../../src/metrics/chrf/score.js';
import type { Bleu } from '../../src/metrics/bleu/bleu.js';
import type { Chrf } from '../../src/metrics/chrf/chrf.js';
import { CsrBuilder } from '../../src/text/csr.js';
import { Vocabulary } from '../../src/text/intern.js';
import { pyLower } from '../../src/text/pystr.js';
import { getTokenizer } from '../../src/text/tokenizers/index.js';

type Bag = Map<string, number>;

function ngramBag(tokens: readonly (number | string)[], n: number): Bag {
  const bag: Bag = new Map();
  for (let p = 0; p + n <= tokens.length; p++) {
    const key = tokens.slice(p, p + n).join('\u0001');
    bag.set(key, (bag.get(key) ?? 0) + 1);
  }
  return bag;
}

const bagTotal = (bag: Bag): number => [...bag.values()].reduce((a, b) => a + b, 0);

/** Bags per order of a text: chrF's character orders then word orders, or BLEU's word orders. */
function chrfBags(metric: Chrf, text: string, vocab: Vocabulary): Bag[] {
  const line = metric.lowercase ? pyLower(text) : text;
  const chars = new CsrBuilder();
  appendCodePoints(line, metric.whitespace, chars);
  const codePoints = Array.from(chars.finish().tokens);
  const bags: Bag[] = [];
  for (let n = 1; n <= metric.charOrder; n++) bags.push(ngramBag(codePoints, n));
  if (metric.wordOrder > 0) {
    const words = new CsrBuilder();
    appendWords(vocab, line, words);
    const ids = Array.from(words.finish().tokens);
    for (let n = 1; n <= metric.wordOrder; n++) bags.push(ngramBag(ids, n));
  }
  return bags;
}

function bleuTokens(metric: Bleu, text: string): string[] {
  const line = metric.options.lowercase ? pyLower(text) : text;
  return getTokenizer(metric.options.tokenize)(line.replace(/\s+$/u, '')).split(/\s+/u).filter((t) => t !== '');
}

/** The weighted mean bag of `bags[j]` for the `counted` references. */
function meanBag(bags: readonly Bag[], weights: readonly number[], counted: readonly number[]): { bag: Bag; total: number } {
  const sums: Bag = new Map();
  let total = 0;
  let w = 0;
  for (const j of counted) {
    w += weights[j];
    total += weights[j] * bagTotal(bags[j]);
    for (const [k, c] of bags[j]) sums.set(k, (sums.get(k) ?? 0) + weights[j] * c);
  }
  for (const [k, c] of sums) sums.set(k, c / w);
  return { bag: sums, total: total / w };
}

/** Σ over the hypothesis's n-grams of min(its count, the bag's). */
function clippedMatches(hyp: Bag, bag: Bag): number {
  let m = 0;
  for (const [k, c] of hyp) {
    const r = bag.get(k);
    if (r !== undefined) m += Math.min(c, r);
  }
  return m;
}

/** Which references count for sample `i`. */
function countedFor(i: number, refs: number, leaveOutSelf: boolean): number[] {
  return Array.from({ length: refs }, (_, j) => j).filter((j) => !(leaveOutSelf && j === i));
}

/** Aggregate chrF utility of every sample. */
export function aggregateChrf(
  metric: Chrf, samples: readonly string[], refs: readonly string[], weights: readonly number[] | undefined, leaveOutSelf: boolean,
): number[] {
  const vocab = new Vocabulary();
  const w = weights ?? refs.map(() => 1);
  const refBags = refs.map((r) => chrfBags(metric, r, vocab));
  const orders = metric.charOrder + metric.wordOrder;
  return samples.map((sample, i) => {
    const hyp = chrfBags(metric, sample, vocab);
    const stats: number[] = [];
    for (let k = 0; k < orders; k++) {
      const mean = meanBag(refBags.map((b) => b[k]), w, countedFor(i, refs.length, leaveOutSelf));
      stats.push(mean.total > 0 ? bagTotal(hyp[k]) : 0, mean.total, clippedMatches(hyp[k], mean.bag));
    }
    return chrfScore(stats, 0, orders, metric.beta, metric.epsSmoothing);
  });
}

/** Aggregate sentence-BLEU utility of every sample. */
export function aggregateBleu(
  metric: Bleu, samples: readonly string[], refs: readonly string[], weights: readonly number[] | undefined, leaveOutSelf: boolean,
): number[] {
  const w = weights ?? refs.map(() => 1);
  const N = metric.options.maxNgramOrder;
  const refTokens = refs.map((r) => bleuTokens(metric, r));
  const refBags = refTokens.map((t) => Array.from({ length: N }, (_, n) => ngramBag(t, n + 1)));
  return samples.map((sample, i) => {
    const tokens = bleuTokens(metric, sample);
    const counted = countedFor(i, refs.length, leaveOutSelf);
    let weightSum = 0;
    let length = 0;
    for (const j of counted) {
      weightSum += w[j];
      length += w[j] * refTokens[j].length;
    }
    const row = new Float64Array(2 + 2 * N);
    row[0] = tokens.length;
    row[1] = length / weightSum;
    for (let n = 0; n < N; n++) {
      const hyp = ngramBag(tokens, n + 1);
      row[2 + n] = clippedMatches(hyp, meanBag(refBags.map((b) => b[n]), w, counted).bag);
      row[2 + N + n] = bagTotal(hyp);
    }
    return metric.sentenceScoreFromStats(row).score;
  });
}

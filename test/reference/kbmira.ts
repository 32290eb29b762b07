/**
 * A plain k-best batch MIRA (Cherry & Foster 2012) written from Moses' `kbmira` loop (mert/kbmira.cpp with
 * mert/HopeFearDecoder.cpp), for checking the library's: nested arrays, double precision throughout, every score
 * recomputed where it is used, the weights' average kept as a running sum of w after every update (no lazy totals).
 * Moses' visiting order is kept (libstdc++'s random_shuffle on glibc's rand at every pass), so on small inputs the
 * two agree up to float rounding.
 */
import { GlibcRandom } from '../../src/tuning/mert/glibc-random.js';

/** Per sentence, its candidates (duplicates already removed): features and BLEU statistics `m1 t1 … m4 t4 reflen`. */
export interface ReferenceSentence {
  readonly features: number[][];
  readonly stats: number[][];
}

function corpusBleu(s: readonly number[]): number {
  let log = 0;
  for (let n = 0; n < 4; n++) {
    if (s[2 * n] === 0) return 0;
    log += Math.log(s[2 * n]) - Math.log(s[2 * n + 1]);
  }
  log /= 4;
  const bp = 1 - s[8] / s[1];
  return Math.exp(bp < 0 ? log + bp : log);
}

function backgroundBleu(stats: readonly number[], bg: readonly number[]): number {
  const sum = stats.map((v, k) => v + bg[k]);
  return corpusBleu(sum) * sum[8];
}

const dot = (w: readonly number[], f: readonly number[]): number => w.reduce((s, wi, i) => s + wi * f[i], 0);

/** One epoch's outcome. */
export interface ReferenceEpoch {
  readonly updates: number;
  readonly bleu: number;
  readonly average: number[];
}

/** Runs `epochs` epochs from `start`; returns the initial BLEU and every epoch. */
export function referenceKbmira(
  sentences: readonly ReferenceSentence[],
  start: readonly number[],
  options: { seed: number; epochs: number; c?: number; decay?: number; shuffle?: boolean; modelBackground?: boolean },
): { initialBleu: number; epochs: ReferenceEpoch[] } {
  const c = options.c ?? 0.01;
  const decay = options.decay ?? 0.999;
  const rng = new GlibcRandom(options.seed);
  const order = sentences.map((_, i) => i);
  const shuffle = (): void => {
    if (options.shuffle === false) return;
    for (let i = 1; i < order.length; i++) {
      const j = rng.next() % (i + 1);
      [order[i], order[j]] = [order[j], order[i]];
    }
  };
  const evaluate = (w: readonly number[]): number => {
    shuffle();
    const totals = new Array<number>(9).fill(0);
    for (const s of order) {
      const { features, stats } = sentences[s];
      let best = 0;
      for (let i = 1; i < features.length; i++) if (dot(w, features[i]) > dot(w, features[best])) best = i;
      stats[best].forEach((v, k) => (totals[k] += v));
    }
    return corpusBleu(totals);
  };
  let w = [...start];
  // The average Moses reports: (start + w after each update, summed) / updates, the start counted once.
  let sum = [...start];
  let updatesSoFar = 0;
  const average = (): number[] => (updatesSoFar === 0 ? [...w] : sum.map((v) => v / updatesSoFar));
  const bg = new Array<number>(9).fill(1);
  const initialBleu = evaluate(average());
  const epochs: ReferenceEpoch[] = [];
  for (let e = 0; e < options.epochs; e++) {
    let updates = 0;
    shuffle();
    for (const s of order) {
      const { features, stats } = sentences[s];
      const bleu = stats.map((st) => backgroundBleu(st, bg));
      const score = features.map((f) => dot(w, f));
      let hope = 0;
      let fear = 0;
      let model = 0;
      for (let i = 1; i < features.length; i++) {
        if (score[i] + bleu[i] > score[hope] + bleu[hope]) hope = i;
        if (score[i] - bleu[i] > score[fear] - bleu[fear]) fear = i;
        if (score[i] > score[model]) model = i;
      }
      if (hope === fear || !(bleu[hope] > bleu[fear])) continue;
      const d = features[hope].map((v, i) => v - features[fear][i]);
      const loss = bleu[hope] - bleu[fear] - dot(w, d);
      if (loss > 0) {
        const eta = Math.min(c, loss / dot(d, d));
        w = w.map((wi, i) => wi + eta * d[i]);
        updatesSoFar++;
        // Moses' totals gain, at each update, the weights as they were before it (times the steps since the
        // feature's last update) plus the step: the same as summing w after every update, the start counted once.
        sum = sum.map((v, i) => v + w[i]);
        updates++;
      }
      const add = options.modelBackground ? stats[model] : stats[hope];
      for (let k = 0; k < 9; k++) bg[k] = bg[k] * decay + add[k];
    }
    const avg = average();
    epochs.push({ updates, bleu: evaluate(avg), average: avg });
  }
  return { initialBleu, epochs };
}

/**
 * Experiment 3: seed 004's BLEUwN vs BLEUcM study (src/meta/bleu-wc-study.ts) on WMT21 en-de, every segment of
 * every system against references A, C and D. As in the seed, BLEU's definition is left untouched: sacreBLEU's
 * BLEU without smoothing and without effective order, sentence by sentence, divided by 100 into [0, 1] (capped at 1 against
 * floating-point excess of perfect matches); words are
 * the 13a tokens, characters sacreBLEU's `char` tokenizer's (every non-space character; spaces are not units).
 *
 * One statistics pass per unit suffices: a BLEU row of maximum order K holds the matches and totals of every order
 * up to K, so the row of order M ≤ K is its first M matches and totals (`hyp_len, ref_len, correct_1..M,
 * total_1..M`), reduced by a `Bleu` of maximum order M — the library's own sentence formula, never ours.
 */
import { bleuWcStudy, type BleuWcRow } from '../../src/meta/bleu-wc-study.js';
import { Bleu } from '../../src/metrics/bleu/bleu.js';
import type { SystemOutputs } from './data.js';

/** Orders studied. */
export interface BleuWcOrders {
  /** Word orders N = 1 … maxWord. */
  readonly maxWord: number;
  /** Character orders M = 1 … maxChar. */
  readonly maxChar: number;
}

/** Seed 004's orders: its table pairs N up to 4 with M up to the high teens; we scan M to 30. */
export const DEFAULT_BLEU_WC_ORDERS: BleuWcOrders = { maxWord: 5, maxChar: 30 };

/** The study's rows with what they were computed on. */
export interface BleuWcResult {
  readonly rows: readonly BleuWcRow[];
  /** Segments (system × segment pairs). */
  readonly segments: number;
  /** Mean hypothesis length in words and in characters (the seed relates M/N to the mean word length). */
  readonly meanWords: number;
  readonly meanChars: number;
  /** Signatures of the word and character BLEU of the highest orders. */
  readonly signatures: { readonly word: string; readonly char: string };
  readonly ms: number;
}

/** Per-segment scores in [0, 1] of every order 1 … maxOrder, from one statistics pass over every system. */
function scoresByOrder(
  corpus: SystemOutputs,
  tokenize: '13a' | 'char',
  maxOrder: number,
): { scores: Map<number, Float64Array>; meanLength: number; signature: string } {
  const options = { tokenize, smoothMethod: 'none', effectiveOrder: false } as const;
  const full = new Bleu({ ...options, maxNgramOrder: maxOrder });
  const prepared = full.prepareReferences(corpus.references);
  const rows = corpus.outputs.map((hyps) => full.segmentStats(hyps, prepared));
  const segments = rows.reduce((n, r) => n + r.length / full.statsWidth, 0);
  const scores = new Map<number, Float64Array>();
  let length = 0;
  for (let m = 1; m <= maxOrder; m++) {
    const bleu = new Bleu({ ...options, maxNgramOrder: m });
    const row = new Float64Array(bleu.statsWidth);
    const out = new Float64Array(segments);
    let k = 0;
    for (const r of rows) {
      for (let at = 0; at < r.length; at += full.statsWidth) {
        row[0] = r[at];
        row[1] = r[at + 1];
        for (let j = 0; j < m; j++) {
          row[2 + j] = r[at + 2 + j];
          row[2 + m + j] = r[at + 2 + maxOrder + j];
        }
        if (m === 1) length += r[at];
        // A perfect match comes out of exp(Σ log p / M) as 100.00000000000001: BLEU cannot exceed 1, and the grade
        // scale refuses anything above, so the rounding excess is cut off.
        out[k++] = Math.min(1, bleu.sentenceScoreFromStats(row).score / 100);
      }
    }
    scores.set(m, out);
  }
  return { scores, meanLength: length / segments, signature: full.signature(corpus.references.length, true) };
}

/** Runs the study on every segment of every system of `corpus`. */
export function bleuWc(corpus: SystemOutputs, orders: BleuWcOrders = DEFAULT_BLEU_WC_ORDERS): BleuWcResult {
  const t0 = performance.now();
  const word = scoresByOrder(corpus, '13a', orders.maxWord);
  const char = scoresByOrder(corpus, 'char', orders.maxChar);
  const rows = bleuWcStudy(word.scores, char.scores);
  return {
    rows,
    segments: word.scores.get(1)!.length,
    meanWords: word.meanLength,
    meanChars: char.meanLength,
    signatures: { word: word.signature, char: char.signature },
    ms: performance.now() - t0,
  };
}

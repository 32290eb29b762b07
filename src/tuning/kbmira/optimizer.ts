/**
 * k-best batch MIRA (Cherry & Foster 2012, "Batch Tuning Strategies for Statistical Machine Translation") as Moses'
 * `kbmira` runs it on n-best lists (mert/kbmira.cpp, mert/HopeFearDecoder.cpp, mert/MiraWeightVector.cpp,
 * mert/HypPackEnumerator.cpp), on flat statistics and feature matrices.
 *
 * Each sentence's candidates are its rows with duplicate feature vectors removed (the first kept, as Moses'
 * enumerator does). An epoch visits the sentences in an order shuffled by libstdc++'s `std::random_shuffle` (for
 * i = 1 … n−1, swap i with `rand() % (i + 1)`) on glibc's `rand()`, the order carried over from one shuffle to the
 * next; Moses shuffles at every pass over the data, so before the initial evaluation, before each epoch and before
 * each epoch's evaluation. For each sentence, with the current weights w and the background statistics bg:
 * - every candidate's sentence BLEU is BLEU(stats + bg) × (reflen + bg_reflen) (Chiang et al. 2008);
 * - hope = argmax w·f + BLEU, fear = argmax w·f − BLEU, model = argmax w·f (the first on ties); with `safeHope`, when
 *   the hope's model score outweighs five times its BLEU, the model score is scaled down and hope chosen again;
 * - if hope ≠ fear and BLEU(hope) > BLEU(fear): Δ = BLEU(hope) − BLEU(fear), d = f(hope) − f(fear),
 *   loss = Δ − w·d; if loss > 0, w += min(C, loss / |d|²) · d (one update of the average); then
 *   bg = decay · bg + stats(hope) (stats(model) with `modelBackground`).
 * After each epoch the averaged weights (the mean of w over the updates so far, Moses' lazily updated totals) are
 * evaluated: corpus BLEU of each sentence's model-best candidate; the best epoch's averaged weights are the result.
 *
 * Arithmetic is Moses' single precision (`ValType` is float): every product and sum is rounded to float in Moses'
 * order, statistics are summed as floats, and BLEU is `mosesBleu` (src/metrics/bleu/moses.ts).
 */
import { mosesBleu } from '../../metrics/bleu/moses.js';
import { GlibcRandom } from '../mert/glibc-random.js';

const f32 = Math.fround;
const BLEU_WIDTH = 9;
const BLEU_RATIO = 5;

/** What {@link kbmiraOptimize} trains on. */
export interface KbmiraInput {
  /** Feature rows, `candidates × dimensions`, row-major (rounded to single precision, as Moses reads them). */
  readonly features: ArrayLike<number>;
  /** Dense features per candidate. */
  readonly dimensions: number;
  /** BLEU statistics rows `m1 t1 … m4 t4 reflen` (9 columns), `candidates × 9`, row-major. */
  readonly stats: ArrayLike<number>;
  /** `sentences + 1` offsets: the candidates of sentence `s` are rows `candidateOffsets[s] .. candidateOffsets[s + 1]`. */
  readonly candidateOffsets: Int32Array;
}

/** An update about to be made, as Moses' `--verbose` shows it (see {@link KbmiraOptions.onUpdate}). */
export interface KbmiraUpdate {
  /** Position of the sentence in this epoch's order (0-based). */
  readonly position: number;
  /** The sentence (index into `candidateOffsets`). */
  readonly sentence: number;
  /** Current (not averaged) weights, before the update. */
  readonly weights: Float32Array;
  /** Rows of the hope and the fear candidate. */
  readonly hope: number;
  readonly fear: number;
  /** Their background sentence BLEU. */
  readonly hopeBleu: number;
  readonly fearBleu: number;
  /** Model scores w · f of the hope and the fear candidate. */
  readonly hopeScore: number;
  readonly fearScore: number;
  /** f(hope) − f(fear). */
  readonly diff: Float32Array;
  /** BLEU(hope) − BLEU(fear). */
  readonly delta: number;
  /** w · diff. */
  readonly diffScore: number;
  /** BLEU(hope) − BLEU(fear) − w · diff; the weights move only when it is > 0. */
  readonly loss: number;
}

/** One epoch's summary (Moses prints `U/N updates, avg loss = L, BLEU = B`). */
export interface KbmiraEpoch {
  /** 1-based. */
  readonly epoch: number;
  /** Sentences whose update moved the weights. */
  readonly updates: number;
  /** Sentences visited. */
  readonly examples: number;
  /** Total loss of the updates over the sentences visited. */
  readonly averageLoss: number;
  /** Corpus BLEU (0–1) of the averaged weights. */
  readonly bleu: number;
  /** The averaged weights after the epoch. */
  readonly weights: Float32Array;
  /** Whether this epoch beat every earlier one (Moses then writes its weights). */
  readonly improved: boolean;
}

/** Options of {@link kbmiraOptimize}; the defaults are Moses'. */
export interface KbmiraOptions {
  /** Start weights, one per feature (Moses `--dense-init`). @default zeros */
  readonly start?: ArrayLike<number>;
  /** Step-size cap C (`-C`). @default 0.01 */
  readonly c?: number;
  /** Decay of the background statistics (`-D`). @default 0.999 */
  readonly decay?: number;
  /** Epochs (`-J`). @default 60 */
  readonly iterations?: number;
  /** Shuffle the sentences at every pass (Moses without `--no-shuffle`). @default true */
  readonly shuffle?: boolean;
  /** Add the model-best candidate's statistics to the background instead of the hope's (`--model-bg`). @default false */
  readonly modelBackground?: boolean;
  /** Limit the model score's weight in hope selection (`--safe-hope`). @default false */
  readonly safeHope?: boolean;
  /** Seed of glibc's `srand` (`-r`). Ignored when `random` is given. @default 0 (glibc then seeds with 1) */
  readonly seed?: number;
  /** A glibc `rand()` stream to draw the shuffles from (continued, not reseeded). */
  readonly random?: GlibcRandom;
  /** Called before each update is applied (hope ≠ fear and BLEU(hope) > BLEU(fear)). */
  onUpdate?(update: KbmiraUpdate): void;
  /** Called after each sentence of an epoch with the current (not averaged) weights (Moses `--streaming-out`). */
  onSentence?(weights: Float32Array): void;
  /**
   * Evaluate the start weights before the first epoch (Moses does, except with `--streaming-out`; the evaluation's
   * shuffle draws from the stream, so skipping it changes the epochs' orders). @default true
   */
  readonly initialEvaluation?: boolean;
  /** Called with the start weights' corpus BLEU, before the first epoch (Moses prints `Initial BLEU = …`). */
  onStart?(initialBleu: number): void;
  /** Called when an epoch's updates are done, before its evaluation (Moses prints the first half of its line then). */
  onEpochTrained?(updates: number, examples: number, averageLoss: number): void;
  /** Called after each epoch. */
  onEpoch?(epoch: KbmiraEpoch): void;
  /** Called after each sentence of every pass over the data, evaluations included (`position` 0-based in the pass). */
  onVisit?(pass: 'train' | 'evaluate', position: number): void;
}

/** The result of {@link kbmiraOptimize}. */
export interface KbmiraResult {
  /** Corpus BLEU (0–1) of the start weights; NaN without the initial evaluation. */
  readonly initialBleu: number;
  /** The best epoch's corpus BLEU (0 when no epoch scored above 0). */
  readonly bestBleu: number;
  /** The best epoch's averaged weights; undefined when no epoch scored above 0 (Moses then writes nothing). */
  readonly weights: Float32Array | undefined;
  /** 1-based number of the best epoch; 0 when none. */
  readonly bestEpoch: number;
  /** Every epoch's summary. */
  readonly epochs: readonly KbmiraEpoch[];
}

/**
 * Moses' `calculateSentenceLevelBackgroundScore` for BLEU: `BleuScorer::calculateScore(stats + bg)` times the summed
 * reference length, in single precision. `sum` is scratch space of 9 values.
 */
export function kbmiraBackgroundBleu(stats: ArrayLike<number>, offset: number, bg: ArrayLike<number>, sum: Float64Array = new Float64Array(BLEU_WIDTH)): number {
  for (let k = 0; k < BLEU_WIDTH; k++) sum[k] = f32(f32(stats[offset + k]) + bg[k]);
  return f32(mosesBleu(sum) * sum[8]);
}

/** Moses' `MiraWeightVector`: the weights, and lazily updated totals for their average over the updates. */
class MiraWeights {
  readonly weights: Float32Array;
  readonly totals: Float32Array;
  readonly lastUpdated: Float64Array;
  updates = 0;

  constructor(start: Float32Array) {
    this.weights = Float32Array.from(start);
    this.totals = Float32Array.from(start);
    this.lastUpdated = new Float64Array(start.length);
  }

  /** w · f of a feature row, summed in float in feature order. */
  score(f: ArrayLike<number>, offset: number): number {
    const w = this.weights;
    let s = 0;
    for (let i = 0; i < w.length; i++) s = f32(s + f32(w[i] * f[offset + i]));
    return s;
  }

  private add(i: number, delta: number): void {
    this.totals[i] = f32(this.totals[i] + f32(f32(f32(this.updates - this.lastUpdated[i]) * this.weights[i]) + delta));
    this.weights[i] = f32(this.weights[i] + delta);
    this.lastUpdated[i] = this.updates;
  }

  /** w += tau · d, one update of the average. */
  update(d: Float32Array, tau: number): void {
    this.updates++;
    for (let i = 0; i < d.length; i++) this.add(i, f32(d[i] * tau));
  }

  /** Brings every total up to date and returns the averaged weights (Moses' `avg()`, which does both). */
  average(): Float32Array {
    for (let i = 0; i < this.weights.length; i++) this.add(i, 0);
    if (this.updates === 0) return Float32Array.from(this.weights);
    const out = new Float32Array(this.weights.length);
    for (let i = 0; i < out.length; i++) out[i] = f32(this.totals[i] / this.updates);
    return out;
  }
}

/** w · f with plain weights, summed in float in feature order. */
function dot(w: Float32Array, f: ArrayLike<number>, offset: number): number {
  let s = 0;
  for (let i = 0; i < w.length; i++) s = f32(s + f32(w[i] * f[offset + i]));
  return s;
}

/** libstdc++'s `std::random_shuffle(first, last)` on glibc's `rand()`. */
function randomShuffle(order: Int32Array, random: GlibcRandom): void {
  for (let i = 1; i < order.length; i++) {
    const j = random.next() % (i + 1);
    if (i !== j) {
      const t = order[i];
      order[i] = order[j];
      order[j] = t;
    }
  }
}

/** Each sentence's rows with duplicate feature vectors removed (first kept), as Moses' enumerator keeps them. */
function distinctRows(input: KbmiraInput): Int32Array[] {
  const { dimensions: D, candidateOffsets: o } = input;
  // The float bits of every feature (−0 as +0: equal values are duplicates), hashed for buckets of candidate rows.
  const features = Float32Array.from(input.features, (v) => v + 0);
  const bits = new Uint32Array(features.buffer);
  const same = (a: number, b: number): boolean => {
    for (let i = 0; i < D; i++) if (bits[a * D + i] !== bits[b * D + i]) return false;
    return true;
  };
  const out: Int32Array[] = [];
  for (let s = 0; s + 1 < o.length; s++) {
    const buckets = new Map<number, number[]>();
    const rows: number[] = [];
    for (let r = o[s]; r < o[s + 1]; r++) {
      let h = 0;
      for (let i = 0; i < D; i++) h = (Math.imul(h, 0x9e3779b1) + bits[r * D + i]) | 0;
      const bucket = buckets.get(h);
      if (bucket === undefined) {
        buckets.set(h, [r]);
      } else {
        if (bucket.some((q) => same(q, r))) continue;
        bucket.push(r);
      }
      rows.push(r);
    }
    out.push(Int32Array.from(rows));
  }
  return out;
}

function check(input: KbmiraInput): void {
  const { dimensions: D, candidateOffsets: o } = input;
  if (!Number.isInteger(D) || D < 1) throw new RangeError(`dimensions must be an integer >= 1 (got ${D})`);
  const sentences = o.length - 1;
  if (sentences < 1 || o[0] !== 0) throw new RangeError('candidateOffsets must start at 0 and hold at least one sentence');
  for (let s = 0; s < sentences; s++) {
    if (!(o[s + 1] > o[s])) throw new RangeError(`sentence ${s} has no candidate (candidateOffsets must increase)`);
  }
  const rows = o[sentences];
  if (input.features.length !== rows * D) throw new RangeError(`features must hold ${rows} × ${D} values (got ${input.features.length})`);
  if (input.stats.length !== rows * BLEU_WIDTH) throw new RangeError(`stats must hold ${rows} × ${BLEU_WIDTH} values (got ${input.stats.length})`);
}

/**
 * Trains weights with k-best batch MIRA as Moses' `kbmira` does (see the file comment).
 * @throws RangeError when the matrices disagree in size, a sentence has no candidate, `start` does not hold one finite
 *   weight per feature, or an option is out of range.
 */
export function kbmiraOptimize(input: KbmiraInput, options: KbmiraOptions = {}): KbmiraResult {
  check(input);
  const D = input.dimensions;
  const start = new Float32Array(D);
  if (options.start !== undefined) {
    if (options.start.length !== D) throw new RangeError(`start must hold ${D} weights (got ${options.start.length})`);
    for (let i = 0; i < D; i++) {
      start[i] = options.start[i];
      if (!Number.isFinite(start[i])) throw new RangeError(`start[${i}] is not a finite float`);
    }
  }
  const c = f32(options.c ?? 0.01);
  const decay = f32(options.decay ?? 0.999);
  const iterations = options.iterations ?? 60;
  if (!Number.isFinite(c) || !Number.isFinite(decay)) throw new RangeError('c and decay must be finite');
  if (!Number.isSafeInteger(iterations) || iterations < 0) throw new RangeError(`iterations must be an integer >= 0 (got ${iterations})`);
  const shuffle = options.shuffle ?? true;
  const random = options.random ?? new GlibcRandom(options.seed ?? 0);
  const { features, stats } = input;
  const candidates = distinctRows(input);
  const order = Int32Array.from(candidates, (_, s) => s);
  const reset = (): void => {
    if (shuffle) randomShuffle(order, random);
  };

  const sum = new Float64Array(BLEU_WIDTH);
  /** Corpus BLEU of each sentence's model-best candidate under `w`, statistics summed in float in visiting order. */
  const evaluate = (w: Float32Array): number => {
    reset();
    const totals = new Float64Array(BLEU_WIDTH);
    for (let position = 0; position < order.length; position++) {
      const s = order[position];
      const rows = candidates[s];
      let best = rows[0];
      let bestScore = 0;
      for (let i = 0; i < rows.length; i++) {
        const score = dot(w, features, rows[i] * D);
        if (i === 0 || score > bestScore) {
          best = rows[i];
          bestScore = score;
        }
      }
      for (let k = 0; k < BLEU_WIDTH; k++) totals[k] = f32(totals[k] + f32(stats[best * BLEU_WIDTH + k]));
      options.onVisit?.('evaluate', position);
    }
    return mosesBleu(totals);
  };

  const wv = new MiraWeights(start);
  const bg = new Float64Array(BLEU_WIDTH).fill(1);
  const diff = new Float32Array(D);
  let initialBleu = NaN;
  if (options.initialEvaluation ?? true) {
    initialBleu = evaluate(wv.average());
    options.onStart?.(initialBleu);
  }
  const epochs: KbmiraEpoch[] = [];
  let bestBleu = 0;
  let bestWeights: Float32Array | undefined;
  let bestEpoch = 0;
  for (let epoch = 1; epoch <= iterations; epoch++) {
    let examples = 0;
    let updates = 0;
    let totalLoss = 0;
    reset();
    for (let position = 0; position < order.length; position++) {
      const s = order[position];
      const rows = candidates[s];
      // Hope / fear / model selection; a second pass with a smaller model weight when safeHope asks for one.
      let hopeScale = 1;
      let hope = rows[0];
      let fear = rows[0];
      let model = rows[0];
      for (let pass = 0; pass < 2; pass++) {
        let hopeScore = 0;
        let fearScore = 0;
        let modelScore = 0;
        let hopeBleu = 0;
        let hopeModel = 0;
        for (let i = 0; i < rows.length; i++) {
          const r = rows[i];
          const score = wv.score(features, r * D);
          const bleu = kbmiraBackgroundBleu(stats, r * BLEU_WIDTH, bg, sum);
          const h = f32(f32(hopeScale * score) + bleu);
          if (i === 0 || h > hopeScore) {
            hopeScore = h;
            hope = r;
            hopeBleu = bleu;
            hopeModel = score;
          }
          const fr = f32(score - bleu);
          if (i === 0 || fr > fearScore) {
            fearScore = fr;
            fear = r;
          }
          if (i === 0 || score > modelScore) {
            modelScore = score;
            model = r;
          }
        }
        hopeBleu = f32(hopeBleu * BLEU_RATIO);
        if (options.safeHope && pass === 0 && Math.abs(hopeModel) > 1e-8 && f32(Math.abs(hopeBleu) / Math.abs(hopeModel)) < hopeScale) {
          hopeScale = f32(Math.abs(hopeBleu) / Math.abs(hopeModel));
        } else {
          break;
        }
      }
      const hopeBleu = kbmiraBackgroundBleu(stats, hope * BLEU_WIDTH, bg, sum);
      const fearBleu = kbmiraBackgroundBleu(stats, fear * BLEU_WIDTH, bg, sum);
      if (hope !== fear && hopeBleu > fearBleu) {
        for (let i = 0; i < D; i++) diff[i] = f32(f32(features[hope * D + i]) - f32(features[fear * D + i]));
        const delta = f32(hopeBleu - fearBleu);
        const diffScore = dot(wv.weights, diff, 0);
        const loss = f32(delta - diffScore);
        if (options.onUpdate !== undefined) {
          options.onUpdate({
            position,
            sentence: s,
            weights: Float32Array.from(wv.weights),
            hope,
            fear,
            hopeBleu,
            fearBleu,
            hopeScore: wv.score(features, hope * D),
            fearScore: wv.score(features, fear * D),
            diff: Float32Array.from(diff),
            delta,
            diffScore,
            loss,
          });
        }
        if (loss > 0) {
          let norm = 0;
          for (let i = 0; i < D; i++) norm = f32(norm + f32(diff[i] * diff[i]));
          const eta = Math.min(c, f32(loss / norm));
          wv.update(diff, eta);
          totalLoss = f32(totalLoss + loss);
          updates++;
        }
        const add = options.modelBackground ? model : hope;
        for (let k = 0; k < BLEU_WIDTH; k++) bg[k] = f32(f32(bg[k] * decay) + f32(stats[add * BLEU_WIDTH + k]));
      }
      examples++;
      options.onSentence?.(Float32Array.from(wv.weights));
      options.onVisit?.('train', position);
    }
    const averageLoss = f32(totalLoss / examples);
    options.onEpochTrained?.(updates, examples, averageLoss);
    const avg = wv.average();
    const bleu = evaluate(avg);
    const improved = bleu > bestBleu;
    const summary: KbmiraEpoch = { epoch, updates, examples, averageLoss, bleu, weights: avg, improved };
    epochs.push(summary);
    options.onEpoch?.(summary);
    if (improved) {
      bestBleu = bleu;
      bestWeights = avg;
      bestEpoch = epoch;
    }
  }
  return { initialBleu, bestBleu, weights: bestWeights, bestEpoch, epochs };
}

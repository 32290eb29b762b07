/**
 * Moses' BLEU objective for the MERT line search: `BleuScorer::calculateScore` exactly as `mosesBleu`
 * (src/metrics/bleu/moses.ts) computes it, with the single-precision logarithms of integer statistics cached.
 *
 * A line search scores every interval between breakpoints — thousands per search — and consecutive intervals
 * differ in a few sentences' rows, so the corpus totals (integers for BLEU) take few distinct values: caching
 * `logf(n)` per integer turns eight correctly rounded logarithms per score into table reads. The numbers are the
 * same by construction: a cached entry is what `mosesBleu` computes for that argument.
 */
import { expCR, logCR } from '../../util/correctly-rounded.js';

const f32 = Math.fround;
const PAGE_BITS = 12;
const PAGE = 1 << PAGE_BITS;
/** Integers below this are cached (pages of 4096 floats, allocated on first use). */
const CACHED_BELOW = 2 ** 30;
const pages: (Float32Array | undefined)[] = [];

/** C `logf` of a float as `mosesBleu` computes it: the correctly rounded double logarithm, rounded to float. */
function logf(x: number): number {
  if (Number.isInteger(x) && x > 0 && x < CACHED_BELOW) {
    const p = x >>> PAGE_BITS;
    let page = pages[p];
    if (page === undefined) {
      page = new Float32Array(PAGE).fill(NaN);
      pages[p] = page;
    }
    const i = x & (PAGE - 1);
    let v = page[i];
    if (v !== v) {
      v = f32(logCR(f32(x)));
      page[i] = v;
    }
    return v;
  }
  return f32(logCR(f32(x)));
}

/**
 * The logarithm `mosesBleu` exponentiates (single precision), or −∞ where it returns 0 (an order without a match):
 * `mosesBleuCached` is `f32(exp(·))` of it, a non-decreasing function, so it orders totals as the score does.
 */
export function mosesBleuLogCached(stats: ArrayLike<number>, order = 4): number {
  let logbleu = 0;
  for (let i = 0; i < order; i++) {
    if (stats[2 * i] === 0) return -Infinity;
    logbleu = f32(logbleu + f32(logf(stats[2 * i]) - logf(stats[2 * i + 1])));
  }
  logbleu = f32(logbleu / order);
  const brevity = f32(1.0 - f32(f32(stats[2 * order]) / f32(stats[1])));
  if (brevity < 0) logbleu = f32(logbleu + brevity);
  return logbleu;
}

/** `mosesBleu(stats, order)` (same arithmetic, same numbers), with cached logarithms of integer statistics. */
export function mosesBleuCached(stats: ArrayLike<number>, order = 4): number {
  const logbleu = mosesBleuLogCached(stats, order);
  return logbleu === -Infinity ? 0 : f32(expCR(logbleu));
}

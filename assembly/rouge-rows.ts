/**
 * ROUGE's segment rows from pair statistics: each flavor's multi-reference combination, the F-measures and
 * ROUGE-1.5.5's `%7.5f` rounding, for every hypothesis of a batch in one call (the n-best fast path reduces a
 * million candidates per MERT iteration). This is the only definition of these rules; the plain reference the
 * property tests compare it with is test/reference/rouge-rows.ts.
 *
 * Pair rows are 4 f64 (hit, hypothesis count, reference count, select: see src/metrics/rouge/pair-stats.ts); a
 * segment row is 7 f64 (hit, hyp, ref, precision, recall, fmeasure, 1: src/metrics/rouge/segment-row.ts).
 */
import { wlcsWeightInverse } from './wlcs';

/** Rules (`rule` argument): ROUGE-1.5.5's `-f A` and `-f B`, then rouge-score's and Lin & Och's combinations. */
const RULE_155_A = 0;
const RULE_155_B = 1;
const RULE_BEST_F = 2;
const RULE_MAX = 3;
const RULE_POOL = 4;
const RULE_BEST_RECALL = 5;

/** F-measure forms (`form` argument): α (ROUGE-1.5.5 `-p`), β (Lin & Och eq. 6), F1 (rouge-score). */
const FORM_ALPHA = 0;
const FORM_BETA = 1;
const FORM_F1 = 2;

/**
 * F from P and R, each form with its implementation's operation order: P·R / ((1−α)P + αR); (1+β²)·R·P / (R + β²P);
 * 2·P·R / (P + R); 0 when the denominator is not positive.
 */
// @ts-ignore: decorator
@inline
function fmeasure(form: i32, param: f64, p: f64, r: f64): f64 {
  if (form == FORM_ALPHA) {
    const denominator = (1 - param) * p + param * r;
    return denominator > 0 ? (p * r) / denominator : 0;
  }
  if (form == FORM_BETA) {
    const b2 = param * param;
    const denominator = r + b2 * p;
    return denominator > 0 ? ((1 + b2) * r * p) / denominator : 0;
  }
  return p + r > 0 ? (2 * p * r) / (p + r) : 0;
}

/** {@link fmeasure} for TypeScript callers (corpus scores, ORANGE): the same F as the rows'. */
export function rougeFMeasure(form: i32, param: f64, p: f64, r: f64): f64 {
  return fmeasure(form, param, p, r);
}

/** `inverse(hit / count)`, 0 unless count > 0; `w` > 0 is ROUGE-W's f⁻¹ = x^(1/w), 0 the identity. */
// @ts-ignore: decorator
@inline
function pairRatio(hit: f64, count: f64, w: f64): f64 {
  if (!(count > 0)) return 0;
  return w > 0 ? wlcsWeightInverse(hit / count, w) : hit / count;
}

/** 2^27 + 1: Veltkamp's splitting constant for doubles. */
const SPLITTER: f64 = 134217729.0;

/**
 * ROUGE-1.5.5's `%7.5f` rounding as a number: `Number(sprintf("%7.5f", x))`, i.e. x rounded to 5 decimals from its
 * exact binary value, exact ties to even, then read back (the nearest double). The exact x·10⁵ is p + e with
 * p = fl(x·10⁵) and e from Dekker's product (10⁵ has 17 significant bits, so both halves' products are exact); the
 * sign of (p − (⌊p⌋ + ½)) + e, whose first difference is exact (Sterbenz), then decides the rounding, and k / 10⁵ is
 * correctly rounded, hence the double the 5-decimal text reads back as. From 2³⁶ on a double's spacing exceeds
 * 10⁻⁵·2, so x itself is nearest to its rounding. Negative values round symmetrically (-0 for a tiny one), and NaN and
 * infinities read back as NaN (printf writes `nan`, `inf`): `Number(perlFixed5(x))` for every double.
 */
export function perlRound5(x: f64): f64 {
  return round5(x);
}

/**
 * {@link perlRound5} with its common case first, inlined where rows are written: 0 < x < 2³⁶ and p = fl(x·10⁵) not
 * at ⌊p⌋ + ½. Then p's side of ⌊p⌋ + ½ is the exact product's: below 2⁵² that half is a double, and rounding is
 * monotone, so the product lies above it if p does and below it if p does (and within ½ of ⌊p⌋ or ⌊p⌋ + 1, whose
 * neighbours' halves are doubles too); from 2⁵² on p is an integer and the product's nearest, ties to even — the
 * rounding %7.5f wants. k / 10⁵ is then the general path's. Only products that land on a half (ties, and products
 * within an ulp of one) need {@link roundAny}'s exact error term; so do 0, negative, huge and non-finite x.
 */
// @ts-ignore: decorator
@inline
function round5(x: f64): f64 {
  if (x > 0 && x < 68719476736.0) {
    const p = x * 1e5;
    const floor = Math.floor(p);
    const fraction = p - floor;
    if (fraction != 0.5) return (fraction > 0.5 ? floor + 1 : floor) / 1e5;
  }
  return roundAny(x);
}

/** {@link perlRound5} for any double. */
function roundAny(x: f64): f64 {
  if (x != x || x == Infinity || x == -Infinity) return NaN;
  // -0 is written `0.00000` (../src/metrics/rouge155/perl-format.ts), hence reads back as 0.
  if (x == 0) return 0;
  if (x < 0) return -roundAny(-x);
  if (x >= 68719476736.0) return x;
  const p = x * 1e5;
  const floor = Math.floor(p);
  let k: f64;
  if (p >= 4503599627370496.0) {
    // 2⁵² ≤ p < 2⁵³: p is an integer and |e| ≤ ½; e = ±½ is a tie, kept on the even side.
    const c = SPLITTER * x;
    const hi = c - (c - x);
    const e = (hi * 1e5 - p) + (x - hi) * 1e5;
    k = p;
    if (e == 0.5 || e == -0.5) {
      const other = p + (e > 0 ? 1 : -1);
      k = Math.floor(p / 2) * 2 == p ? p : other;
    }
  } else {
    const fraction = p - floor;
    if (p < 2147483648.0 && Math.abs(fraction - 0.5) > 1e-6) {
      // Far from a tie: below 2³¹ the product's error (at most 2⁻²³) cannot move it across one.
      k = fraction > 0.5 ? floor + 1 : floor;
    } else {
      const c = SPLITTER * x;
      const hi = c - (c - x);
      const e = (hi * 1e5 - p) + (x - hi) * 1e5;
      const d = (p - (floor + 0.5)) + e;
      if (d > 0) k = floor + 1;
      else if (d < 0) k = floor;
      else k = Math.floor(floor / 2) * 2 == floor ? floor : floor + 1;
    }
  }
  return k / 1e5;
}

/**
 * ROUGE-1.5.5's row (the tail of each `compute*Score`) of pairs `from .. to` except `skip` (-1: none), at `out`:
 * `-f A` sums the counts over the models, `-f B` keeps the first model with the best select (its rounded recall);
 * R and P (through f⁻¹ for ROUGE-W) rounded by {@link perlRound5}, F = P·R / ((1−α)P + αR) of the rounded values,
 * rounded again.
 */
// @ts-ignore: decorator
@inline
function rouge155Row(pairs: usize, from: i32, to: i32, skip: i32, bestRecall: bool, alpha: f64, w: f64, out: usize): void {
  let hit: f64 = 0;
  let peerCount: f64 = 0;
  let modelCount: f64 = 0;
  if (bestRecall) {
    let best: f64 = -1;
    for (let k = from; k < to; k++) {
      if (k == skip) continue;
      const at = pairs + (usize(k) << 5);
      const score = load<f64>(at, 24);
      // Strictly better only: the first model keeps a tie, as the Perl's `>` does.
      if (score > best) {
        best = score;
        hit = load<f64>(at);
        peerCount = load<f64>(at, 8);
        modelCount = load<f64>(at, 16);
      }
    }
  } else {
    for (let k = from; k < to; k++) {
      if (k == skip) continue;
      const at = pairs + (usize(k) << 5);
      hit += load<f64>(at);
      peerCount += load<f64>(at, 8);
      modelCount += load<f64>(at, 16);
    }
  }
  let recall: f64 = modelCount != 0 ? hit / modelCount : 0;
  let precision: f64 = peerCount != 0 ? hit / peerCount : 0;
  if (w > 0) {
    recall = modelCount != 0 ? wlcsWeightInverse(recall, w) : 0;
    precision = peerCount != 0 ? wlcsWeightInverse(precision, w) : 0;
  }
  recall = round5(recall);
  precision = round5(precision);
  const denominator = (1 - alpha) * precision + alpha * recall;
  store<f64>(out, hit);
  store<f64>(out, peerCount, 8);
  store<f64>(out, modelCount, 16);
  store<f64>(out, precision, 24);
  store<f64>(out, recall, 32);
  store<f64>(out, round5(denominator > 0 ? (precision * recall) / denominator : 0), 40);
  store<f64>(out, 1, 48);
}

/** The row of combined counts: R and P their ratios, F of those. */
// @ts-ignore: decorator
@inline
function countsRow(hit: f64, hyp: f64, ref: f64, form: i32, param: f64, w: f64, out: usize): void {
  const recall = pairRatio(hit, ref, w);
  const precision = pairRatio(hit, hyp, w);
  store<f64>(out, hit);
  store<f64>(out, hyp, 8);
  store<f64>(out, ref, 16);
  store<f64>(out, precision, 24);
  store<f64>(out, recall, 32);
  store<f64>(out, fmeasure(form, param, precision, recall), 40);
  store<f64>(out, 1, 48);
}

/**
 * `best-f` (rouge-score's rule): the first pair with the greatest F (the first pair whatever its F, NaN included,
 * later ones only when strictly better); no pairs: all counts 0.
 */
// @ts-ignore: decorator
@inline
function bestFRow(pairs: usize, from: i32, to: i32, skip: i32, form: i32, param: f64, w: f64, out: usize): void {
  let hit: f64 = 0;
  let hyp: f64 = 0;
  let ref: f64 = 0;
  let precision: f64 = 0;
  let recall: f64 = 0;
  let f = fmeasure(form, param, 0, 0);
  let first = true;
  for (let k = from; k < to; k++) {
    if (k == skip) continue;
    const at = pairs + (usize(k) << 5);
    const h = load<f64>(at);
    const n = load<f64>(at, 8);
    const m = load<f64>(at, 16);
    let r: f64;
    let p: f64;
    if (w == 0) {
      // pairRatio's two divisions in the lanes of one (the same IEEE quotients): [h / n, h / m], 0 where the
      // count is not > 0.
      const counts = v128.load(at, 8);
      const zero = f64x2.splat(0);
      const ratios = v128.bitselect(f64x2.div(f64x2.splat(h), counts), zero, f64x2.gt(counts, zero));
      p = f64x2.extract_lane(ratios, 0);
      r = f64x2.extract_lane(ratios, 1);
    } else {
      r = pairRatio(h, m, w);
      p = pairRatio(h, n, w);
    }
    const fk = fmeasure(form, param, p, r);
    if (first || fk > f) {
      first = false;
      hit = h;
      hyp = n;
      ref = m;
      precision = p;
      recall = r;
      f = fk;
    }
  }
  store<f64>(out, hit);
  store<f64>(out, hyp, 8);
  store<f64>(out, ref, 16);
  store<f64>(out, precision, 24);
  store<f64>(out, recall, 32);
  store<f64>(out, f, 40);
  store<f64>(out, 1, 48);
}

/** {@link rouge155Row} with its rule (`-f A` or `-f B`) and ROUGE-W's f⁻¹ or not fixed in each branch. */
function rouge155RowOf(pairs: usize, from: i32, to: i32, skip: i32, bestRecall: bool, alpha: f64, w: f64, out: usize): void {
  if (w > 0) rouge155Row(pairs, from, to, skip, bestRecall, alpha, w, out);
  else if (bestRecall) rouge155Row(pairs, from, to, skip, true, alpha, 0, out);
  else rouge155Row(pairs, from, to, skip, false, alpha, 0, out);
}

/**
 * {@link bestFRow} with its F form and ROUGE-W's f⁻¹ or not fixed in each branch, so that a pair's F needs no
 * dispatch (a call writes many rows of one kind).
 */
function bestFRowOf(pairs: usize, from: i32, to: i32, skip: i32, form: i32, param: f64, w: f64, out: usize): void {
  if (w > 0) bestFRow(pairs, from, to, skip, form, param, w, out);
  else if (form == FORM_ALPHA) bestFRow(pairs, from, to, skip, FORM_ALPHA, param, 0, out);
  else if (form == FORM_BETA) bestFRow(pairs, from, to, skip, FORM_BETA, param, 0, out);
  else bestFRow(pairs, from, to, skip, FORM_F1, param, 0, out);
}

/** The rule's row of pairs `from .. to` except `skip` (-1: none), at `out`. */
function combine(
  pairs: usize, from: i32, to: i32, skip: i32, rule: i32, form: i32, param: f64, w: f64, out: usize,
): void {
  if (rule == RULE_155_A || rule == RULE_155_B) {
    // ROUGE-1.5.5's F is always the α form (α = 0.5 unless `-p` sets it).
    rouge155RowOf(pairs, from, to, skip, rule == RULE_155_B, form == FORM_ALPHA ? param : 0.5, w, out);
  } else if (rule == RULE_BEST_F) {
    bestFRowOf(pairs, from, to, skip, form, param, w, out);
  } else if (rule == RULE_MAX) {
    // The counts of the best-F pair (the first on ties), F of the best P and the best R over the pairs.
    bestFRowOf(pairs, from, to, skip, form, param, w, out);
    let maxP = load<f64>(out, 24);
    let maxR = load<f64>(out, 32);
    for (let k = from; k < to; k++) {
      if (k == skip) continue;
      const at = pairs + (usize(k) << 5);
      const p = pairRatio(load<f64>(at), load<f64>(at, 8), w);
      const r = pairRatio(load<f64>(at), load<f64>(at, 16), w);
      if (p > maxP) maxP = p;
      if (r > maxR) maxR = r;
    }
    store<f64>(out, maxP, 24);
    store<f64>(out, maxR, 32);
    store<f64>(out, fmeasure(form, param, maxP, maxR), 40);
  } else if (rule == RULE_POOL) {
    let hit: f64 = 0;
    let hyp: f64 = 0;
    let ref: f64 = 0;
    for (let k = from; k < to; k++) {
      if (k == skip) continue;
      const at = pairs + (usize(k) << 5);
      hit += load<f64>(at);
      hyp += load<f64>(at, 8);
      ref += load<f64>(at, 16);
    }
    countsRow(hit, hyp, ref, form, param, w, out);
  } else {
    // RULE_BEST_RECALL: the first pair with the greatest select.
    let best = -1;
    for (let k = from; k < to; k++) {
      if (k == skip) continue;
      if (best < 0 || load<f64>(pairs + (usize(k) << 5), 24) > load<f64>(pairs + (usize(best) << 5), 24)) best = k;
    }
    if (best < 0) {
      countsRow(0, 0, 0, form, param, w, out);
    } else {
      const at = pairs + (usize(best) << 5);
      countsRow(load<f64>(at), load<f64>(at, 8), load<f64>(at, 16), form, param, w, out);
    }
  }
}

/**
 * Rows of hypotheses `0 .. nRows` under one rule, F form and `w` without jackknifing: with constant arguments the
 * rule's row is inlined in the loop, no call or dispatch per row (rows are a few divisions each, and a call per row
 * cost about as much as they do).
 */
// @ts-ignore: decorator
@inline
function plainRows(
  pairs: usize, rowOffsets: usize, nRows: i32, rule: i32, form: i32, param: f64, w: f64, out: usize, outStride: i32,
): void {
  for (let h = 0; h < nRows; h++) {
    const from = load<i32>(rowOffsets + (usize(h) << 2));
    const to = load<i32>(rowOffsets + (usize(h) << 2), 4);
    const at = out + usize(h) * usize(outStride);
    if (rule == RULE_155_A || rule == RULE_155_B) rouge155Row(pairs, from, to, -1, rule == RULE_155_B, param, w, at);
    else bestFRow(pairs, from, to, -1, form, param, w, at);
  }
}

/**
 * Writes the row of each of `nRows` hypotheses, whose pairs are `rowOffsets[h] .. rowOffsets[h + 1]` (i32) of
 * `pairs`, at `out + h · outStride` (bytes): the rule's combination (`rule`, F `form` with its α or β `param`, `w` >
 * 0 for ROUGE-W's f⁻¹), and with `jackknife` and at least two pairs, P, R and F replaced by their means over the
 * combinations that leave one pair out (Lin & Och 2004 §5). `scratch`: 7 f64.
 */
export function rougeRows(
  pairs: usize, rowOffsets: usize, nRows: i32, rule: i32, form: i32, param: f64, w: f64, jackknife: i32,
  scratch: usize, out: usize, outStride: i32,
): void {
  // The flavors' usual rules without ROUGE-W and jackknifing (ROUGE-1.5.5's -f A and -f B, rouge-score's best F1),
  // each in a loop of its own; the rest as `combine` writes them.
  if (jackknife == 0 && w == 0) {
    // ROUGE-1.5.5's F is always the α form (α = 0.5 unless `-p` sets it), as in `combine`.
    const alpha = form == FORM_ALPHA ? param : 0.5;
    if (rule == RULE_155_A) {
      plainRows(pairs, rowOffsets, nRows, RULE_155_A, FORM_ALPHA, alpha, 0, out, outStride);
      return;
    }
    if (rule == RULE_155_B) {
      plainRows(pairs, rowOffsets, nRows, RULE_155_B, FORM_ALPHA, alpha, 0, out, outStride);
      return;
    }
    if (rule == RULE_BEST_F && form == FORM_F1) {
      plainRows(pairs, rowOffsets, nRows, RULE_BEST_F, FORM_F1, param, 0, out, outStride);
      return;
    }
  }
  for (let h = 0; h < nRows; h++) {
    const from = load<i32>(rowOffsets + (usize(h) << 2));
    const to = load<i32>(rowOffsets + (usize(h) << 2), 4);
    const at = out + usize(h) * usize(outStride);
    combine(pairs, from, to, -1, rule, form, param, w, at);
    if (jackknife != 0 && to - from >= 2) {
      let p: f64 = 0;
      let r: f64 = 0;
      let f: f64 = 0;
      for (let k = from; k < to; k++) {
        combine(pairs, from, to, k, rule, form, param, w, scratch);
        p += load<f64>(scratch, 24);
        r += load<f64>(scratch, 32);
        f += load<f64>(scratch, 40);
      }
      const n = f64(to - from);
      store<f64>(at, p / n, 24);
      store<f64>(at, r / n, 32);
      store<f64>(at, f / n, 40);
    }
  }
}

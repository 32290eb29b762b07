/**
 * Correctly rounded `exp` and `log`, shared by every metric whose oracle calls the C library's (BLEU in all its
 * flavors, NIST, Moses' single-precision scores).
 *
 * The oracles (sacrebleu, NLTK, mteval's Perl, Moses) call the C library's `exp`/`log` (glibc 2.36 on the golden
 * machine). V8's `Math.exp`/`Math.log` (fdlibm ports) are only faithful (< 1 ulp): on sacrebleu's corpus grids about
 * one BLEU score in six came out one ulp away from the golden. These versions evaluate in double-double arithmetic and
 * round once, so they return the correctly rounded double unless the exact value lies within ~2^-85 relative of a
 * rounding boundary. glibc itself misrounds a few inputs in 10,000 (measured on 300,000 random arguments: exp 223, log
 * 82, and in every one of those the value here was the closer one), so agreement with the oracles is near-total but not
 * guaranteed to the last bit; the golden tolerance (relative 1e-9) covers the rest.
 *
 * exp: x = (64k + j)·ln2/64 + r with |r| ≤ ln2/128 (r in double-double); e^x = 2^k · 2^(j/64) · e^r, the 64 values
 * 2^(j/64) tabulated in double-double, e^r by its Taylor series (truncation < 2^-86).
 * log: x = m·2^e with m in [√½, √2), c = 1 + i/64 the nearest table point, u = (m − c)/(m + c) (|u| < 0.006),
 * log x = e·ln2 + log c + 2·atanh(u); log c tabulated in double-double, atanh by its series (truncation < 2^-90).
 * The tables are computed once, on first use, by slower reductions of ~2^-100 accuracy (a short Taylor series of
 * x/256 squared eight times; the atanh series on [√½, √2)), exported for the tests as `expReferenceCR` and
 * `logReferenceCR`. Results in the subnormal range fall back to `Math.exp` (never reached by BLEU's scores).
 *
 * Double-double values are carried in pairs of locals; helpers return through the register array `R` so the hot
 * paths allocate nothing.
 */

const SPLITTER = 134217729; // 2^27 + 1
const LN2_HI = 0.6931471805599453;
const LN2_LO = 2.3190468138462996e-17;

/** Result registers of the double-double helpers ([hi, lo]); a typed array avoids module-binding checks. */
const R = new Float64Array(2);

/** (ah, al) + (bh, bl) → R. */
function ddAdd(ah: number, al: number, bh: number, bl: number): void {
  let s = ah + bh;
  let v = s - ah;
  const e1 = ah - (s - v) + (bh - v);
  const t = al + bl;
  v = t - al;
  const e2 = al - (t - v) + (bl - v);
  let c = e1 + t;
  let h = s + c;
  c = c - (h - s);
  s = h;
  c += e2;
  h = s + c;
  R[0] = h;
  R[1] = c - (h - s);
}

/** (ah, al) · (bh, bl) → R. */
function ddMul(ah: number, al: number, bh: number, bl: number): void {
  const p = ah * bh;
  let t = SPLITTER * ah;
  const ahh = t - (t - ah);
  const ahl = ah - ahh;
  t = SPLITTER * bh;
  const bhh = t - (t - bh);
  const bhl = bh - bhh;
  const e = ahh * bhh - p + ahh * bhl + ahl * bhh + ahl * bhl + (ah * bl + al * bh);
  const h = p + e;
  R[0] = h;
  R[1] = e - (h - p);
}

/** (ah, al) / (bh, bl) → R, three correction steps. */
function ddDiv(ah: number, al: number, bh: number, bl: number): void {
  const q1 = ah / bh;
  ddMul(bh, bl, -q1, 0);
  ddAdd(ah, al, R[0], R[1]);
  let r0 = R[0];
  let r1 = R[1];
  const q2 = r0 / bh;
  ddMul(bh, bl, -q2, 0);
  ddAdd(r0, r1, R[0], R[1]);
  r0 = R[0];
  r1 = R[1];
  const q3 = r0 / bh;
  const s = q1 + q2;
  const e = q2 - (s - q1);
  ddAdd(s, e, q3, 0);
}

/** 1/i! for i = 0..12 and 1/(2j+1) for j = 0..24, as double-doubles (hi, lo interleaved). */
const INV_FACTORIAL = new Float64Array(2 * 13);
const INV_ODD = new Float64Array(2 * 25);
{
  let f = 1;
  for (let i = 0; i <= 12; i++) {
    if (i > 0) f *= i; // exact: 12! < 2^53
    ddDiv(1, 0, f, 0);
    INV_FACTORIAL[2 * i] = R[0];
    INV_FACTORIAL[2 * i + 1] = R[1];
  }
  for (let j = 0; j <= 24; j++) {
    ddDiv(1, 0, 2 * j + 1, 0);
    INV_ODD[2 * j] = R[0];
    INV_ODD[2 * j + 1] = R[1];
  }
}

/** Σ_{i ≤ terms} r^i / i! by Horner in double-double → R. */
function taylorExp(r0: number, r1: number, terms: number): void {
  let ph = INV_FACTORIAL[2 * terms];
  let pl = INV_FACTORIAL[2 * terms + 1];
  for (let i = terms - 1; i >= 0; i--) {
    ddMul(ph, pl, r0, r1);
    ddAdd(R[0], R[1], INV_FACTORIAL[2 * i], INV_FACTORIAL[2 * i + 1]);
    ph = R[0];
    pl = R[1];
  }
  R[0] = ph;
  R[1] = pl;
}

/** 2·atanh(u) = 2·Σ_{j ≤ terms} u^(2j+1)/(2j+1) in double-double → R. */
function twoAtanh(uh: number, ul: number, terms: number): void {
  ddMul(uh, ul, uh, ul);
  const u2h = R[0];
  const u2l = R[1];
  let sh = INV_ODD[2 * terms];
  let sl = INV_ODD[2 * terms + 1];
  for (let j = terms - 1; j >= 0; j--) {
    ddMul(sh, sl, u2h, u2l);
    ddAdd(R[0], R[1], INV_ODD[2 * j], INV_ODD[2 * j + 1]);
    sh = R[0];
    sl = R[1];
  }
  ddMul(uh, ul, sh, sl);
  R[0] *= 2;
  R[1] *= 2;
}

/** Multiplies (h, l) by 2^k exactly (normal range) and rounds once. */
function scaleAndRound(h: number, l: number, k: number): number {
  const k1 = Math.trunc(k / 2);
  const s = 2 ** k1 * 2 ** (k - k1);
  return h * s + l * s;
}

const VIEW = new DataView(new ArrayBuffer(8));

/** x = m · 2^e with m in [√½, √2): returns m, exponent in `splitExponent`. */
let splitExponent = 0;
function splitMantissa(x: number): number {
  let e = 0;
  if (x < 2.2250738585072014e-308) {
    x *= 2 ** 54; // subnormals: normalise first
    e -= 54;
  }
  VIEW.setFloat64(0, x);
  const hiWord = VIEW.getUint32(0);
  e += ((hiWord >>> 20) & 0x7ff) - 1023;
  VIEW.setUint32(0, (hiWord & 0x800fffff) | (1023 << 20));
  let m = VIEW.getFloat64(0);
  if (m > Math.SQRT2) {
    m /= 2;
    e += 1;
  }
  splitExponent = e;
  return m;
}

/** Correctly rounded e^x by a slower reduction (squaring 8 times); builds the tables, kept as a test oracle. */
export function expReferenceCR(x: number): number {
  if (x === 0) return 1;
  if (!(x <= 709.8)) return x > 709.8 ? Infinity : NaN;
  if (x < -708.3) return Math.exp(x);
  const k = Math.round(x / LN2_HI);
  ddMul(LN2_HI, LN2_LO, -k, 0);
  ddAdd(x, 0, R[0], R[1]);
  expDDReference(R[0] * 2 ** -8, R[1] * 2 ** -8);
  return scaleAndRound(R[0], R[1], k);
}

/** e^(256·(r0 + r1)) → R for |r0| ≤ 2^-8: Taylor series of the argument, squared 8 times. */
function expDDReference(r0: number, r1: number): void {
  taylorExp(r0, r1, 12);
  let ph = R[0];
  let pl = R[1];
  for (let i = 0; i < 8; i++) {
    ddMul(ph, pl, ph, pl);
    ph = R[0];
    pl = R[1];
  }
  R[0] = ph;
  R[1] = pl;
}

/** Correctly rounded log x by the atanh series on [√½, √2) alone; builds the table, kept as a test oracle. */
export function logReferenceCR(x: number): number {
  if (!(x > 0)) return x === 0 ? -Infinity : NaN;
  if (x === Infinity) return Infinity;
  const m = splitMantissa(x);
  const e = splitExponent;
  logMantissaReference(m);
  if (e === 0) return R[0] + R[1];
  const lh = R[0];
  const ll = R[1];
  ddMul(LN2_HI, LN2_LO, e, 0);
  ddAdd(R[0], R[1], lh, ll);
  return R[0] + R[1];
}

/** log m → R for m in [√½, √2): 2·atanh((m − 1)/(m + 1)), 24 terms. */
function logMantissaReference(m: number): void {
  // m − 1 is exact (Sterbenz); m + 1 exact as a double-double (Fast2Sum(1, m): exponent(1) ≥ exponent(m)).
  const d0 = m + 1;
  const d1 = m - (d0 - 1);
  ddDiv(m - 1, 0, d0, d1);
  twoAtanh(R[0], R[1], 24);
}

// The two tables cost a few milliseconds of double-double series to build: they are built on the first call that
// needs them, not when the module loads (every command that loads BLEU would pay for them).

/** 2^(j/64), j = 0..63 (hi, lo interleaved); built by {@link exp2Table}. */
let EXP2_TABLE: Float64Array | undefined;

function exp2Table(): Float64Array {
  const table = new Float64Array(128);
  for (let j = 0; j < 64; j++) {
    ddMul(LN2_HI, LN2_LO, j / 64 / 256, 0);
    expDDReference(R[0], R[1]);
    table[2 * j] = R[0];
    table[2 * j + 1] = R[1];
  }
  EXP2_TABLE = table;
  return table;
}

/** log(1 + i/64), i = −32..32 (hi, lo interleaved, index i + 32); built by {@link logTable}. */
let LOG_TABLE: Float64Array | undefined;

function logTable(): Float64Array {
  const table = new Float64Array(2 * 65);
  for (let i = -32; i <= 32; i++) {
    const c = 1 + i / 64;
    const m = splitMantissa(c);
    const e = splitExponent;
    logMantissaReference(m);
    if (e !== 0) {
      const lh = R[0];
      const ll = R[1];
      ddMul(LN2_HI, LN2_LO, e, 0);
      ddAdd(R[0], R[1], lh, ll);
    }
    table[2 * (i + 32)] = R[0];
    table[2 * (i + 32) + 1] = R[1];
  }
  LOG_TABLE = table;
  return table;
}

const LN2_64_HI = LN2_HI / 64;
const LN2_64_LO = LN2_LO / 64;
const INV_LN2_64 = 64 / LN2_HI;

/**
 * Correctly rounded e^x by the double-double table path alone (see the file comment): the routine {@link expCR}
 * falls back to, exported for the tests that check the fast path returns the same doubles.
 */
export function expDoubleDoubleCR(x: number): number {
  if (x === 0) return 1;
  if (!(x <= 709.8)) return x > 709.8 ? Infinity : NaN;
  if (x < -708.3) return Math.exp(x); // subnormal or zero result
  // Before the arithmetic below: building the table uses R.
  const table = EXP2_TABLE ?? exp2Table();
  const n = Math.round(x * INV_LN2_64);
  const j = n & 63;
  // r = x − n·ln2/64 in double-double, |r| ≤ ln2/128.
  ddMul(LN2_64_HI, LN2_64_LO, -n, 0);
  ddAdd(x, 0, R[0], R[1]);
  taylorExp(R[0], R[1], 8);
  ddMul(R[0], R[1], table[2 * j], table[2 * j + 1]);
  return scaleAndRound(R[0], R[1], (n - j) / 64);
}

/**
 * Correctly rounded natural logarithm by the double-double table path alone: the routine {@link logCR} falls back
 * to, exported for the tests that check the fast path returns the same doubles.
 */
export function logDoubleDoubleCR(x: number): number {
  if (!(x > 0)) return x === 0 ? -Infinity : NaN;
  if (x === Infinity) return Infinity;
  if (x === 1) return 0;
  // Before the arithmetic below: building the table uses R and the mantissa split.
  const table = LOG_TABLE ?? logTable();
  const m = splitMantissa(x);
  const e = splitExponent;
  const i = Math.round((m - 1) * 64);
  const c = 1 + i / 64;
  // m − c is exact (Sterbenz: c/2 ≤ m ≤ 2c); m + c as an exact double-double sum.
  const s = m + c;
  const v = s - m;
  const sl = m - (s - v) + (c - v);
  ddDiv(m - c, 0, s, sl);
  twoAtanh(R[0], R[1], 5);
  if (i !== 0) ddAdd(table[2 * (i + 32)], table[2 * (i + 32) + 1], R[0], R[1]);
  if (e === 0) return R[0] + R[1];
  const lh = R[0];
  const ll = R[1];
  ddMul(LN2_HI, LN2_LO, e, 0);
  ddAdd(R[0], R[1], lh, ll);
  return R[0] + R[1];
}

// ---------------------------------------------------------------------------------------------------------------
// Fast paths. Tuning loops call exp/log a few times per corpus score (issue 5: BLEU from totals in ≤ 1 µs), and the
// double-double series above cost ~280 ns a call. The fast paths evaluate the same reductions with only the leading
// terms in double-double (exact products by Dekker's splitting) and the small tail of the series in plain doubles,
// which keeps the relative error below 2^-64 (bounds at each step below). The result (h, l), normalised, is rounded
// to h; that is the correctly rounded value — hence the one the double-double routines return — whenever every
// value within 2^-61·|h| of h + l rounds to h as well, which the code checks by rounding both ends of that interval.
// Otherwise (about one argument in a few thousand) the double-double routine decides.
// ---------------------------------------------------------------------------------------------------------------

/** Half-width of the interval the rounding check uses, relative: 8× the fast paths' error bound of 2^-64. */
const FAST_MARGIN = 2 ** -61;

/** Exact product a·b → R (Dekker): R[0] = fl(a·b), R[1] = the rounding error. */
function twoProduct(a: number, b: number): void {
  const p = a * b;
  let t = SPLITTER * a;
  const ah = t - (t - a);
  const al = a - ah;
  t = SPLITTER * b;
  const bh = t - (t - b);
  const bl = b - bh;
  R[0] = p;
  R[1] = ah * bh - p + ah * bl + al * bh + al * bl;
}

/** h if every value within FAST_MARGIN·|h| of (h + l) rounds to h (h = fl(h + l)), else NaN (undecided). */
function roundedOrNaN(h: number, l: number): number {
  const d = Math.abs(h) * FAST_MARGIN;
  return h + (l - d) === h && h + (l + d) === h ? h : NaN;
}

/**
 * Correctly rounded e^x (see the file comment): the fast path when its rounding is certain, else
 * {@link expDoubleDoubleCR}.
 *
 * Fast path, for |x| < 700 (normal results, exact scaling): r = x − n·ln2/64 as in the double-double routine
 * (error ~2^-100); e^r = 1 + s with s = r0 + (r1 + p), p = Σ_{i=2..8} r0^i/i! in doubles (|p| ≤ 1.5e-5, so its
 * rounding errors are ≤ 2^-68 relative; the dropped r1·r0 and r0^9/9! terms are < 2^-75); T·(1 + s) with the table
 * value T = 2^(j/64): T_hi·r0 exact, T_hi·(r1 + p) and T_lo·s rounded (≤ 2^-69), summed into a normalised (h, l).
 */
export function expCR(x: number): number {
  if (!(x > -700 && x < 700) || x === 0) return expDoubleDoubleCR(x);
  // Before the arithmetic below: building the table uses R.
  const table = EXP2_TABLE ?? exp2Table();
  const n = Math.round(x * INV_LN2_64);
  const j = n & 63;
  ddMul(LN2_64_HI, LN2_64_LO, -n, 0);
  ddAdd(x, 0, R[0], R[1]);
  const r0 = R[0];
  const r1 = R[1];
  const p =
    r0 *
    r0 *
    (0.5 +
      r0 *
        (1 / 6 +
          r0 * (1 / 24 + r0 * (1 / 120 + r0 * (1 / 720 + r0 * (1 / 5040 + r0 * (1 / 40320)))))));
  const th = table[2 * j];
  const tl = table[2 * j + 1];
  twoProduct(th, r0);
  const ph = R[0];
  const pl = R[1];
  // th + ph: Fast2Sum (|th| ≥ 1 > |ph|).
  const s1 = th + ph;
  const e1 = ph - (s1 - th);
  const tail = e1 + pl + th * (r1 + p) + tl + tl * (r0 + p);
  const h = s1 + tail;
  const l = tail - (h - s1);
  const rounded = roundedOrNaN(h, l);
  if (rounded !== rounded) return expDoubleDoubleCR(x);
  // 2^k scaling is exact for results in the normal range, so it commutes with the rounding.
  const k = (n - j) / 64;
  const k1 = Math.trunc(k / 2);
  return rounded * 2 ** k1 * 2 ** (k - k1);
}

/**
 * Correctly rounded natural logarithm (see the file comment): the fast path when its rounding is certain, else
 * {@link logDoubleDoubleCR}.
 *
 * Fast path, for normal x ≠ 1: the same split x = 2^e·m, c = 1 + i/64 and u = (m − c)/(m + c) as the double-double
 * routine, u = u0 + u1 with u0 = fl(u) and u1 from the exact residual (error ≤ 2^-104 relative); 2·atanh(u) =
 * 2u0 + 2u1 + q with q = 2u0³·(1/3 + u0²/5 + u0⁴/7 + u0⁶/9) in doubles (|q| ≤ 4e-8·… ≤ 2^-17·|2u|, so ≤ 2^-69
 * relative; dropped terms < 2^-85); then log c (table) and e·ln2 (exact product of e and ln2's high part) added
 * with error-free sums. No cancellation beyond a factor 2: |log c| ≥ 2·|2u| when i ≠ 0, |e·ln2| ≥ 2·|log m| when
 * e ≠ 0.
 */
export function logCR(x: number): number {
  if (!(x > 2.2250738585072014e-308 && x < Infinity) || x === 1) return logDoubleDoubleCR(x);
  // Before the arithmetic below: building the table uses R and the mantissa split.
  const table = LOG_TABLE ?? logTable();
  const m = splitMantissa(x);
  const e = splitExponent;
  const i = Math.round((m - 1) * 64);
  const c = 1 + i / 64;
  const d = m - c; // exact (Sterbenz)
  const s = m + c;
  const v = s - m;
  const sl = m - (s - v) + (c - v); // s + sl = m + c exactly
  const u0 = d / s;
  twoProduct(u0, s);
  const u1 = (d - R[0] - R[1] - u0 * sl) / s;
  const u2 = u0 * u0;
  const q = 2 * u0 * u2 * (1 / 3 + u2 * (1 / 5 + u2 * (1 / 7 + u2 * (1 / 9))));
  // h + l accumulates: e·ln2 (hi exact), log c (table), 2u0, then the small tail.
  let h = 2 * u0;
  let l = 2 * u1 + q;
  if (i !== 0) {
    const a = table[2 * (i + 32)];
    const t = a + h;
    const w = t - a;
    l += a - (t - w) + (h - w) + table[2 * (i + 32) + 1];
    h = t;
  }
  if (e !== 0) {
    twoProduct(e, LN2_HI);
    const a = R[0];
    const t = a + h;
    const w = t - a;
    l += a - (t - w) + (h - w) + R[1] + e * LN2_LO;
    h = t;
  }
  const hn = h + l;
  const ln = l - (hn - h);
  const rounded = roundedOrNaN(hn, ln);
  return rounded === rounded ? rounded : logDoubleDoubleCR(x);
}

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
 * The tables come from slower reductions of ~2^-100 accuracy (a short Taylor series of x/256 squared eight times;
 * the atanh series on [√½, √2)), exported for the tests as `expReferenceCR` and `logReferenceCR`; they are written
 * out as constants (`buildExp2Table`, `buildLogTable` compute them again for the test that compares). Results in the subnormal range fall back to `Math.exp` (never reached by BLEU's scores).
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

/**
 * 2^(j/64), j = 0..63, by {@link expReferenceCR}'s reduction (hi, lo interleaved): how the table of the fast
 * routines was computed. It is written out below because building it costs a few milliseconds of cold
 * double-double series in every process that scores BLEU once; the tests check that it is this function's result.
 */
export function buildExp2Table(): Float64Array {
  const table = new Float64Array(128);
  for (let j = 0; j < 64; j++) {
    ddMul(LN2_HI, LN2_LO, j / 64 / 256, 0);
    expDDReference(R[0], R[1]);
    table[2 * j] = R[0];
    table[2 * j + 1] = R[1];
  }
  return table;
}

/** log(1 + i/64), i = −32..32, by {@link logReferenceCR}'s series (hi, lo interleaved, index i + 32): as above. */
export function buildLogTable(): Float64Array {
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
  return table;
}

/** {@link buildExp2Table}'s result (exported for the test that checks it). */
export const EXP2_TABLE = Float64Array.of(
  1, 0,
  1.0108892860517005, -1.5234778603368956e-17,
  1.0218971486541166, 5.1092250289733675e-17,
  1.0330248790212284, 7.600838874027016e-18,
  1.0442737824274138, 8.551889705537808e-17,
  1.0556451783605572, 1.7593257387705562e-18,
  1.0671404006768237, -7.899853966841597e-17,
  1.0787607977571199, -6.656660436056501e-17,
  1.0905077326652577, -3.046782079812544e-17,
  1.102382583307841, 5.266036871570495e-17,
  1.1143867425958924, 1.0410278456845247e-16,
  1.1265216186082418, 5.16585675879552e-17,
  1.1387886347566916, 8.912812676025374e-17,
  1.1511892299529827, 3.250710218863839e-17,
  1.1637248587775775, 3.82920483692429e-17,
  1.1763969916502812, 5.554203254218381e-17,
  1.189207115002721, 3.982015231465487e-17,
  1.202156731452703, 6.64498149925218e-17,
  1.215247359980469, -7.71263069268193e-17,
  1.22848053610687, -1.8987816313025537e-17,
  1.241857812073484, 4.6580275918369935e-17,
  1.255380757024691, -6.711389821300237e-18,
  1.2690509571917332, 2.6679321313397394e-18,
  1.2828700160787783, 1.7135949182432824e-17,
  1.2968395546510096, 2.5382502794889788e-17,
  1.3109612115247644, -7.181536135519218e-17,
  1.3252366431597413, -2.858731210038835e-17,
  1.339667524053303, 8.927282594831516e-17,
  1.3542555469368927, 7.700948379803028e-17,
  1.3690024229745905, 9.593797919118234e-17,
  1.383909881963832, -6.77051165879497e-17,
  1.3989796725383112, -9.614213209051444e-17,
  1.4142135623730951, -9.667293313452842e-17,
  1.42961333839197, -1.2031642489056449e-17,
  1.4451808069770467, -3.023758134994053e-17,
  1.460917794180647, -5.600377186075335e-17,
  1.4768261459394993, -3.483994556892954e-17,
  1.4929077282912648, 1.4192920154283352e-17,
  1.5091644275934228, -1.016455327754301e-16,
  1.5255981507445384, -1.1024941712342731e-16,
  1.5422108254079407, 7.949834809697763e-17,
  1.559004400237837, 3.781207053357653e-17,
  1.5759808451078865, -1.0136916471281786e-17,
  1.593142151342267, -1.0094406542312423e-16,
  1.6104903319492543, 2.470719256979656e-17,
  1.6280274218573478, -6.712955084707056e-17,
  1.645755478153965, -1.0125679913675486e-16,
  1.6636765803267364, 5.89099269671303e-17,
  1.681792830507429, 8.199010020581291e-17,
  1.7001063537185235, -8.023719370399907e-18,
  1.718619298122478, -1.8513804182635563e-17,
  1.7373338352737062, 3.1643892992922346e-17,
  1.7562521603732995, 2.960140695448943e-17,
  1.7753764925265212, 6.4297317965563e-17,
  1.7947090750031072, 1.8227458427906284e-17,
  1.8142521755003989, -9.969531538920176e-17,
  1.8340080864093424, 3.2831072242457314e-17,
  1.8539791250833855, 9.761887490727304e-17,
  1.8741676341103, -6.122763413004838e-17,
  1.8945759815869656, 3.4034035352161654e-17,
  1.9152065613971474, -1.0619946056195892e-16,
  1.9360617934922943, 1.0332385960676289e-16,
  1.9571441241754002, 8.960767791036329e-17,
  1.978456026387951, 4.038875310927606e-17,
);

/** {@link buildLogTable}'s result (exported for the test that checks it). */
export const LOG_TABLE = Float64Array.of(
  -0.6931471805599453, -2.3190468138462996e-17,
  -0.6623755218931916, -2.21472949355624e-17,
  -0.6325225587435105, 2.1085297878853066e-17,
  -0.6035350218702582, 2.6893870159130116e-17,
  -0.5753641449035618, -5.2143212328851273e-17,
  -0.5479651707154474, -4.2703624971069435e-17,
  -0.5212969236332861, -2.921292195947437e-17,
  -0.4953214372300254, -1.0369273765482852e-17,
  -0.4700036292457356, 2.3229412495470032e-17,
  -0.44531101665536404, -7.867102101536605e-18,
  -0.42121346507630353, -2.2407148500765553e-17,
  -0.39768296766610944, 1.0674574488734935e-17,
  -0.3746934494414107, 3.924311228863237e-18,
  -0.3522205935893521, -5.7233316949182454e-18,
  -0.33024168687057687, 1.0828321637483858e-17,
  -0.3087354816496133, 1.6199186085148108e-17,
  -0.2876820724517809, -2.6071606164425637e-17,
  -0.26706278524904525, 7.328915327320168e-18,
  -0.24686007793152578, -1.3617433717483679e-17,
  -0.22705745063534608, -9.551415762738488e-18,
  -0.2076393647782445, -1.205324321668613e-17,
  -0.18859116980755003, 7.432164219196927e-18,
  -0.16989903679539747, 4.868008764439064e-19,
  -0.15154989812720093, -5.166959368461559e-18,
  -0.13353139262452263, 3.664457663660085e-18,
  -0.1158318155251217, -4.338484369808095e-18,
  -0.09844007281325252, 4.439009633675135e-18,
  -0.0813456394539524, -5.07707635593117e-18,
  -0.06453852113757118, 6.4704866616929345e-18,
  -0.048009219186360606, -1.439090334729221e-18,
  -0.0317486983145803, -3.0382263084680858e-18,
  -0.015748356968139168, -1.0021578630528974e-18,
  0, 0,
  0.015504186535965254, -3.2783210228924286e-19,
  0.030771658666753687, 1.0431732029005968e-18,
  0.0458095360312942, 1.902959866474257e-18,
  0.06062462181643484, 2.642402593872693e-18,
  0.07522342123758753, -5.9306041962932415e-18,
  0.08961215868968714, -5.426812933664715e-18,
  0.10379679368164356, 5.477724157266589e-18,
  0.11778303565638346, -1.1971685747593673e-18,
  0.13157635778871926, 1.1123000879729588e-17,
  0.1451820098444979, 8.242418783022474e-18,
  0.15860503017663857, 1.1257003872182592e-17,
  0.17185025692665923, -6.022453821011372e-18,
  0.184922338494012, 3.0236614153574033e-18,
  0.19782574332991987, 1.2821194372980143e-17,
  0.21056476910734964, -4.249405314729895e-18,
  0.22314355131420976, -9.091270597324799e-18,
  0.2355660713127669, -2.3943371495187378e-18,
  0.24783616390458127, -1.2432209578702523e-17,
  0.25995752443692605, 2.0698069389789353e-17,
  0.27193371548364176, 7.833196376974429e-19,
  0.2837681731306446, -2.0326655811266564e-17,
  0.2954642128938359, -2.1646108604059897e-17,
  0.3070250352949119, -1.2319916200101964e-17,
  0.3184537311185346, 2.7114779367326233e-17,
  0.329753286372468, 2.122020616196948e-18,
  0.3409265869705932, 1.746713644354475e-17,
  0.3519764231571782, -1.2953893030191958e-17,
  0.3629054936893685, -2.1492361455310972e-17,
  0.37371640979358406, 2.183621128119818e-17,
  0.38441169891033206, -1.6121497007646723e-17,
  0.394993808240869, -1.511372441833617e-17,
  0.4054651081081644, -2.881138025962641e-18,
);

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
  const table = EXP2_TABLE;
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
  const table = LOG_TABLE;
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
  const table = EXP2_TABLE;
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
  const table = LOG_TABLE;
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

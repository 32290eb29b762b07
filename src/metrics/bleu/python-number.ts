/**
 * Python number semantics that NLTK's BLEU smoothing depends on, so that Palette's `nltk` flavor produces the
 * same doubles: `int`, `fractions.Fraction` (exact rationals, converted to float only by `float()`/`math.log`)
 * and `float`, mixed by Python's rules (int ∘ int stays int except `/`, which is correctly rounded true division;
 * Fraction ∘ int/Fraction stays exact; anything ∘ float converts both sides to float first), plus `math.fsum`.
 *
 * Only the operations NLTK's `SmoothingFunction` uses are here. Exact values use `bigint`: NLTK's method 5 and 6
 * chain sums and quotients of corpus-sized fractions whose numerators and denominators exceed 2^53.
 */

/** A Python number: `int`, `Fraction` or `float`. */
export type PyNumber =
  | { readonly kind: 'int'; readonly n: bigint }
  | { readonly kind: 'fraction'; readonly n: bigint; readonly d: bigint }
  | { readonly kind: 'float'; readonly v: number };

/** Python `int`. */
export function pyInt(n: number | bigint): PyNumber {
  return { kind: 'int', n: BigInt(n) };
}

/** Python `float`. */
export function pyFloat(v: number): PyNumber {
  return { kind: 'float', v };
}

/**
 * `Fraction(n, d, _normalize=False)`: kept as given, so `numerator`/`denominator` read back the raw values, as
 * NLTK's smoothing methods read them.
 */
export function pyFraction(n: number | bigint, d: number | bigint): PyNumber {
  const den = BigInt(d);
  if (den === 0n) throw new RangeError('Fraction(…, 0): zero denominator');
  return { kind: 'fraction', n: BigInt(n), d: den };
}

function gcd(a: bigint, b: bigint): bigint {
  a = a < 0n ? -a : a;
  b = b < 0n ? -b : b;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/** A normalized Fraction (what Python's Fraction arithmetic returns). */
function fraction(n: bigint, d: bigint): PyNumber {
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const g = gcd(n, d);
  return g > 1n ? { kind: 'fraction', n: n / g, d: d / g } : { kind: 'fraction', n, d };
}

function bitLength(x: bigint): number {
  return x === 0n ? 0 : x.toString(2).length;
}

const TWO_53 = 2n ** 53n;

/**
 * `n / d` correctly rounded to the nearest double, ties to even: Python's `int / int` and `float(Fraction)`.
 * Exact for any size of `n` and `d` with a result in the normal double range.
 */
export function ratioToDouble(n: bigint, d: bigint): number {
  if (d === 0n) throw new RangeError('division by zero');
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  if (n === 0n) return 0;
  const negative = n < 0n;
  if (negative) n = -n;
  // Both exactly representable: IEEE division is correctly rounded already.
  if (n <= TWO_53 && d <= TWO_53) return (negative ? -1 : 1) * (Number(n) / Number(d));
  // Scale so the integer quotient carries 55–56 bits, round to 53 with the remainder as sticky bit.
  const shift = 55 - (bitLength(n) - bitLength(d));
  const num = shift >= 0 ? n << BigInt(shift) : n;
  const den = shift >= 0 ? d : d << BigInt(-shift);
  const q = num / den;
  const sticky = num % den !== 0n;
  const extra = bitLength(q) - 53;
  let mant = q >> BigInt(extra);
  const low = q & ((1n << BigInt(extra)) - 1n);
  const half = 1n << BigInt(extra - 1);
  if (low > half || (low === half && (sticky || (mant & 1n) === 1n))) mant += 1n;
  const exponent = extra - shift;
  // Two steps keep each power of two representable; the product is exact in the normal range.
  const e1 = Math.trunc(exponent / 2);
  return (negative ? -1 : 1) * Number(mant) * 2 ** e1 * 2 ** (exponent - e1);
}

/** Python `float(x)`. */
export function toFloat(x: PyNumber): number {
  switch (x.kind) {
    case 'float':
      return x.v;
    case 'int':
      return ratioToDouble(x.n, 1n);
    case 'fraction':
      return ratioToDouble(x.n, x.d);
  }
}

/** Exact (numerator, denominator) of an int or Fraction. */
function exact(x: PyNumber): [bigint, bigint] {
  if (x.kind === 'int') return [x.n, 1n];
  if (x.kind === 'fraction') return [x.n, x.d];
  throw new TypeError('not an exact number');
}

/** Python `a + b`. */
export function pyAdd(a: PyNumber, b: PyNumber): PyNumber {
  if (a.kind === 'float' || b.kind === 'float') return pyFloat(toFloat(a) + toFloat(b));
  if (a.kind === 'int' && b.kind === 'int') return pyInt(a.n + b.n);
  const [an, ad] = exact(a);
  const [bn, bd] = exact(b);
  return fraction(an * bd + bn * ad, ad * bd);
}

/** Python `a * b`. */
export function pyMul(a: PyNumber, b: PyNumber): PyNumber {
  if (a.kind === 'float' || b.kind === 'float') return pyFloat(toFloat(a) * toFloat(b));
  if (a.kind === 'int' && b.kind === 'int') return pyInt(a.n * b.n);
  const [an, ad] = exact(a);
  const [bn, bd] = exact(b);
  return fraction(an * bn, ad * bd);
}

/** Python `a / b` (true division: int / int is a correctly rounded float). */
export function pyDiv(a: PyNumber, b: PyNumber): PyNumber {
  if (a.kind === 'float' || b.kind === 'float') return pyFloat(toFloat(a) / toFloat(b));
  const [an, ad] = exact(a);
  const [bn, bd] = exact(b);
  if (bn === 0n) throw new RangeError('division by zero');
  if (a.kind === 'int' && b.kind === 'int') return pyFloat(ratioToDouble(an, bn));
  return fraction(an * bd, ad * bn);
}

/** Python `a ** 2`. */
export function pySquare(a: PyNumber): PyNumber {
  return pyMul(a, a);
}

/** Python `a == 0` (also the falsiness test `not a`). */
export function pyIsZero(a: PyNumber): boolean {
  return a.kind === 'float' ? a.v === 0 : a.n === 0n;
}

/** Python `a > 0`. */
export function pyIsPositive(a: PyNumber): boolean {
  if (a.kind === 'float') return a.v > 0;
  if (a.kind === 'int') return a.n > 0n;
  return a.d > 0n ? a.n > 0n : a.n < 0n;
}

/**
 * Python's `math.fsum`: the correctly rounded sum of the values (Shewchuk's exact partials, then a final
 * round-half-even correction), independent of order.
 */
export function fsum(values: Iterable<number>): number {
  const partials: number[] = [];
  for (let x of values) {
    let i = 0;
    for (let j = 0; j < partials.length; j++) {
      let y = partials[j];
      if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) partials[i++] = lo;
      x = hi;
    }
    partials.length = i;
    partials.push(x);
  }
  let n = partials.length;
  if (n === 0) return 0;
  let hi = partials[--n];
  let lo = 0;
  while (n > 0) {
    const x = hi;
    const y = partials[--n];
    hi = x + y;
    const yr = hi - x;
    lo = y - yr;
    if (lo !== 0) break;
  }
  // Round half to even when the rest of the partials push a halfway lo over the edge.
  if (n > 0 && ((lo < 0 && partials[n - 1] < 0) || (lo > 0 && partials[n - 1] > 0))) {
    const y = lo * 2;
    const x = hi + y;
    const yr = x - hi;
    if (y === yr) hi = x;
  }
  return hi;
}

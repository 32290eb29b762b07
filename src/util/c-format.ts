/**
 * C's `%g` conversion as glibc prints it, which is also what a C++ `ostream` writes for a `float` or `double` with its
 * default flags (precision 6): Moses MERT's statistics and feature files hold numbers written that way.
 *
 * `%.Pg` rounds to P significant digits; with X the decimal exponent of the rounded value, it is written as `%f`
 * when -4 <= X < P and as `%e` otherwise (exponent with a sign and at least two digits), trailing zeros of the
 * fraction and a trailing point removed. glibc rounds the exact binary value, ties to even. JavaScript's
 * `toExponential` rounds the exact value too but breaks ties upwards, so an exact tie (a value whose decimal
 * expansion ends in a single 5 right after the last kept digit, as 1234565 or 12345.25 at six digits) is rounded
 * here to even by hand. Infinities and NaNs are written `inf`, `-inf`, `nan` (glibc writes `-nan` for a NaN with
 * its sign bit set, which JavaScript cannot observe; such a NaN is written `nan`).
 */

/** Whether the exact decimal expansion of finite `a > 0` has the digit 5 at significant position `p + 1` and nothing after it. */
function exactTie(a: number, p: number): boolean {
  // A cheap necessary condition first (the exact expansion below costs ~20 times a toExponential): a tie's value has
  // exactly p + 1 significant digits, so rounded to p + 1 digits it ends in 5 and reads back as itself.
  const rounded = a.toExponential(p);
  if (rounded.charCodeAt(rounded.indexOf('e') - 1) !== 0x35 || Number(rounded) !== a) return false;
  // toPrecision(100) gives the exact expansion of every double from about 1e-250 upwards (at most 100 significant
  // digits are needed for a binary fraction of that size to end); smaller values never tie at six digits.
  const digits = a.toPrecision(100).replace(/e.*$/, '').replace('.', '').replace(/^0+/, '');
  if (digits[p] !== '5') return false;
  for (let i = p + 1; i < digits.length; i++) if (digits[i] !== '0') return false;
  return true;
}

/** Mantissa digits (`p` of them, no point) and decimal exponent of `a > 0` rounded to `p` significant digits, ties to even. */
function roundedDigits(a: number, p: number): { digits: string; exponent: number } {
  const [mantissa, exp] = a.toExponential(p - 1).split('e');
  let digits = mantissa.replace('.', '');
  const last = digits.charCodeAt(p - 1) - 0x30;
  // On a tie toExponential took the upper neighbour; glibc takes the even one. An odd last digit means the lower
  // neighbour was even (and, being at most 8, had no carry into the other digits): one unit less. An even last
  // digit (0 after a carry included) is already the even neighbour.
  if (last % 2 === 1 && exactTie(a, p)) digits = digits.slice(0, p - 1) + String(last - 1);
  return { digits, exponent: Number(exp) };
}

/**
 * `x` as C's `printf("%.Pg", x)` writes it (glibc; see the file comment). `precision` 0 is taken as 1, as in C.
 */
export function cFormatG(x: number, precision = 6): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  const p = Math.max(1, Math.floor(precision));
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  const a = Math.abs(x);
  if (a === 0) return `${sign}0`;
  const { digits, exponent } = roundedDigits(a, p);
  if (exponent < -4 || exponent >= p) {
    const fraction = digits.slice(1).replace(/0+$/, '');
    const e = Math.abs(exponent);
    return `${sign}${digits[0]}${fraction === '' ? '' : `.${fraction}`}e${exponent < 0 ? '-' : '+'}${e < 10 ? `0${e}` : e}`;
  }
  let text: string;
  if (exponent >= 0) {
    const whole = digits.slice(0, exponent + 1);
    const fraction = digits.slice(exponent + 1).replace(/0+$/, '');
    text = fraction === '' ? whole : `${whole}.${fraction}`;
  } else {
    const fraction = `${'0'.repeat(-exponent - 1)}${digits}`.replace(/0+$/, '');
    text = `0.${fraction}`;
  }
  return sign + text;
}

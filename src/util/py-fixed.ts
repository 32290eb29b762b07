/**
 * Fixed-point text of a double as Python's `format(x, '.Nf')` and C's `printf("%.Nf", x)` write it — the one
 * formatter every printed number of Palette goes through (sacrebleu's verbose strings and CLI, mteval's NIST
 * figures, ROUGE-1.5.5's `%7.5f`).
 *
 * Python and C round the exact binary value, exact ties to even; JavaScript's `toFixed` rounds exact ties away
 * from zero. Ties are rare but real: a BLEU precision of exactly 6.25 (100·1/16) prints `6.2` in sacrebleu and
 * `6.3` with `toFixed(1)`; a NIST n-gram score of 1/32 prints `0.0312` in mteval and `0.0313` with `toFixed(4)`.
 */

/**
 * Python's `format(x, '.{digits}f')` (= C `printf("%.{digits}f", x)` for finite values): fixed-point with
 * `digits` decimals, exact ties rounded to even. `-0.0` keeps its sign, as in Python and C; non-finite values
 * print `inf`, `-inf`, `nan` (Python's spelling).
 * @param digits decimals (0..70; the CLI prints at most 16)
 */
export function pyFixed(x: number, digits: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const sign = x < 0 || Object.is(x, -0) ? '-' : '';
  const a = Math.abs(x);
  if (a >= 1e21) {
    // toFixed switches to exponent notation here; such doubles are integers, so BigInt prints them exactly.
    return sign + BigInt(a).toString() + (digits > 0 ? '.' + '0'.repeat(digits) : '');
  }
  const rounded = a.toFixed(digits);
  // An exact tie has a decimal expansion that ends with a 5 right after the kept digits. 30 extra digits are
  // enough to see that: a double that is not a tie differs from one far earlier than 30 digits down.
  const extra = 30;
  const longer = a.toFixed(Math.min(100, digits + extra));
  const tail = longer.slice(longer.length - extra);
  if (tail.charCodeAt(0) !== 53 /* '5' */ || !/^50*$/.test(tail)) return sign + rounded;
  let truncated = longer.slice(0, longer.length - extra);
  if (truncated.endsWith('.')) truncated = truncated.slice(0, -1);
  const lastDigit = truncated.charCodeAt(truncated.length - 1) - 48;
  // toFixed rounded the tie up; keep the truncated value when that ends in an even digit.
  return sign + (lastDigit % 2 === 0 ? truncated : rounded);
}

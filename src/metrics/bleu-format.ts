/**
 * Text forms of BLEU numbers exactly as sacrebleu prints them (Python's `format` spec `.Nf`).
 *
 * Python's `f'{x:.1f}'` rounds the exact binary value half-to-even; JavaScript's `toFixed` rounds exact ties away
 * from zero. Ties are rare but real for BLEU: a precision of exactly 6.25 (100·1/16) prints `6.2` in sacrebleu and
 * `6.3` with `toFixed(1)`.
 */

/**
 * Python's `format(x, '.{digits}f')`: fixed-point with `digits` decimals, exact ties rounded to even.
 * `-0.0` keeps its sign, as in Python; non-finite values print `inf`, `-inf`, `nan`.
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

/**
 * sacrebleu's verbose BLEU string:
 * `58.6/31.9/19.6/12.9 (BP = 1.000 ratio = 1.020 hyp_len = 62496 ref_len = 61287)`.
 * Lengths print as JavaScript numbers (integers as sacrebleu's `%d`; a fractional `average` reference length,
 * which sacrebleu cannot produce, prints in full).
 * @param precisions n-gram precisions on the 0–100 scale.
 */
export function formatBleuVerbose(
  precisions: ArrayLike<number>,
  bp: number,
  ratio: number,
  sysLen: number,
  refLen: number,
): string {
  const prec: string[] = [];
  for (let i = 0; i < precisions.length; i++) prec.push(pyFixed(precisions[i], 1));
  return (
    `${prec.join('/')} (BP = ${pyFixed(bp, 3)} ratio = ${pyFixed(ratio, 3)} ` +
    `hyp_len = ${sysLen} ref_len = ${refLen})`
  );
}

/**
 * Numbers as ROUGE-1.5.5.pl turns them into text. Its scores go through `sprintf("%7.5f", x)` (C's `printf`:
 * the exact binary value rounded to 5 decimals, exact ties to even) and are then used again as numbers, so the
 * string is part of the arithmetic, not only of the output. Counts it prints bare (`-t 1`/`-t 2`) use Perl's
 * default number format, `%.15g`.
 */
import { pyFixed } from '../../util/py-fixed.js';

/**
 * `sprintf("%7.5f", x)` for the non-negative scores ROUGE-1.5.5 formats (`0.09523`): 5 decimals, exact ties to
 * even. Python's `'%.5f'` rounds the same way as C's `printf`, so sacrebleu's formatter serves both.
 */
export function perlFixed5(x: number): string {
  // `toFixed` is correctly rounded except on exact ties (it rounds them up); only values whose scaled fraction is
  // near one half need the exact test, which is slow. From 2⁵² on the scaled value has no fraction bits left to
  // show a tie (x·10⁵ = 4503599627376562.5 reads as ...562), so those go the exact way too.
  const scaled = x * 1e5;
  const fraction = scaled - Math.floor(scaled);
  if (x >= 0 && scaled < 4503599627370496 && Math.abs(fraction - 0.5) > 1e-6) return x.toFixed(5).padStart(7, ' ');
  const s = pyFixed(x, 5);
  // `%7.5f` pads to 7 characters; only a negative or non-finite value could be shorter.
  return s.length >= 7 ? s : s.padStart(7, ' ');
}

/** The value ROUGE-1.5.5 goes on computing with after `sprintf("%7.5f", x)`: x rounded to 5 decimals. */
export function perlRound5(x: number): number {
  return Number(perlFixed5(x));
}

/**
 * Perl's default stringification of a number (`%.15g`): at most 15 significant digits, trailing zeros dropped,
 * exponent form (`1.5e-05`, `1e+15`) below 1e-4 and from 1e15 on. Integers print without a decimal point.
 * Exact decimal ties at the 16th digit round up here (C rounds them to even); no ROUGE count is such a tie in
 * practice (it would need a double with exactly 16 significant decimal digits, the last a 5).
 */
export function perlNumber(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (!Number.isFinite(x)) return x > 0 ? 'Inf' : '-Inf';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const exp = x.toExponential(14); // d.dddddddddddddde±N, 15 significant digits
  const at = exp.indexOf('e');
  const e = Number(exp.slice(at + 1));
  if (e < -4 || e >= 15) {
    const mantissa = stripZeros(exp.slice(0, at));
    const abs = Math.abs(e);
    return `${mantissa}e${e < 0 ? '-' : '+'}${abs < 10 ? '0' : ''}${abs}`;
  }
  return stripZeros(Number(exp).toFixed(14 - e));
}

/** Drops trailing zeros after a decimal point, and the point itself when nothing follows it. */
function stripZeros(s: string): string {
  if (!s.includes('.')) return s;
  let end = s.length;
  while (s.charCodeAt(end - 1) === 48) end--;
  if (s.charCodeAt(end - 1) === 46) end--;
  return s.slice(0, end);
}

/**
 * ROUGE-1.5.5's `%7.5f` rounding of a score as a number, without building the string: the hot form of
 * `Number(perlFixed5(x))` for the rows computed once per candidate of an n-best list.
 */
import { perlFixed5 } from '../rouge155/perl-format.js';

/**
 * `Number(perlFixed5(x))`, ROUGE-1.5.5's `%7.5f` rounding, without the string for scores in [0, 2): away from an
 * exact-half tie, the rounded integer of x·10⁵ is found from the double product (its error is far below the 10⁻⁶
 * margin), and dividing that integer by 10⁵ is correctly rounded, i.e. the double nearest the 5-decimal string.
 * Near a tie, and outside [0, 2), it defers to {@link perlFixed5}.
 */
export function perlRound5Fast(x: number): number {
  if (x >= 0 && x < 2) {
    const scaled = x * 1e5;
    const floor = Math.floor(scaled);
    const fraction = scaled - floor;
    if (Math.abs(fraction - 0.5) > 1e-6) return (fraction > 0.5 ? floor + 1 : floor) / 1e5;
  }
  return Number(perlFixed5(x));
}

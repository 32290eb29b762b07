/**
 * ROUGE-1.5.5's `%7.5f` rounding of a score as a number, without building the string: the hot form of
 * `Number(perlFixed5(x))` for the rows computed once per candidate of an n-best list.
 */
import { perlFixed5 } from '../rouge155/perl-format.js';

/**
 * `Number(perlFixed5(x))`, ROUGE-1.5.5's `%7.5f` rounding, without the string for scores in [0, 2): away from an
 * exact-half tie, the rounded integer of x·10⁵ is found from the double product (its error is far below the 10⁻⁶
 * margin), and dividing that integer by 10⁵ is correctly rounded, i.e. the double nearest the 5-decimal string.
 * Near a tie: a double is exactly halfway between two 5-decimal numbers only when it is an odd multiple of 1/64
 * (x = (2k + 1)/(2·10⁵) = (2k + 1)/(2⁶·5⁵) is a binary fraction only when 5⁵ divides 2k + 1), which is rounded to
 * even here; any other double near a tie is not one, and `toFixed` (correctly rounded but for ties) rounds it.
 * Outside [0, 2) it defers to {@link perlFixed5}.
 */
export function perlRound5Fast(x: number): number {
  if (x >= 0 && x < 2) {
    const scaled = x * 1e5;
    const floor = Math.floor(scaled);
    const fraction = scaled - floor;
    if (Math.abs(fraction - 0.5) > 1e-6) return (fraction > 0.5 ? floor + 1 : floor) / 1e5;
    const q = x * 64;
    if (Number.isInteger(q) && q % 2 === 1) {
      // x·10⁵ = 1562.5·q = k + 1/2 with k = 1562·q + (q − 1)/2; ties go to the even neighbour.
      const k = 1562 * q + (q - 1) / 2;
      return (k % 2 === 0 ? k : k + 1) / 1e5;
    }
    return Number(x.toFixed(5));
  }
  return Number(perlFixed5(x));
}

/**
 * Where the NIST oracles give no number: mteval-v13a.pl dies ("Illegal division by zero") on references without
 * words, NLTK 3.8 raises ZeroDivisionError when some order has no hypothesis n-gram in what it scores or when the
 * references are empty. {@link Nist} reports these as NaN, or, when asked (the CLI does), as a
 * {@link NistOracleError} that says why.
 */
import { InputError } from '../../errors.js';
import type { NistFlavor } from './flavor.js';

/** The oracle fails on this input; `code` is `E_BAD_INPUT` (the CLI exits with status 2). */
export class NistOracleError extends InputError {
  /** Whose failure is reproduced. */
  readonly flavor: NistFlavor;
  /** Why, in words (without the oracle's name). */
  readonly reason: string;

  constructor(flavor: NistFlavor, reason: string) {
    const oracle =
      flavor === 'nltk' ? 'NLTK NIST raises ZeroDivisionError' : 'mteval-v13a NIST dies (Illegal division by zero)';
    super('E_BAD_INPUT', `${oracle}: ${reason}`);
    this.name = 'NistOracleError';
    this.flavor = flavor;
    this.reason = reason;
  }
}

/**
 * The reason the oracle fails on a statistics row (one segment, or column sums), or `undefined` when it gives a
 * number. Row layouts: mteval.ts and nltk.ts.
 * @param sentence whether the row is scored as a sentence (`sentence_nist`) rather than a corpus
 */
export function nistFailure(
  flavor: NistFlavor,
  stats: ArrayLike<number>,
  maxOrder: number,
  sentence: boolean,
): string | undefined {
  const where = sentence ? 'this segment' : 'the whole corpus';
  if (flavor === 'mteval') {
    return stats[2] > 0 ? undefined : `the references of ${where} have no words`;
  }
  for (let n = 1; n <= maxOrder; n++) {
    if (stats[n] === 0) {
      const short = sentence ? ` (the hypothesis has fewer than ${n} words)` : '';
      return `no hypothesis ${n}-gram in ${where}${short}`;
    }
  }
  const refLens = sentence ? 1 + 4 * maxOrder : 1 + 2 * maxOrder;
  let refWords = 0;
  for (let n = 0; n < maxOrder; n++) refWords += stats[refLens + n];
  return refWords === 0 ? `the references of ${where} have no words` : undefined;
}

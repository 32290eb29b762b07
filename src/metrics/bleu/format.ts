/**
 * Text forms of BLEU numbers exactly as sacrebleu prints them. The digits come from the shared formatter
 * (src/util/py-fixed.ts: Python's `.Nf`, exact ties to even).
 */
import { pyFixed } from '../../util/py-fixed.js';

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

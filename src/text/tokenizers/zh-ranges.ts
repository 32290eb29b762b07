/**
 * The "Chinese character" ranges of sacrebleu's `zh` tokenizer, as sacrebleu applies them and as intended.
 *
 * sacrebleu writes the two supplementary-plane ranges as `'\u20000'`–`'\u2a6d6'` and `'\u2f800'`–`'\u2fa1d'`;
 * Python reads each as a BMP character followed by a digit, and the lexicographic test `start <= c <= end`
 * on a one-character `c` then holds for U+2001–U+2A6D and U+2F81–U+2FA1. U+2000 fails (it is a proper
 * prefix of `'\u20000'`, hence smaller) and Extension B itself (U+20000+) compares greater than `'\u2a6d'`.
 */

/** Inclusive [start, end] pairs shared by both tables (the BMP entries of sacrebleu's list, in its order). */
const COMMON: readonly number[] = [
  0x3400, 0x4db5, // CJK Unified Ideographs Extension A
  0x4e00, 0x9fa5, // CJK Unified Ideographs
  0x9fa6, 0x9fbb, // CJK Unified Ideographs (Unicode 4.1 additions)
  0xf900, 0xfa2d, // CJK Compatibility Ideographs
  0xfa30, 0xfa6a,
  0xfa70, 0xfad9,
  0xff00, 0xffef, // half-width and full-width forms
  0x2e80, 0x2eff, // CJK Radicals Supplement
  0x3000, 0x303f, // CJK Symbols and Punctuation
  0x31c0, 0x31ef, // CJK Strokes
  0x2f00, 0x2fdf, // Kangxi Radicals
  0x2ff0, 0x2fff, // Ideographic Description Characters
  0x3100, 0x312f, // Bopomofo
  0x31a0, 0x31bf, // Bopomofo Extended
  0xfe10, 0xfe1f, // Vertical Forms
  0xfe30, 0xfe4f, // CJK Compatibility Forms
  0x2600, 0x26ff, // Miscellaneous Symbols
  0x2700, 0x27bf, // Dingbats
  0x3200, 0x32ff, // Enclosed CJK Letters and Months
  0x3300, 0x33ff, // CJK Compatibility
];

function inRanges(ranges: readonly number[], cp: number): boolean {
  for (let i = 0; i < ranges.length; i += 2) if (cp >= ranges[i] && cp <= ranges[i + 1]) return true;
  return false;
}

/** The ranges sacrebleu 2.6.0 effectively uses (with the mis-parsed supplementary entries). */
export const ZH_RANGES_SACREBLEU: readonly number[] = [...COMMON, 0x2001, 0x2a6d, 0x2f81, 0x2fa1];

/** The ranges sacrebleu meant: CJK Extension B and the CJK Compatibility Ideographs Supplement. */
export const ZH_RANGES_FIXED: readonly number[] = [...COMMON, 0x20000, 0x2a6d6, 0x2f800, 0x2fa1d];

// One bit per code point up to U+FFFF for the buggy table (whose ranges are all in the BMP) keeps the
// per-character test a single lookup.
const SACREBLEU_BMP = new Uint8Array(0x10000);
for (let i = 0; i < ZH_RANGES_SACREBLEU.length; i += 2) {
  SACREBLEU_BMP.fill(1, ZH_RANGES_SACREBLEU[i], ZH_RANGES_SACREBLEU[i + 1] + 1);
}

/** Whether sacrebleu 2.6.0's `zh` tokenizer treats code point `cp` as a Chinese character. */
export function isZhCharSacrebleu(cp: number): boolean {
  return cp < 0x10000 && SACREBLEU_BMP[cp] === 1;
}

/** Whether the corrected `zh` table treats code point `cp` as a Chinese character. */
export function isZhCharFixed(cp: number): boolean {
  return inRanges(ZH_RANGES_FIXED, cp);
}

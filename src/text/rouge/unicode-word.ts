/**
 * The characters the `rouge-unicode` tokenizer keeps: General_Category L (letters), M (marks) and N (numbers) of
 * Unicode 15.0.0, from a table shipped in src/resources/ (the same Unicode version as the `intl` tokenizer's
 * tables), so results never depend on the runtime's ICU.
 */
import { WORD_CHARS_15 } from '../../resources/unicode-word-15.js';
import { inRangeList, rangeListToBitmap } from '../unicode/range-list.js';

let bmp: Uint8Array | undefined;

/** Whether code point `cp` is a letter, mark or number (Unicode 15.0.0). */
export function isWordCodePoint(cp: number): boolean {
  if (cp < 0x10000) {
    bmp ??= rangeListToBitmap(WORD_CHARS_15, 0x10000);
    return bmp[cp] === 1;
  }
  return inRangeList(WORD_CHARS_15, cp);
}

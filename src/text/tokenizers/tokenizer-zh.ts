/**
 * sacrebleu's `zh` tokenizer: strip the line, put spaces around every "Chinese character", then the shared
 * regex stage (without 13a's padding, entity decoding or `<skipped>` removal).
 */
import { pyStrip } from '../pystr.js';
import { regexpPostBounds, regexpPostScan } from './regexp-post-scanner.js';
import type { TokenBounds } from './token-bounds.js';
import { isZhCharSacrebleu, isZhCharFixed } from './zh-ranges.js';

const pieces: string[] = [];

/** The stripped line with spaces around every character `isZh` accepts (the input of the regex stage). */
function spaceZh(line: string, isZh: (cp: number) => boolean): string {
  line = pyStrip(line);
  const n = line.length;
  pieces.length = 0;
  let runStart = 0;
  let i = 0;
  while (i < n) {
    let cp = line.charCodeAt(i);
    let width = 1;
    if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < n) {
      const lo = line.charCodeAt(i + 1);
      if ((lo & 0xfc00) === 0xdc00) {
        cp = ((cp - 0xd800) << 10) + (lo - 0xdc00) + 0x10000;
        width = 2;
      }
    }
    // Every range of either table starts at or above U+2001, so ASCII and most Latin text skip the lookup.
    if (cp >= 0x2001 && isZh(cp)) {
      pieces.push(line.slice(runStart, i), ' ', line.slice(i, i + width), ' ');
      runStart = i + width;
    }
    i += width;
  }
  if (runStart === 0) return line;
  pieces.push(line.slice(runStart));
  return pieces.join('');
}

/**
 * The `zh` tokenizer exactly as sacrebleu 2.6.0 behaves, including its range-table bug (U+2001–U+2A6D count as
 * Chinese, U+2000 and CJK Extension B do not).
 */
export function tokenizeZh(line: string): string {
  return regexpPostScan(spaceZh(line, isZhCharSacrebleu), false);
}

/** The `zh` tokenizer with the range table sacrebleu intended (Extension B and the compatibility supplement). */
export function tokenizeZhFixed(line: string): string {
  return regexpPostScan(spaceZh(line, isZhCharFixed), false);
}

/** The `zh` tokenizer in scanner form (see `TokenScanner`): bounds into the stripped, spaced line. */
export function scanZh(line: string, out: TokenBounds): string {
  const source = spaceZh(line, isZhCharSacrebleu);
  regexpPostBounds(source, false, out);
  return source;
}

/** The `zh-fixed` tokenizer in scanner form (see `TokenScanner`). */
export function scanZhFixed(line: string, out: TokenBounds): string {
  const source = spaceZh(line, isZhCharFixed);
  regexpPostBounds(source, false, out);
  return source;
}

/**
 * Moses `extractor`'s FEATURES_TXT file (mert/FeatureArray.cpp, FeatureStats.cpp, Data.cpp): one block per
 * sentence, in the order and with the candidates of its SCORES_TXT block,
 *
 *     FEATURES_TXT_BEGIN_0 <sentence> <candidates> <feature count> <feature names>
 *     <value> <value> … (one line per candidate, every value followed by one space)
 *     FEATURES_TXT_END_0
 *
 * - Names come from the features field of the list's first line (`Data::InitFeatureMap`): a token ending in `=` is
 *   a label (`lm=`), each value after it is named `label_i` (`lm_0`, `tm_0 … tm_4`), every name followed by one
 *   space; a label holding `_` names a sparse feature (`name_x= 1`), which is skipped with its value.
 * - Values are the dense values of the field, read as C's `atof` reads them, stored in single precision and written
 *   as a C++ stream writes a float (`%g`: ../../util/c-format.ts), then the sparse features as `name=value` (only
 *   those of magnitude ≥ 1e-5, as Moses writes them).
 * - Tokens are separated by ASCII spaces only, as Moses' `getNextPound` splits them.
 *
 * Where this differs from Moses, on purpose or by construction: sparse features are written in the order of their
 * line (Moses orders them by the first time the whole process met each name, which a run cut into parallel tasks
 * cannot know), and a sparse feature read back from a previous FEATURES_TXT file keeps its `=` (Moses drops it,
 * writing `name0.5`, which its next run reads as a dense value).
 */
import { cFormatG } from '../../util/c-format.js';
import type { ByteOut } from './byte-out.js';

/** What a block header says about features: their count and the names (each followed by one space). */
export interface FeaturesTxtHeader {
  readonly count: number;
  readonly names: string;
}

/** The tokens of a field as Moses' `getNextPound` gives them: split on ASCII spaces, empty tokens dropped. */
function spaceTokens(field: string): string[] {
  const tokens = field.split(' ');
  let n = 0;
  for (const t of tokens) if (t !== '') tokens[n++] = t;
  tokens.length = n;
  return tokens;
}

/** Whether a token is a name (Moses' `EndsWith(token, "=")`). */
function isName(token: string): boolean {
  return token.charCodeAt(token.length - 1) === 0x3d;
}

/** The header of a features field's names (`Data::InitFeatureMap`; see the file comment). */
export function featuresTxtHeader(field: string): FeaturesTxtHeader {
  const tokens = spaceTokens(field);
  let names = '';
  let count = 0;
  let label = '';
  let index = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (!isName(t)) {
      names += `${label}_${index} `;
      index++;
      count++;
    } else if (t.includes('_')) {
      i++;
    } else {
      label = t.slice(0, -1);
      index = 0;
    }
  }
  return { count, names };
}

/** The header of a names text read from a FEATURES_TXT block (its count: the names, as Moses' `setFeatureMap` counts them). */
export function featuresTxtHeaderOfNames(names: string): FeaturesTxtHeader {
  return { count: spaceTokens(names).length, names };
}

const ATOF = /^[ \t\n\v\f\r]*([+-]?(?:\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|inf(?:inity)?|nan))/i;
const HEX = /^[ \t\n\v\f\r]*([+-]?)0x([0-9a-f]+\.?[0-9a-f]*|\.[0-9a-f]+)(?:p([+-]?\d+))?/i;

/** C's `atof`: the longest leading number (after blanks; decimal, hexadecimal, inf, nan), 0 when there is none. */
export function cAtof(s: string): number {
  const hex = HEX.exec(s);
  if (hex !== null) {
    const [whole, fraction = ''] = hex[2].split('.');
    let v = 0;
    for (const c of whole + fraction) v = v * 16 + parseInt(c, 16);
    const value = v * 2 ** (Number(hex[3] ?? 0) - 4 * fraction.length);
    return hex[1] === '-' ? -value : value;
  }
  const m = ATOF.exec(s);
  if (m === null) return 0;
  const t = m[1].toLowerCase();
  if (t.endsWith('nan')) return NaN;
  if (t.includes('inf')) return t.startsWith('-') ? -Infinity : Infinity;
  return Number(m[1]);
}

/**
 * Where `%g` of the single-precision value of decimal `t[from, to)` is that text itself up to the returned index
 * (the text without the trailing zeros of its fraction, and without its point when nothing is left after it), or -1
 * when it is not: the text must be an optional minus, then digits with at most six significant ones once those
 * zeros are gone, no leading zero, and a value of 1e-4 or more (or 0). Rounding such a decimal to single precision
 * moves it by under 6e-8 of itself, far less than half a unit of its sixth digit, so six digits give it back. Most
 * feature values of a Moses list are of this form, and they are copied without a parse.
 */
function selfPrintEnd(t: string, from: number, to: number): number {
  let i = t.charCodeAt(from) === 0x2d ? from + 1 : from;
  const intStart = i;
  while (i < to && t.charCodeAt(i) >= 0x30 && t.charCodeAt(i) <= 0x39) i++;
  const intDigits = i - intStart;
  if (intDigits === 0 || (intDigits > 1 && t.charCodeAt(intStart) === 0x30)) return -1;
  if (i === to) return intDigits <= 6 ? to : -1;
  if (t.charCodeAt(i) !== 0x2e) return -1;
  const point = i;
  i++;
  const fracStart = i;
  while (i < to && t.charCodeAt(i) >= 0x30 && t.charCodeAt(i) <= 0x39) i++;
  if (i !== to) return -1;
  let end = to;
  while (end > fracStart && t.charCodeAt(end - 1) === 0x30) end--;
  if (end === fracStart) return intDigits <= 6 ? point : -1;
  const fracDigits = end - fracStart;
  if (!(intDigits === 1 && t.charCodeAt(intStart) === 0x30)) return intDigits + fracDigits <= 6 ? end : -1;
  let zeros = 0;
  while (t.charCodeAt(fracStart + zeros) === 0x30) zeros++;
  return zeros <= 3 && fracDigits - zeros <= 6 ? end : -1;
}

/** `%g` of the single-precision value of token `t` read by `atof`. */
function valueText(t: string): string {
  const end = selfPrintEnd(t, 0, t.length);
  return end >= 0 ? t.slice(0, end) : cFormatG(Math.fround(cAtof(t)));
}

/** Whether a sparse value is written (Moses skips those under 1e-5 in magnitude). */
function sparseWritten(text: string): boolean {
  return !(Math.abs(Math.fround(cAtof(text))) < 0.00001);
}

/**
 * The FEATURES_TXT line of an n-best features field (`Data::AddFeatures`, then `operator<<` of FeatureStats), without
 * its newline: dense values, then sparse `name=value` pairs, each followed by one space.
 */
export function nbestFeaturesLine(field: string): string {
  const tokens = spaceTokens(field);
  let line = '';
  let sparse: Map<string, string> | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (!isName(t)) {
      line += `${valueText(t)} `;
    } else if (t.includes('_')) {
      sparse ??= new Map();
      sparse.set(t, tokens[i + 1] ?? '');
      i++;
    }
  }
  if (sparse !== undefined) {
    for (const [name, value] of sparse) if (sparseWritten(value)) line += `${name}${valueText(value)} `;
  }
  return line;
}

/**
 * Writes {@link nbestFeaturesLine} of `field` into `out` (without the newline), copying each value's text straight
 * from the field where it prints as itself: no string per value or line, which is most of the cost of a features
 * file of a large list. A field with an underscore may name sparse features and takes the general way.
 */
export function writeNbestFeaturesLine(field: string, out: ByteOut): void {
  if (field.indexOf('_') >= 0) {
    out.text(nbestFeaturesLine(field));
    return;
  }
  const n = field.length;
  let i = 0;
  while (i < n) {
    while (i < n && field.charCodeAt(i) === 0x20) i++;
    if (i === n) break;
    const start = i;
    while (i < n && field.charCodeAt(i) !== 0x20) i++;
    // A label (a sparse name holds an underscore, and this field has none).
    if (field.charCodeAt(i - 1) === 0x3d) continue;
    const end = selfPrintEnd(field, start, i);
    if (end >= 0) out.asciiRange(field, start, end);
    else out.text(cFormatG(Math.fround(cAtof(field.slice(start, i)))));
    out.byte(0x20);
  }
}

/**
 * The line of a previous FEATURES_TXT file as Moses writes it back (`FeatureStats::set`, then `operator<<`): tokens
 * without `=` are dense values, `name=value` tokens sparse features.
 */
export function featuresFileLine(text: string): string {
  let line = '';
  let sparse: Map<string, string> | undefined;
  for (const t of spaceTokens(text)) {
    const eq = t.lastIndexOf('=');
    if (eq < 0) {
      line += `${valueText(t)} `;
    } else {
      sparse ??= new Map();
      sparse.set(t.slice(0, eq + 1), t.slice(eq + 1));
    }
  }
  if (sparse !== undefined) {
    for (const [name, value] of sparse) if (sparseWritten(value)) line += `${name}${valueText(value)} `;
  }
  return line;
}

/** The number of dense values of a FEATURES_TXT line (tokens without `=`). */
export function featuresFileLineCount(text: string): number {
  let count = 0;
  for (const t of spaceTokens(text)) if (!t.includes('=')) count++;
  return count;
}

/** Writes a block's header line. */
function writeHeader(out: ByteOut, sentence: number, candidates: number, header: FeaturesTxtHeader): void {
  out.text('FEATURES_TXT_BEGIN_0 ');
  out.number(sentence);
  out.byte(0x20);
  out.number(candidates);
  out.byte(0x20);
  out.number(header.count);
  out.byte(0x20);
  out.text(header.names);
  out.byte(0x0a);
}

/**
 * Writes one sentence's FEATURES_TXT block: candidate `k` is line `rows[k]`, a line formatted before (`line`), or
 * with `fields` the raw n-best features field `fields[rows[k]]`, formatted as it is written.
 */
export function writeFeaturesBlock(
  out: ByteOut,
  sentence: number,
  header: FeaturesTxtHeader,
  rows: ArrayLike<number>,
  lines: { readonly line: (i: number) => string } | { readonly fields: readonly string[] },
): void {
  writeHeader(out, sentence, rows.length, header);
  for (let k = 0; k < rows.length; k++) {
    if ('fields' in lines) writeNbestFeaturesLine(lines.fields[rows[k]], out);
    else out.text(lines.line(rows[k]));
    out.byte(0x0a);
  }
  out.text('FEATURES_TXT_END_0\n');
}

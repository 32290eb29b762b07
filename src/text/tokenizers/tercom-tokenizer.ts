/**
 * sacreBLEU 2.6.0's `TercomTokenizer` (sacrebleu/tokenizers/tokenizer_ter.py), the tokenizer of sacreBLEU's TER,
 * reproduced step by step. It is a Python port of tercom's `Normalizer`, and it differs from tercom 0.10.0 in
 * places (the tercom flavor has its own normaliser); this one must give exactly sacreBLEU's strings.
 *
 * Each `re.sub` of the original is a single left-to-right scan here: the patterns are one- or two-character
 * matches, so Python's non-overlapping leftmost matching is a plain loop that consumes two characters on a match
 * and one otherwise. All patterns test ASCII or BMP characters, so scanning UTF-16 code units gives the same
 * result as Python's scan over code points (a surrogate is never one of the listed characters, and a match that
 * starts at an astral character in Python starts at its low surrogate here, with the same output).
 *
 * Not registered among the BLEU tokenizers (`-tok`): TER options select it.
 */
import { pyJoinSplit, pyLower } from '../pystr.js';

/** Options of {@link TercomTokenizer}, named as sacreBLEU's `TER` names them; every one defaults to `false`. */
export interface TercomTokenizerOptions {
  /** Tercom-style normalisation: join `\n-`, decode four XML entities, split ASCII punctuation. @default false */
  readonly normalized?: boolean;
  /** Remove `.,?:;!"()` (and, with `asianSupport`, CJK and full-width punctuation). @default false */
  readonly noPunct?: boolean;
  /**
   * CJK handling; only acts together with `normalized` (split ideographs and CJK punctuation into characters)
   * or `noPunct` (remove CJK punctuation). Alone it changes nothing. @default false
   */
  readonly asianSupport?: boolean;
  /** Keep case; otherwise Python `str.lower()` first. @default false */
  readonly caseSensitive?: boolean;
}

/** `[{-~[-\` -&(-+:-@/]`: the ASCII punctuation (and the space) that normalisation pads with spaces. */
function isSplitPunct(c: number): boolean {
  return (
    (c >= 0x20 && c <= 0x26) ||
    (c >= 0x28 && c <= 0x2b) ||
    c === 0x2f ||
    (c >= 0x3a && c <= 0x40) ||
    (c >= 0x5b && c <= 0x60) ||
    (c >= 0x7b && c <= 0x7e)
  );
}

function isAsciiDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isPeriodOrComma(c: number): boolean {
  return c === 0x2e || c === 0x2c;
}

/** `ASIAN_PUNCT`: U+3001, U+3002, U+3008–U+3011, U+3014–U+301F, U+FF61–U+FF65, U+30FB. */
function isAsianPunct(c: number): boolean {
  return (
    c === 0x3001 ||
    c === 0x3002 ||
    (c >= 0x3008 && c <= 0x3011) ||
    (c >= 0x3014 && c <= 0x301f) ||
    (c >= 0xff61 && c <= 0xff65) ||
    c === 0x30fb
  );
}

/** `FULL_WIDTH_PUNCT`: U+FF0E U+FF0C U+FF1F U+FF1A U+FF1B U+FF01 U+FF02 U+FF08 U+FF09. */
function isFullWidthPunct(c: number): boolean {
  return (
    c === 0xff0e ||
    c === 0xff0c ||
    c === 0xff1f ||
    c === 0xff1a ||
    c === 0xff1b ||
    c === 0xff01 ||
    c === 0xff02 ||
    c === 0xff08 ||
    c === 0xff09
  );
}

/**
 * Every character that one of `_normalize_asian`'s single-character substitutions pads with spaces: CJK Unified
 * Ideographs and Extension A, strokes, radicals, compatibility blocks, U+3200–U+3F22 (sacreBLEU's "Enclosed CJK"
 * range, which runs far past that block) and the two punctuation lists. Padding the same character twice only
 * adds spaces, which the final split removes, so the union is equivalent to the sequence of substitutions.
 * The kana substitutions are anchored at `^` of a line that normalisation has already padded with a space, so
 * they never match and are left out.
 */
function isAsianSplit(c: number): boolean {
  return (
    (c >= 0x4e00 && c <= 0x9fff) ||
    (c >= 0x3400 && c <= 0x4dbf) ||
    (c >= 0x31c0 && c <= 0x31ef) ||
    (c >= 0x2e80 && c <= 0x2eff) ||
    (c >= 0x3300 && c <= 0x33ff) ||
    (c >= 0xf900 && c <= 0xfaff) ||
    (c >= 0xfe30 && c <= 0xfe4f) ||
    (c >= 0x3200 && c <= 0x3f22) ||
    isAsianPunct(c) ||
    isFullWidthPunct(c)
  );
}

/** `.,?:;!"()`: what `no_punct` removes. */
function isRemovedPunct(c: number): boolean {
  return (
    c === 0x2e || c === 0x2c || c === 0x3f || c === 0x3a || c === 0x3b || c === 0x21 || c === 0x22 || c === 0x28 || c === 0x29
  );
}

/** Pads every character that `pad` selects with one space on each side. */
function padChars(s: string, pad: (c: number) => boolean): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    if (pad(s.charCodeAt(i))) {
      out += `${s.slice(from, i)} ${s[i]} `;
      from = i + 1;
    }
  }
  return from === 0 ? s : out + s.slice(from);
}

/** Removes every character that `drop` selects. */
function dropChars(s: string, drop: (c: number) => boolean): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    if (drop(s.charCodeAt(i))) {
      out += s.slice(from, i);
      from = i + 1;
    }
  }
  return from === 0 ? s : out + s.slice(from);
}

/** `re.sub(r"([^0-9])([\.,])", r"\1 \2 ", s)`: a period or comma after a non-digit gets a space on each side. */
function splitPeriodAfterNonDigit(s: string): string {
  let out = '';
  let from = 0;
  let i = 0;
  while (i + 1 < s.length) {
    if (!isAsciiDigit(s.charCodeAt(i)) && isPeriodOrComma(s.charCodeAt(i + 1))) {
      out += `${s.slice(from, i + 1)} ${s[i + 1]} `;
      i += 2;
      from = i;
    } else i++;
  }
  return from === 0 ? s : out + s.slice(from);
}

/** `re.sub(r"([\.,])([^0-9])", r" \1 \2", s)`: a period or comma before a non-digit gets a space on each side. */
function splitPeriodBeforeNonDigit(s: string): string {
  let out = '';
  let from = 0;
  let i = 0;
  while (i + 1 < s.length) {
    if (isPeriodOrComma(s.charCodeAt(i)) && !isAsciiDigit(s.charCodeAt(i + 1))) {
      out += `${s.slice(from, i)} ${s[i]} ${s[i + 1]}`;
      i += 2;
      from = i;
    } else i++;
  }
  return from === 0 ? s : out + s.slice(from);
}

/** `re.sub(r"([0-9])(-)", r"\1 \2 ", s)`: a hyphen after a digit gets a space on each side. */
function splitDashAfterDigit(s: string): string {
  let out = '';
  let from = 0;
  let i = 0;
  while (i + 1 < s.length) {
    if (isAsciiDigit(s.charCodeAt(i)) && s.charCodeAt(i + 1) === 0x2d) {
      out += `${s.slice(from, i + 1)} - `;
      i += 2;
      from = i;
    } else i++;
  }
  return from === 0 ? s : out + s.slice(from);
}

/**
 * `re.sub(r"'s$", r" 's", s)`: Python's `$` (without MULTILINE) matches at the very end and just before a final
 * `\n`; only one of the two can hold a match.
 */
function splitFinalPossessive(s: string): string {
  const n = s.length;
  if (s.endsWith("'s")) return `${s.slice(0, n - 2)} 's`;
  if (s.endsWith("'s\n")) return `${s.slice(0, n - 3)} 's\n`;
  return s;
}

/** sacreBLEU's `_normalize_general_and_western`. */
function normalizeGeneralAndWestern(line: string): string {
  let s = line.replaceAll('\n-', '').replaceAll('\n', ' ');
  s = s.replaceAll('&quot;', '"').replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>');
  s = padChars(` ${s} `, isSplitPunct);
  s = splitFinalPossessive(s.replaceAll("'s ", " 's "));
  s = splitPeriodAfterNonDigit(s);
  s = splitPeriodBeforeNonDigit(s);
  return splitDashAfterDigit(s);
}

/**
 * sacreBLEU's TER tokenizer: one line in, the tokens joined by single spaces out (Python `' '.join(s.split())`,
 * so any Python whitespace separates tokens). The TER metric right-strips the line before calling it.
 */
export class TercomTokenizer {
  /** Whether normalisation is on. */
  readonly normalized: boolean;
  /** Whether punctuation is removed. */
  readonly noPunct: boolean;
  /** Whether CJK handling is on (see {@link TercomTokenizerOptions.asianSupport}). */
  readonly asianSupport: boolean;
  /** Whether case is kept. */
  readonly caseSensitive: boolean;

  constructor(options: TercomTokenizerOptions = {}) {
    this.normalized = options.normalized ?? false;
    this.noPunct = options.noPunct ?? false;
    this.asianSupport = options.asianSupport ?? false;
    this.caseSensitive = options.caseSensitive ?? false;
  }

  /** The tokenized line (`''` for `''`). */
  tokenize(line: string): string {
    if (line === '') return '';
    return pyJoinSplit(this.unjoined(line));
  }

  /**
   * The line before the final `' '.join(s.split())`: its Python-whitespace-separated words are the tokens of
   * {@link tokenize}, for a caller that splits the line again (interning its words) and needs no joined string.
   */
  unjoined(line: string): string {
    let s = this.caseSensitive ? line : pyLower(line);
    if (this.normalized) {
      s = normalizeGeneralAndWestern(s);
      if (this.asianSupport) s = padChars(s, isAsianSplit);
    }
    if (this.noPunct) {
      s = dropChars(s, isRemovedPunct);
      if (this.asianSupport) s = dropChars(s, (c) => isAsianPunct(c) || isFullWidthPunct(c));
    }
    return s;
  }

  /** The name sacreBLEU puts in the `tok:` field of TER's signature. */
  signature(): string {
    return 'tercom';
  }
}

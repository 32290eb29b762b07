/**
 * tercom 0.10.0's text preparation (jhclark/tercom `TER.load_segs`, `TerScorer.TER(String, String)` and
 * `core/Normalizer.tokenize`), reproduced for the tercom TER flavor. sacreBLEU's `TercomTokenizer` is a port of
 * the same Normalizer but differs from it (see `src/text/tokenizers/tercom-tokenizer.ts` for sacreBLEU's); this
 * file must give tercom's tokens:
 *
 * 1. the Trans reader `trim()`s every segment (Java: every code unit up to U+0020 at either end);
 * 2. unless case-sensitive (`-s`), `String.toLowerCase()` of the whole line;
 * 3. an empty line (after 1 and 2) is scored without tokenizing (`TERnullstr`, see tercom-pair.ts);
 * 4. with `-N`: remove `<skipped>`, join `-\n`, `\n` → space, decode `&quot; &amp; &lt; &gt;` in that order, pad
 *    with a space each side, pad ASCII punctuation `[{-~[-\` -&(-+:-@/]` with spaces, split off `'s` before a
 *    space, split `.`/`,` unless next to a digit (two passes), `-` after a digit; with `-A` also split CJK
 *    ideographs, strokes, radicals, compatibility blocks and enclosed CJK into single characters, runs of
 *    hiragana / katakana / katakana phonetic extensions from their neighbours, and CJK and full-width
 *    punctuation; collapse `\s+` to one space and strip;
 * 5. with `-P`: delete `.,?:;!"()` (with `-A` also the CJK and full-width punctuation), collapse `\s+`, and do
 *    NOT strip (a line starting with deleted punctuation and a space gets a leading empty token);
 * 6. Java `split("\\s+")` (see tercom-java-text.ts).
 *
 * `-A` without `-N` only changes what `-P` deletes. Java regexes are matched on code points and `\s` is ASCII;
 * the patterns below use the `u` flag wherever a class is negated, so a surrogate pair is one character as in
 * Java. The kana rules differ from sacreBLEU's: tercom's `(^|\P{InHiragana})` alternative lets them split a run
 * from the character before it. Java's Unicode blocks are fixed code point ranges, written out here.
 *
 * Lowercasing is Java 17's (see `javaLowerCase`): the runtime's Unicode lowercasing minus the case pairs that
 * Unicode added after Java 17's version 13.
 */
import { TokenBounds } from '../../text/tokenizers/token-bounds.js';
import { javaLowerCase, javaSplitWhitespace, javaTrim } from './tercom-java-text.js';

/** tercom's text options (its command-line flags in brackets); every one defaults to `false`. */
export interface TercomTextOptions {
  /** Keep case (`-s`); otherwise the line is lowercased first. @default false */
  readonly caseSensitive?: boolean;
  /** mteval-style normalisation (`-N`). @default false */
  readonly normalized?: boolean;
  /** Delete punctuation (`-P`). @default false */
  readonly noPunct?: boolean;
  /** CJK support (`-A`): acts inside `-N` and `-P` only. @default false */
  readonly asianSupport?: boolean;
}

/** Java's `[\{-\~\[-\` -\&\(-\+\:-\@\/]`: the ASCII punctuation (and the space) that `-N` pads with spaces. */
const SPLIT_PUNCT = /[\x20-\x26\x28-\x2b\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]/g;
const PERIOD_COMMA_AFTER_NON_DIGIT = /([^0-9])([.,])/gu;
const PERIOD_COMMA_BEFORE_NON_DIGIT = /([.,])([^0-9])/gu;
const DASH_AFTER_DIGIT = /([0-9])(-)/g;
/**
 * `'s$`: Java's `$` also matches before a final line terminator. It cannot match after the padding of step 4
 * (the line then ends in spaces) but is kept so that the step reads as tercom's.
 */
const POSSESSIVE_AT_END = /'s(?=(?:\r\n|[\n\r\u0085\u2028\u2029])?$)/;
const CJK_IDEOGRAPHS = /([\u4e00-\u9fff\u3400-\u4dbf])/gu;
const CJK_STROKES_RADICALS = /([\u31c0-\u31ef\u2e80-\u2eff])/gu;
const CJK_COMPATIBILITY = /([\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f])/gu;
const ENCLOSED_CJK = /([\u3200-\u32ff])/gu;
const HIRAGANA_RUN = /(^|[^\u3040-\u309f])([\u3040-\u309f]+)(?=$|[^\u3040-\u309f])/gu;
const KATAKANA_RUN = /(^|[^\u30a0-\u30ff])([\u30a0-\u30ff]+)(?=$|[^\u30a0-\u30ff])/gu;
const KATAKANA_EXT_RUN = /(^|[^\u31f0-\u31ff])([\u31f0-\u31ff]+)(?=$|[^\u31f0-\u31ff])/gu;
/** tercom's `asianPunct`: U+3001, U+3002, U+3008–U+3011, U+3014–U+301F, U+FF61–U+FF65, U+30FB. */
const ASIAN_PUNCT = /([\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb])/gu;
/** tercom's `fullwidthPunct`: ．，？：；！＂（） */
const FULLWIDTH_PUNCT = /([\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09])/gu;
const JAVA_SPACES = /[\t\n\x0b\f\r ]+/g;
const LEADING_JAVA_SPACES = /^[\t\n\x0b\f\r ]+/;
const TRAILING_JAVA_SPACES = /[\t\n\x0b\f\r ]+$/;
const PUNCT = /[.,?:;!"()]/g;

/** Step 4: tercom's `-N` normalisation (with its `-A` part when `asianSupport`). */
function normalize(s: string, asianSupport: boolean): string {
  s = s.replaceAll('<skipped>', '').replaceAll('-\n', '').replaceAll('\n', ' ');
  s = s.replaceAll('&quot;', '"').replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>');
  s = ` ${s} `.replace(SPLIT_PUNCT, ' $& ');
  s = s.replaceAll("'s ", " 's ").replace(POSSESSIVE_AT_END, " 's");
  s = s.replace(PERIOD_COMMA_AFTER_NON_DIGIT, '$1 $2 ').replace(PERIOD_COMMA_BEFORE_NON_DIGIT, ' $1 $2');
  s = s.replace(DASH_AFTER_DIGIT, '$1 $2 ');
  if (asianSupport) {
    s = s.replace(CJK_IDEOGRAPHS, ' $1 ').replace(CJK_STROKES_RADICALS, ' $1 ');
    s = s.replace(CJK_COMPATIBILITY, ' $1 ').replace(ENCLOSED_CJK, ' $1 ');
    s = s.replace(HIRAGANA_RUN, '$1 $2 ').replace(KATAKANA_RUN, '$1 $2 ').replace(KATAKANA_EXT_RUN, '$1 $2 ');
    s = s.replace(ASIAN_PUNCT, ' $1 ').replace(FULLWIDTH_PUNCT, ' $1 ');
  }
  return s.replace(JAVA_SPACES, ' ').replace(LEADING_JAVA_SPACES, '').replace(TRAILING_JAVA_SPACES, '');
}

/** Step 5: tercom's `-P` punctuation removal (no strip). */
function removePunctuation(s: string, asianSupport: boolean): string {
  s = s.replace(PUNCT, '');
  if (asianSupport) s = s.replace(ASIAN_PUNCT, '').replace(FULLWIDTH_PUNCT, '');
  return s.replace(JAVA_SPACES, ' ');
}

/**
 * Steps 1–2: the segment as tercom compares it before tokenizing. An empty result means tercom's empty-segment
 * rule applies (the segment is never tokenized for its edits).
 */
export function tercomSegmentText(line: string, options: TercomTextOptions): string {
  const s = javaTrim(line);
  return options.caseSensitive ? s : javaLowerCase(s);
}

/** Steps 4–5 on a string from {@link tercomSegmentText}: the string that step 6 splits. */
export function tercomNormalizedText(text: string, options: TercomTextOptions): string {
  const asian = options.asianSupport ?? false;
  let s = options.normalized ? normalize(text, asian) : text;
  if (options.noPunct) s = removePunctuation(s, asian);
  return s;
}

/**
 * tercom's tokens of one segment (steps 1–6); an empty segment gives `[""]`, as tercom's own tokenizer does
 * (its word count is then taken as 0 or from the other side, see tercom-pair.ts).
 */
export function tercomTokenize(line: string, options: TercomTextOptions = {}): string[] {
  const s = tercomNormalizedText(tercomSegmentText(line, options), options);
  const bounds = new TokenBounds();
  javaSplitWhitespace(s, bounds);
  const out: string[] = [];
  for (let k = 0; k < bounds.count; k++) out.push(s.slice(bounds.start(k), bounds.end(k)));
  return out;
}

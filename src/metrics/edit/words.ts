/**
 * Text → words for the edit-based metrics (WER, PER, GTM): jiwer's default word split, or any sacrebleu tokenizer
 * followed by Python's `str.split()`, interned into CSR stores the way the BLEU family interns them (references
 * into a frozen vocabulary, hypothesis words that no reference has sharing one id that matches nothing).
 */
import type { Csr } from '../../text/csr.js';
import { badOption } from '../../errors.js';
import { isPyWhitespace } from '../../text/pystr.js';
import { TOKENIZER_NAMES, type TokenBounds, type TokenizerName } from '../../text/tokenizers/index.js';
import { bleuTextOptions, internHypotheses, internReferences, type BleuTextOptions, type InternedReferences } from '../bleu/text.js';
import { checkHypothesisCount, checkReferenceStreams, type PreparedReferences } from '../metric.js';

/**
 * Word splits of the edit metrics: `jiwer` (jiwer 4.0's default transform `wer_default`) or a sacrebleu tokenizer
 * name (that tokenizer, then `str.split()`; `none` is a plain Python whitespace split).
 */
export const EDIT_TOKENIZERS = ['jiwer', ...TOKENIZER_NAMES] as const;

/** One of {@link EDIT_TOKENIZERS}. */
export type EditTokenizer = (typeof EDIT_TOKENIZERS)[number];

/** Python's `str.isspace()` on a UTF-16 code unit, with the table skipped for U+0021–U+0084 (never whitespace). */
function isWhitespace(c: number): boolean {
  return (c <= 0x20 || c >= 0x85) && isPyWhitespace(c);
}

/**
 * jiwer 4.0's `wer_default` word split as token bounds into `line`: `RemoveMultipleSpaces` (`re.sub(r"\s\s+", " ")`),
 * `Strip` (`str.strip()`), then `ReduceToListOfListOfWords` (`split(" ")`, empty strings dropped). So a run of two or
 * more whitespace characters, or a single U+0020, separates words, and whitespace at either end goes; but one other
 * whitespace character between two words (a lone tab or no-break space) is not a separator and stays inside the
 * word. Whitespace is Python's (`\s` of a `str` pattern and `strip()` both test `str.isspace()`).
 */
export function scanJiwerWords(line: string, out: TokenBounds): string {
  out.clear();
  const n = line.length;
  let wordStart = -1;
  let i = 0;
  while (i < n) {
    const c = line.charCodeAt(i);
    if (!isWhitespace(c)) {
      if (wordStart < 0) wordStart = i;
      i++;
      continue;
    }
    let end = i + 1;
    while (end < n && isWhitespace(line.charCodeAt(end))) end++;
    const separates = end - i >= 2 || c === 0x20 || wordStart < 0 || end === n;
    if (separates && wordStart >= 0) {
      out.push(wordStart, i);
      wordStart = -1;
    }
    i = end;
  }
  if (wordStart >= 0) out.push(wordStart, n);
  return line;
}

/**
 * Python's `str.split()` as token bounds into `line`: what the sacrebleu tokenizer `none` followed by the split gives
 * (`getTokenScanner('none')`), scanned here with the whitespace table skipped for U+0021–U+0084, which is most text.
 */
export function scanPythonWords(line: string, out: TokenBounds): string {
  out.clear();
  const n = line.length;
  let i = 0;
  while (i < n) {
    while (i < n && isWhitespace(line.charCodeAt(i))) i++;
    if (i === n) break;
    const start = i;
    while (i < n && !isWhitespace(line.charCodeAt(i))) i++;
    out.push(start, i);
  }
  return line;
}

/** Checks a word-split name and returns how lines become words. @throws InputError `E_BAD_OPTION`. */
export function editTextOptions(tokenize: string, lowercase: boolean): BleuTextOptions {
  if (!(EDIT_TOKENIZERS as readonly string[]).includes(tokenize)) {
    throw badOption('tokenize', `one of ${EDIT_TOKENIZERS.join(', ')}`, tokenize);
  }
  if (typeof lowercase !== 'boolean') throw badOption('lowercase', 'a boolean', lowercase);
  if (tokenize === 'jiwer') return { scanner: scanJiwerWords, lowercase };
  if (tokenize === 'none') return { scanner: scanPythonWords, lowercase };
  return bleuTextOptions(tokenize as TokenizerName, lowercase);
}

/** References of an edit metric: interned words, one row per (segment, reference). */
export interface EditReferences extends PreparedReferences, InternedReferences {
  /** Number of references per segment. */
  readonly nRefs: number;
  /** The word split and case the references were prepared with (hypotheses must use the same). */
  readonly prepKey: string;
}

/** The key that ties prepared references to the text options that made them. */
export function editPrepKey(tokenize: EditTokenizer, lowercase: boolean): string {
  return `${tokenize}|${lowercase ? 'lc' : 'mixed'}`;
}

/**
 * Splits and interns reference streams (`refStreams[j][i]` is reference `j` of segment `i`).
 * @throws InputError `E_EMPTY_INPUT` without streams, `E_LINE_COUNT_MISMATCH` when their lengths differ.
 */
export function prepareEditReferences(
  metricName: string,
  refStreams: readonly (readonly string[])[],
  text: BleuTextOptions,
  prepKey: string,
): EditReferences {
  const segments = checkReferenceStreams(metricName, refStreams);
  return { segments, nRefs: refStreams.length, prepKey, ...internReferences(refStreams, segments, text) };
}

/**
 * Splits and looks up hypotheses against prepared references.
 * @throws InputError `E_LINE_COUNT_MISMATCH` when the counts differ; TypeError when the references were prepared
 * with another word split or case.
 */
export function editHypotheses(
  metricName: string,
  hyps: readonly string[],
  refs: EditReferences,
  text: BleuTextOptions,
  prepKey: string,
): Csr {
  checkHypothesisCount(hyps, refs.segments);
  if (refs.prepKey !== prepKey) {
    throw new TypeError(`${metricName} references were prepared with other options (${refs.prepKey}, not ${prepKey})`);
  }
  return internHypotheses(hyps, refs, text);
}

/**
 * Sentences as the NP-chunk metric and IMPACT read them: words interned into one CSR store, noun-phrase spans in one
 * flat array with per-sentence offsets. No object per sentence, word or phrase.
 */
import { InputError } from '../../errors.js';
import { CsrBuilder, type Csr } from '../../text/csr.js';
import { internLine, lookupLine, type Vocabulary } from '../../text/intern.js';
import { pyLower } from '../../text/pystr.js';
import type { NpChunker } from '../../text/chunk/index.js';

/** Chunked, interned sentences. */
export interface ChunkedCorpus {
  /** Word ids, one row per sentence. */
  readonly words: Csr;
  /** Noun-phrase spans, word indices within their sentence, flat `[start, end)` pairs. */
  readonly spans: Int32Array;
  /** `sentences + 1` offsets into `spans` (in array elements, two per phrase). */
  readonly spanOffsets: Int32Array;
}

/** How a line of input maps to a file line in error messages. */
export type LineOf = (index: number) => number;

/**
 * Chunks (with `chunker`; `null` reads whitespace-separated words and no phrases, IMPACT's view) and interns
 * `lines`. With `grow`, new words get ids (references); otherwise unknown words get id −1, which matches nothing
 * (hypotheses scored against prepared references). With `lowercase`, words are lowercased (Python `str.lower()`)
 * after chunking, so that the chunker still sees the case.
 * @throws InputError `E_BAD_INPUT` from the chunker, at line `lineOf(k)` of the input.
 */
export function chunkLines(
  lines: readonly string[],
  chunker: NpChunker | null,
  vocab: Vocabulary,
  grow: boolean,
  lineOf: LineOf = (k) => k + 1,
  lowercase = false,
): ChunkedCorpus {
  const words = new CsrBuilder(lines.length * 16, lines.length);
  const spans: number[] = [];
  const spanOffsets = new Int32Array(lines.length + 1);
  lines.forEach((line, k) => {
    let text = line;
    if (chunker !== null) {
      let chunked;
      try {
        chunked = chunker.chunk(line);
      } catch (err) {
        if (err instanceof InputError && err.line === undefined) {
          const located = new InputError(err.code, err.message, { file: err.file, line: lineOf(k) });
          located.cause = err;
          throw located;
        }
        throw err;
      }
      text = chunked.text;
      for (let s = 0; s < chunked.spans.length; s++) spans.push(chunked.spans[s]);
    }
    if (lowercase) text = pyLower(text);
    if (grow) internLine(vocab, text, words);
    else lookupLine(vocab, text, words, -1);
    spanOffsets[k + 1] = spans.length;
  });
  return { words: words.finish(), spans: Int32Array.from(spans), spanOffsets };
}

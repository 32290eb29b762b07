/**
 * The noun-phrase chunker contract of the NP-chunk metric (Echizen-ya & Araki 2010, seed 003 §2.1): a sentence goes
 * in, its words and the spans of its base noun phrases come out. The metric only needs the spans, so any chunker
 * (a library's tagger with a tag grammar, pre-chunked input, a future statistical chunker) plugs in behind it.
 *
 * A result is flat: the words as one space-separated string (interned by the metric like any tokenized line) and the
 * spans as one `Int32Array` of word-index pairs — no object per word or per phrase.
 */

/** One chunked sentence. */
export interface ChunkedSentence {
  /** The sentence's words joined by single spaces (a whitespace split gives them back). */
  readonly text: string;
  /** Number of words. */
  readonly length: number;
  /**
   * Noun-phrase spans as word indices, flat `[start0, end0, start1, end1, …]` (end exclusive), left to right,
   * non-empty and non-overlapping.
   */
  readonly spans: Int32Array;
}

/** An English noun-phrase chunker. */
export interface NpChunker {
  /** Name as given to `--chunker` (it goes into signatures). */
  readonly name: string;
  /**
   * Chunks one line.
   * @throws InputError `E_BAD_INPUT` for a line the chunker cannot read (malformed pre-chunked markup); the error
   *   carries no location: the caller knows the file and line.
   */
  chunk(text: string): ChunkedSentence;
}

/** Number of noun phrases of a chunked sentence. */
export function phraseCount(sentence: ChunkedSentence): number {
  return sentence.spans.length >> 1;
}

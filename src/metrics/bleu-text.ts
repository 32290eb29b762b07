/**
 * Text → token ids for the BLEU family: sacrebleu's BLEU preprocessing (`lower`, `rstrip`, tokenizer) and its
 * `str.split()` on Python whitespace, interned into CSR stores.
 *
 * References intern into a vocabulary that is frozen once prepared. Hypothesis tokens that no reference of the
 * test set contains all map to one shared "unknown" id: an n-gram holding it can never match, and hypothesis
 * totals count positions, not identities, so every clipped count stays the same while prepared references stay
 * immutable and shareable across systems and threads.
 */
import { CsrBuilder, type Csr } from '../corpus/csr.js';
import { isPyWhitespace } from '../text/pystr.js';
import { bleuTokenize, type Tokenizer } from '../text/tokenizers/index.js';

/** How one line becomes tokens. */
export interface BleuTextOptions {
  /** The tokenizer (sacrebleu semantics: gets the lowercased, right-stripped line). */
  readonly tokenizer: Tokenizer;
  /** Lowercase with Python's `str.lower()` before tokenizing. */
  readonly lowercase: boolean;
}

/**
 * Appends the Python-`split()` tokens of `tokenized` to `out` as one row. `lookup` maps a token to its id;
 * returns the row length.
 */
function appendSplit(tokenized: string, out: CsrBuilder, lookup: (token: string) => number): number {
  const n = tokenized.length;
  let count = 0;
  let i = 0;
  while (i < n) {
    while (i < n && isPyWhitespace(tokenized.charCodeAt(i))) i++;
    if (i === n) break;
    const start = i;
    while (i < n && !isPyWhitespace(tokenized.charCodeAt(i))) i++;
    out.push(lookup(tokenized.slice(start, i)));
    count++;
  }
  out.endRow();
  return count;
}

/** The id of `token` in `vocab`, assigning the next dense id when it is new. */
export function internId(vocab: Map<string, number>, token: string): number {
  let id = vocab.get(token);
  if (id === undefined) {
    id = vocab.size;
    vocab.set(token, id);
  }
  return id;
}

/** References of a test set as token ids. */
export interface InternedReferences {
  /** Every reference row: segment `s` owns rows `segRefOffsets[s] .. segRefOffsets[s + 1]`. */
  readonly refs: Csr;
  /** `segments + 1` offsets into the rows of `refs`. */
  readonly segRefOffsets: Int32Array;
  /** The frozen reference vocabulary: token → id, ids dense from 0 in order of first appearance. */
  readonly vocab: ReadonlyMap<string, number>;
  /** Id given to every hypothesis token absent from the references (`vocab.size`). */
  readonly unknownId: number;
}

/**
 * Tokenizes and interns references: `refStreams[j][i]` is reference `j` of segment `i`; the rows of segment `i`
 * are its references in stream order.
 */
export function internReferences(
  refStreams: readonly (readonly string[])[],
  segments: number,
  text: BleuTextOptions,
): InternedReferences {
  const vocab = new Map<string, number>();
  const nRefs = refStreams.length;
  const builder = new CsrBuilder(segments * nRefs * 32, segments * nRefs);
  const segRefOffsets = new Int32Array(segments + 1);
  const lookup = (t: string): number => internId(vocab, t);
  for (let s = 0; s < segments; s++) {
    for (let j = 0; j < nRefs; j++)
      appendSplit(bleuTokenize(refStreams[j][s], text.tokenizer, text.lowercase), builder, lookup);
    segRefOffsets[s + 1] = segRefOffsets[s] + nRefs;
  }
  return { refs: builder.finish(), segRefOffsets, vocab, unknownId: vocab.size };
}

/** Tokenizes and interns hypotheses against a frozen reference vocabulary (see the file comment). */
export function internHypotheses(hyps: readonly string[], refs: InternedReferences, text: BleuTextOptions): Csr {
  const builder = new CsrBuilder(hyps.length * 32, hyps.length);
  const { vocab, unknownId } = refs;
  const lookup = (t: string): number => vocab.get(t) ?? unknownId;
  for (const h of hyps) appendSplit(bleuTokenize(h, text.tokenizer, text.lowercase), builder, lookup);
  return builder.finish();
}

/**
 * Text → token ids for the BLEU family: sacrebleu's BLEU preprocessing (`lower`, `rstrip`, tokenizer) and its
 * `str.split()` on Python whitespace, interned into CSR stores.
 *
 * References intern into a vocabulary that is frozen once prepared. Hypothesis tokens that no reference of the
 * test set contains all map to one shared "unknown" id: an n-gram holding it can never match, and hypothesis
 * totals count positions, not identities, so every clipped count stays the same while prepared references stay
 * immutable and shareable across systems and threads.
 */
import { CsrBuilder, type Csr } from '../../text/csr.js';
import { internTokens, lookupTokens, Vocabulary } from '../../text/intern.js';
import { bleuScan, getTokenScanner, TokenBounds, type TokenScanner } from '../../text/tokenizers/index.js';

/** How one line becomes tokens. */
export interface BleuTextOptions {
  /** The tokenizer in scanner form (sacrebleu semantics: gets the lowercased, right-stripped line). */
  readonly scanner: TokenScanner;
  /** Lowercase with Python's `str.lower()` before tokenizing. */
  readonly lowercase: boolean;
}

/** Text options for a tokenizer name. @throws InputError `E_UNKNOWN_TOKENIZER`. */
export function bleuTextOptions(tokenize: string, lowercase: boolean): BleuTextOptions {
  return { scanner: getTokenScanner(tokenize), lowercase };
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
  /** The frozen reference vocabulary: ids dense from 0 in order of first appearance. */
  readonly vocab: Vocabulary;
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
  const vocab = new Vocabulary();
  const nRefs = refStreams.length;
  const builder = new CsrBuilder(segments * nRefs * 32, segments * nRefs);
  const segRefOffsets = new Int32Array(segments + 1);
  const bounds = new TokenBounds();
  for (let s = 0; s < segments; s++) {
    for (let j = 0; j < nRefs; j++) {
      const source = bleuScan(refStreams[j][s], text.scanner, text.lowercase, bounds);
      internTokens(vocab, source, bounds, builder);
    }
    segRefOffsets[s + 1] = segRefOffsets[s] + nRefs;
  }
  return { refs: builder.finish(), segRefOffsets, vocab, unknownId: vocab.size };
}

/** Tokenizes and interns hypotheses against a frozen reference vocabulary (see the file comment). */
export function internHypotheses(hyps: readonly string[], refs: InternedReferences, text: BleuTextOptions): Csr {
  const builder = new CsrBuilder(hyps.length * 32, hyps.length);
  const bounds = new TokenBounds();
  for (const h of hyps) {
    const source = bleuScan(h, text.scanner, text.lowercase, bounds);
    lookupTokens(refs.vocab, source, bounds, builder, refs.unknownId);
  }
  return builder.finish();
}

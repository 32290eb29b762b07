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
import { byteVocabularyTokens, words13aBuild, words13aLookup, type ByteVocabulary } from '../../wasm/words-13a.js';

/** How one line becomes tokens. */
export interface BleuTextOptions {
  /** The tokenizer in scanner form (sacrebleu semantics: gets the lowercased, right-stripped line). */
  readonly scanner: TokenScanner;
  /** Lowercase with Python's `str.lower()` before tokenizing. */
  readonly lowercase: boolean;
  /**
   * Whether the WebAssembly kernel (src/wasm/words-13a.ts) does the whole preprocessing and interning: 13a with
   * case kept, the tokenizer of sacreBLEU's default.
   */
  readonly kernel13a?: boolean;
}

/** Text options for a tokenizer name. @throws InputError `E_UNKNOWN_TOKENIZER`. */
export function bleuTextOptions(tokenize: string, lowercase: boolean): BleuTextOptions {
  return { scanner: getTokenScanner(tokenize), lowercase, kernel13a: tokenize === '13a' && !lowercase };
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
  /** The same vocabulary as the 13a kernel reads it, when the kernel interned the references. */
  readonly bytes?: ByteVocabulary;
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
  const nRefs = refStreams.length;
  if (text.kernel13a === true) {
    // Rows segment by segment, each segment's references in stream order.
    const lines = nRefs === 1 ? refStreams[0].slice(0, segments) : [];
    if (nRefs !== 1) for (let s = 0; s < segments; s++) for (let j = 0; j < nRefs; j++) lines.push(refStreams[j][s]);
    const built = words13aBuild(lines);
    const segRefOffsets = new Int32Array(segments + 1);
    for (let s = 0; s <= segments; s++) segRefOffsets[s] = s * nRefs;
    const bytes = built.vocab;
    return { refs: built.rows, segRefOffsets, vocab: Vocabulary.deferred(() => byteVocabularyTokens(bytes)), unknownId: bytes.count, bytes };
  }
  const vocab = new Vocabulary();
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
  if (text.kernel13a === true && refs.bytes !== undefined) return words13aLookup(hyps, refs.bytes, refs.unknownId);
  const builder = new CsrBuilder(hyps.length * 32, hyps.length);
  const bounds = new TokenBounds();
  for (const h of hyps) {
    const source = bleuScan(h, text.scanner, text.lowercase, bounds);
    lookupTokens(refs.vocab, source, bounds, builder, refs.unknownId);
  }
  return builder.finish();
}

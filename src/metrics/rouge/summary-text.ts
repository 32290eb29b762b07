/**
 * Summaries (hypotheses or references) as the ROUGE statistics read them: a row of token ids per summary, and,
 * for the types that work sentence by sentence, a row per sentence.
 *
 * - rouge155 flavor: as ROUGE-1.5.5 reads a summary file — the sentences (the `split` rule's; the whole text for
 *   sentence-level ROUGE-L, as one SPL line) go through its `-l`/`-b` limit twice, the `ngram` reading giving the
 *   token row and the `lcs` reading the sentence rows (they differ only under `-b`).
 * - other flavors: summary-level ROUGE-L tokenizes each sentence and the token row is their concatenation (what
 *   rouge-score counts and clips with); every other type tokenizes the whole text (newlines are separators).
 */
import { CsrBuilder, type Csr } from '../../corpus/csr.js';
import type { Vocabulary } from '../../text/intern.js';
import { isRougeTokenizerName, RougeInterner, splitSentences, truncateRouge155 } from '../../text/rouge/index.js';
import type { ResolvedRougeOptions } from './options.js';
import { ScannerInterner } from './scanner-interner.js';

/** Tokens of many summaries. */
export interface SummaryStore {
  /** Row `i`: the tokens of summary `i`. */
  readonly tokens: Csr;
  /** Sentence rows, summary after summary; null when the type reads no sentences. */
  readonly sentences: Csr | null;
  /** Summary `i`'s sentences are rows `sentenceOffsets[i] .. sentenceOffsets[i + 1]` (null with `sentences`). */
  readonly sentenceOffsets: Int32Array | null;
}

/** Something that appends token ids of a text to an open CSR row. */
interface TokenSource {
  appendIds(text: string, out: CsrBuilder): number;
}

/** Whether a type reads sentences in a flavor. */
export function readsSentences(options: ResolvedRougeOptions): boolean {
  const { kind } = options.type;
  return kind === 'lsum' || (options.flavor === 'rouge155' && (kind === 'l' || kind === 'w'));
}

/** A growable list of int32 values. */
class IntList {
  private data = new Int32Array(64);
  length = 0;

  push(v: number): void {
    if (this.length === this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length++] = v;
  }

  finish(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

/** Turns summary texts into a {@link SummaryStore}; ids come from one vocabulary shared by all its stores. */
export class SummaryReader {
  private readonly source: TokenSource;
  private readonly sentences: boolean;
  /** Whether sentence rows are slices of the token rows (the readings agree): no second tokenization. */
  private readonly shared: boolean;

  constructor(
    private readonly options: ResolvedRougeOptions,
    vocabulary: Vocabulary,
  ) {
    const { tokenizer, stem, removeStopwords, lowercase } = options;
    this.source = isRougeTokenizerName(tokenizer)
      ? new RougeInterner({ tokenizer, stem, removeStopwords }, vocabulary)
      : new ScannerInterner(tokenizer, { lowercase, stem, removeStopwords }, vocabulary);
    this.sentences = readsSentences(options);
    // ROUGE-1.5.5's two readers differ only under a byte limit.
    this.shared = !(options.flavor === 'rouge155' && options.limit.bytes > 0);
  }

  /** The store of `texts` (`count` of them), in order. */
  read(texts: Iterable<string>, count: number): SummaryStore {
    const tokens = new CsrBuilder(count * 64, count);
    const sentenceOffsets = this.sentences ? new Int32Array(count + 1) : null;
    // Shared: sentence boundaries as offsets into the token array. Apart: sentence rows of their own.
    const bounds = this.sentences && this.shared ? new IntList() : null;
    const apart = this.sentences && !this.shared ? new CsrBuilder(count * 64, count * 4) : null;
    bounds?.push(0);
    let total = 0;
    let nSentences = 0;
    let i = 0;
    for (const text of texts) {
      for (const s of this.ngramSentences(text)) {
        total += this.source.appendIds(s, tokens);
        if (bounds !== null) {
          bounds.push(total);
          nSentences++;
        }
      }
      tokens.endRow();
      if (apart !== null) {
        for (const s of this.lcsSentences(text)) {
          this.source.appendIds(s, apart);
          apart.endRow();
          nSentences++;
        }
      }
      if (sentenceOffsets !== null) sentenceOffsets[++i] = nSentences;
    }
    const store = tokens.finish();
    let sentences: Csr | null = null;
    if (bounds !== null) sentences = { tokens: store.tokens, offsets: bounds.finish() };
    else if (apart !== null) sentences = apart.finish();
    return { tokens: store, sentences, sentenceOffsets };
  }

  /** The sentences whose tokens make the token row. */
  private ngramSentences(text: string): string[] {
    const { flavor, type, split, limit } = this.options;
    if (flavor === 'rouge155') {
      const raw = type.kind === 'l' ? (text.length > 0 ? [text] : []) : splitSentences(text, split);
      return truncateRouge155(raw, limit, 'ngram');
    }
    return this.sentences ? splitSentences(text, split) : [text];
  }

  /** ROUGE-1.5.5's `lcs` reading (only used when it differs from the `ngram` one). */
  private lcsSentences(text: string): string[] {
    const { type, split, limit } = this.options;
    const raw = type.kind === 'l' ? (text.length > 0 ? [text] : []) : splitSentences(text, split);
    return truncateRouge155(raw, limit, 'lcs');
  }
}

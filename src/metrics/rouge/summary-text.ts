/**
 * Summaries (hypotheses or references) as the ROUGE statistics read them: a row of token ids per summary, and,
 * for the types that work sentence by sentence, a row per sentence.
 *
 * - rouge155 flavor: as ROUGE-1.5.5 reads a summary file — the sentences (the `split` rule's; the whole text for
 *   sentence-level ROUGE-L, as one SPL line) go through its `-l`/`-b` limit twice, the `ngram` reading giving the
 *   token row and the `lcs` reading the sentence rows (they differ only under `-b`).
 * - other flavors: summary-level ROUGE-L tokenizes each sentence and the token row is their concatenation (what
 *   rouge-score counts and clips with); every other type tokenizes the whole text (newlines are separators).
 *
 * Under a markup split (`t-tags`, `marker:STR`) the tags and markers are no words and text outside the `<t>`
 * elements is no part of the summary, so "the whole text" is the sentences: each is tokenized on its own and the
 * token row is their tokens in order, in every flavor; rouge155 ROUGE-L's one line is the sentences joined by
 * spaces, cut by the limit and tokenized piece by piece. The other rules keep the whole text as it is (a tokenizer
 * may read across a newline, as sacrebleu's 13a joins `-\n`, so splitting there would change tokens).
 */
import { CsrBuilder, type Csr } from '../../text/csr.js';
import type { Vocabulary } from '../../text/intern.js';
import {
  isMarkupSplit,
  isRougeTokenizerName,
  RougeInterner,
  splitSentences,
  truncateRouge155,
  truncateRouge155Line,
} from '../../text/rouge/index.js';
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
  /** Whether all the pieces a reading gives make one sentence (rouge155 ROUGE-L: the summary is one line). */
  private readonly oneLine: boolean;
  /** Whether the split is markup, so that only the sentences are text. */
  private readonly markup: boolean;

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
    this.oneLine = options.flavor === 'rouge155' && options.type.kind === 'l';
    this.markup = isMarkupSplit(options.split);
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
      const pieces = this.ngramSentences(text);
      for (const s of pieces) {
        total += this.source.appendIds(s, tokens);
        if (bounds !== null && !this.oneLine) {
          bounds.push(total);
          nSentences++;
        }
      }
      if (bounds !== null && this.oneLine && pieces.length > 0) {
        bounds.push(total);
        nSentences++;
      }
      tokens.endRow();
      if (apart !== null) {
        const lcs = this.lcsSentences(text);
        for (const s of lcs) {
          this.source.appendIds(s, apart);
          if (!this.oneLine) {
            apart.endRow();
            nSentences++;
          }
        }
        if (this.oneLine && lcs.length > 0) {
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

  /**
   * The texts whose tokens make the token row, in order: sentences (each a sentence row where the type reads
   * sentences), or, with {@link oneLine}, the pieces of the one line.
   */
  private ngramSentences(text: string): string[] {
    const { flavor, split, limit } = this.options;
    if (flavor === 'rouge155') return this.rouge155Reading(text, 'ngram');
    return this.sentences || this.markup ? splitSentences(text, split) : [text];
  }

  /** ROUGE-1.5.5's `lcs` reading (only used when it differs from the `ngram` one). */
  private lcsSentences(text: string): string[] {
    return this.rouge155Reading(text, 'lcs');
  }

  /** One of ROUGE-1.5.5's readings of a summary under the limit. */
  private rouge155Reading(text: string, purpose: 'ngram' | 'lcs'): string[] {
    const { split, limit } = this.options;
    if (!this.oneLine) return truncateRouge155(splitSentences(text, split), limit, purpose);
    // A single line reads the same in both readings.
    if (this.markup) return truncateRouge155Line(splitSentences(text, split), limit);
    return truncateRouge155(text.length > 0 ? [text] : [], limit, purpose);
  }
}

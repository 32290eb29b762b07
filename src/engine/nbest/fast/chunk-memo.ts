/**
 * The n-best fast path's one scan per line: a line is cut at U+0020 runs into chunks, each distinct chunk is
 * interned once into a chunk table (kept across the tasks of a thread), and each tokenizer of the run tokenizes it
 * once; a line's tokens for a tokenizer are then the concatenation of its chunks' memoised token ids (the tokenizers
 * are context-free across a space, see ../../../metrics/token-stage.ts). In an n-best list most chunks repeat (the candidates of a segment share most
 * words), so tokenizing, lowercasing, stemming and interning run per distinct chunk, not per token.
 */
import type { Csr } from '../../../text/csr.js';
import { ChunkTable } from '../../../wasm/chunk-table.js';
import type { ChunkTokenizer } from '../../../metrics/token-stage.js';
import { IntList } from './int-list.js';

/**
 * Chunk table and per-tokenizer memo of a thread. The table, the cutting, hashing and look-up of chunks and the
 * writing of token rows are WebAssembly (../../../wasm/chunk-table.ts); only the chunks the table has not seen come
 * back here, to be tokenized by the tokenizers.
 */
export class ChunkMemo {
  private readonly table: ChunkTable;
  /** Per tokenizer: its tokens are the chunk ids themselves (nothing memoised). */
  private readonly direct: boolean[];
  private readonly tokens = new IntList(64);

  constructor(private readonly tokenizers: readonly ChunkTokenizer[]) {
    this.direct = tokenizers.map((t) => t.chunkIds === true);
    this.table = new ChunkTable(tokenizers.length);
    this.direct.forEach((direct, t) => {
      if (direct) this.table.useChunkIds(t);
    });
  }

  /** Number of distinct chunks seen. */
  get size(): number {
    return this.table.size;
  }

  /**
   * Token ids of `count` lines (`line(i)`) for every tokenizer: one CSR per tokenizer, in the tokenizers' order.
   * With `scratch`, the token arrays are views into its buffers (grown as needed, reused by the next call with the
   * same scratch: the caller must be done with the rows by then), so that a task allocates no token store.
   */
  rows(count: number, line: (i: number) => string, scratch?: RowScratch): Csr[] {
    const before = this.table.size;
    this.table.scan(count, line);
    return this.tokenRows(before, scratch);
  }

  /**
   * {@link rows} of byte ranges of one UTF-8 text: line `i` is `bytes[starts[i] .. ends[i]]` (the fields of a chunk
   * of an n-best list, which then never become strings on the way to the kernels).
   */
  rowsOfRanges(bytes: Uint8Array, starts: Int32Array, ends: Int32Array, count: number, scratch?: RowScratch): Csr[] {
    const before = this.table.size;
    this.table.scanRanges(bytes, starts, ends, count);
    return this.tokenRows(before, scratch);
  }

  /** Tokenizes the chunks new since `before` and reads the token rows of the lines just scanned. */
  private tokenRows(before: number, scratch: RowScratch | undefined): Csr[] {
    const { table, tokenizers, tokens } = this;
    // New chunks, in order of first appearance: each tokenizer sees them in that order, as it would unmemoised.
    for (let id = before; id < table.size; id++) {
      const text = table.chunkText(id);
      for (let t = 0; t < tokenizers.length; t++) {
        if (this.direct[t]) continue;
        tokens.length = 0;
        tokenizers[t].tokenize(text, tokens);
        table.setTokens(id, t, tokens.data, 0, tokens.length);
      }
    }
    const buffers = tokenizers.map((_, t) => scratch?.buffer(t));
    const rows = table.rows(buffers);
    rows.forEach((csr, t) => {
      if (csr.tokens.buffer !== buffers[t]?.buffer) scratch?.keep(t, new Int32Array(csr.tokens.buffer));
    });
    return rows;
  }
}

/** Reusable token buffers for {@link ChunkMemo.rows}, one per tokenizer. */
export class RowScratch {
  private readonly buffers: Int32Array[] = [];

  /** The buffer of tokenizer `t` (contents left from earlier calls), undefined before the first {@link keep}. */
  buffer(t: number): Int32Array | undefined {
    return this.buffers[t];
  }

  /** Makes `b` (a grown buffer) the one of tokenizer `t`. */
  keep(t: number, b: Int32Array): void {
    this.buffers[t] = b;
  }
}

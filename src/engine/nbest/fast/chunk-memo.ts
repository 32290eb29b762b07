/**
 * The n-best fast path's one scan per line: a line is cut at U+0020 runs into chunks, each distinct chunk is
 * interned once into a chunk table (kept across the tasks of a thread), and each tokenizer of the run tokenizes it once; a line's tokens for a
 * tokenizer are then the concatenation of its chunks' memoised token ids (the tokenizers are context-free across a
 * space, see ./chunk-tokenizers.ts). In an n-best list most chunks repeat (the candidates of a segment share most
 * words), so tokenizing, lowercasing, stemming and interning run per distinct chunk, not per token.
 */
import type { Csr } from '../../../text/csr.js';
import { FNV_OFFSET, FNV_PRIME, hashFinish, Vocabulary } from '../../../text/intern.js';
import type { ChunkTokenizer } from './chunk-tokenizers.js';
import { IntList } from './int-list.js';

/** Chunk table and per-tokenizer memo of one task. */
export class ChunkMemo {
  private readonly chunks = new Vocabulary();
  /** Per tokenizer: token ids of chunk `c` are `tokens[t][starts[t][c] .. starts[t][c + 1]]`. */
  private readonly tokens: IntList[];
  private readonly starts: IntList[];

  /** Per tokenizer: its tokens are the chunk ids themselves (nothing memoised). */
  private readonly direct: boolean[];
  /**
   * `single[c · nt + t]`: the one token id tokenizer `t` gives chunk `c`, -1 for none, -2 for several (then read
   * `tokens`/`starts`). Most chunks are one token for every tokenizer: one look-up in one cache line per chunk.
   */
  private readonly single = new IntList(1024);

  constructor(private readonly tokenizers: readonly ChunkTokenizer[]) {
    this.direct = tokenizers.map((t) => t.chunkIds === true);
    this.tokens = tokenizers.map(() => new IntList(1024));
    this.starts = tokenizers.map(() => {
      const s = new IntList(256);
      s.push(0);
      return s;
    });
  }

  /** Number of distinct chunks seen. */
  get size(): number {
    return this.chunks.size;
  }

  /** The id of chunk `line[start, end)`, tokenized by every tokenizer when new. */
  private chunkId(line: string, start: number, end: number, hash: number): number {
    const found = this.chunks.findRange(line, start, end, hash);
    if (found >= 0) return found;
    const id = this.chunks.idOfRange(line, start, end, hash);
    const text = this.chunks.token(id);
    for (let t = 0; t < this.tokenizers.length; t++) {
      if (this.direct[t]) {
        this.single.push(id);
        this.starts[t].push(this.tokens[t].length);
        continue;
      }
      const tokens = this.tokens[t];
      const before = tokens.length;
      this.tokenizers[t].tokenize(text, tokens);
      this.starts[t].push(tokens.length);
      const count = tokens.length - before;
      this.single.push(count === 1 ? tokens.data[before] : count === 0 ? -1 : -2);
    }
    return id;
  }

  /**
   * Token ids of `count` lines (`line(i)`) for every tokenizer: one CSR per tokenizer, in the tokenizers' order.
   * With `scratch`, the token arrays are views into its buffers (grown as needed, reused by the next call with the
   * same scratch: the caller must be done with the rows by then), so that a task allocates no token store.
   */
  rows(count: number, line: (i: number) => string, scratch?: RowScratch): Csr[] {
    const nt = this.tokenizers.length;
    const out: Int32Array[] = [];
    const offsets: Int32Array[] = [];
    const at = new Int32Array(nt);
    for (let t = 0; t < nt; t++) {
      let b = scratch?.buffer(t);
      if (b === undefined) {
        b = new Int32Array(count * 32 + 16);
        scratch?.keep(t, b);
      }
      out.push(b);
      offsets.push(new Int32Array(count + 1));
    }
    for (let i = 0; i < count; i++) {
      const text = line(i);
      const n = text.length;
      // Every token comes from at least one code unit of its line: room for n more tokens is enough for the line.
      for (let t = 0; t < nt; t++) {
        if (at[t] + n > out[t].length) {
          const grown = new Int32Array(Math.max(2 * out[t].length, at[t] + n));
          grown.set(out[t].subarray(0, at[t]));
          out[t] = grown;
          scratch?.keep(t, grown);
        }
      }
      let k = 0;
      while (k < n) {
        let c = text.charCodeAt(k);
        if (c === 0x20) {
          k++;
          continue;
        }
        const start = k;
        let h = FNV_OFFSET;
        do {
          h = Math.imul(h ^ c, FNV_PRIME);
          if (++k === n) break;
          c = text.charCodeAt(k);
        } while (c !== 0x20);
        const id = this.chunkId(text, start, k, hashFinish(h));
        // Read after chunkId: a new chunk may have grown (replaced) the memo's arrays.
        const single = this.single.data;
        for (let t = 0; t < nt; t++) {
          const v = single[id * nt + t];
          if (v >= 0) {
            out[t][at[t]++] = v;
            continue;
          }
          if (v === -1) continue;
          const starts = this.starts[t].data;
          const tokens = this.tokens[t].data;
          const o = out[t];
          let p = at[t];
          for (let q = starts[id]; q < starts[id + 1]; q++) o[p++] = tokens[q];
          at[t] = p;
        }
      }
      for (let t = 0; t < nt; t++) offsets[t][i + 1] = at[t];
    }
    return out.map((o, t) => ({ tokens: o.subarray(0, at[t]), offsets: offsets[t] }));
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

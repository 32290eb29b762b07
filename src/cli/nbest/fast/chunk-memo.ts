/**
 * The n-best fast path's one scan per line: a line is cut at U+0020 runs into chunks, each distinct chunk is
 * interned once into a chunk table (kept across the tasks of a thread), and each tokenizer of the run tokenizes it once; a line's tokens for a
 * tokenizer are then the concatenation of its chunks' memoised token ids (the tokenizers are context-free across a
 * space, see ./chunk-tokenizers.ts). In an n-best list most chunks repeat (the candidates of a segment share most
 * words), so tokenizing, lowercasing, stemming and interning run per distinct chunk, not per token.
 */
import type { Csr } from '../../../corpus/csr.js';
import { Vocabulary } from '../../../text/intern.js';
import type { ChunkTokenizer } from './chunk-tokenizers.js';
import { IntList } from './int-list.js';

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** `tokenHash`'s finishing step (fmix32), so that hashes computed while scanning match the vocabulary's. */
function finishHash(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}

/** Chunk table and per-tokenizer memo of one task. */
export class ChunkMemo {
  private readonly chunks = new Vocabulary();
  /** Per tokenizer: token ids of chunk `c` are `tokens[t][starts[t][c] .. starts[t][c + 1]]`. */
  private readonly tokens: IntList[];
  private readonly starts: IntList[];

  constructor(private readonly tokenizers: readonly ChunkTokenizer[]) {
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
      this.tokenizers[t].tokenize(text, this.tokens[t]);
      this.starts[t].push(this.tokens[t].length);
    }
    return id;
  }

  /**
   * Token ids of `count` lines (`line(i)`) for every tokenizer: one CSR per tokenizer, in the tokenizers' order.
   */
  rows(count: number, line: (i: number) => string): Csr[] {
    const nt = this.tokenizers.length;
    const out = this.tokenizers.map(() => new IntList(count * 32));
    const offsets = this.tokenizers.map(() => new Int32Array(count + 1));
    for (let i = 0; i < count; i++) {
      const text = line(i);
      const n = text.length;
      let at = 0;
      while (at < n) {
        let c = text.charCodeAt(at);
        if (c === 0x20) {
          at++;
          continue;
        }
        const start = at;
        let h = FNV_OFFSET;
        do {
          h = Math.imul(h ^ c, FNV_PRIME);
          if (++at === n) break;
          c = text.charCodeAt(at);
        } while (c !== 0x20);
        const id = this.chunkId(text, start, at, finishHash(h));
        for (let t = 0; t < nt; t++) {
          const s = this.starts[t].data;
          out[t].append(this.tokens[t].data, s[id], s[id + 1]);
        }
      }
      for (let t = 0; t < nt; t++) offsets[t][i + 1] = out[t].length;
    }
    return out.map((o, t) => ({ tokens: o.finish(), offsets: offsets[t] }));
  }
}

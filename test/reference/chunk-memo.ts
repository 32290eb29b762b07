/**
 * Plain oracle of the n-best fast path's chunk memo (src/engine/nbest/fast/chunk-memo.ts over the kernels of
 * assembly/chunk-memo.ts): a line is split at U+0020 into chunks (empty ones dropped); a chunk not seen before gets
 * the next chunk number and is tokenized by every tokenizer, in order; a line's tokens for a tokenizer are its chunks'
 * tokens, concatenated. A tokenizer marked `chunkIds` gives each chunk its number as its one token. The memo lives
 * across calls.
 */

/** A chunk tokenizer as the memo sees it. */
export interface OracleTokenizer {
  readonly chunkIds?: boolean;
  tokenize(chunk: string, out: { push(id: number): void }): void;
}

/** The memo: chunks by their text (a JavaScript string: its code units, lone surrogates included). */
export class OracleChunkMemo {
  private readonly ids = new Map<string, number>();
  /** `tokens[c][t]`: the tokens tokenizer `t` gives chunk `c`. */
  private readonly tokens: number[][][] = [];

  constructor(private readonly tokenizers: readonly OracleTokenizer[]) {}

  /** Distinct chunks seen. */
  get size(): number {
    return this.ids.size;
  }

  /** Per tokenizer, per line: the line's tokens. */
  rows(lines: readonly string[]): number[][][] {
    const out = this.tokenizers.map(() => lines.map(() => [] as number[]));
    lines.forEach((line, i) => {
      for (const chunk of line.split(' ')) {
        if (chunk === '') continue;
        let id = this.ids.get(chunk);
        if (id === undefined) {
          id = this.ids.size;
          this.ids.set(chunk, id);
          const chunkId = id;
          this.tokens.push(
            this.tokenizers.map((t) => {
              if (t.chunkIds === true) return [chunkId];
              const got: number[] = [];
              t.tokenize(chunk, got);
              return got;
            }),
          );
        }
        this.tokenizers.forEach((_, t) => out[t][i].push(...this.tokens[id!][t]));
      }
    });
    return out;
  }
}

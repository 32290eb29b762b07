/**
 * Interning of tokenized text into integer ids and flat CSR stores.
 * Tokenizers return sacrebleu-style strings (tokens joined by single spaces); interning scans them once.
 */
import { CsrBuilder, type Csr } from '../corpus/csr.js';

/** A growable token ↔ id table. Ids are dense, starting at 0, in order of first appearance. */
export class Vocabulary {
  private readonly ids = new Map<string, number>();
  private readonly tokens: string[] = [];

  /** The id of `token`, assigning the next free id when it is new. */
  id(token: string): number {
    let id = this.ids.get(token);
    if (id === undefined) {
      id = this.tokens.length;
      this.ids.set(token, id);
      this.tokens.push(token);
    }
    return id;
  }

  /** The token of an id. */
  token(id: number): string {
    return this.tokens[id];
  }

  /** Number of distinct tokens. */
  get size(): number {
    return this.tokens.length;
  }
}

/** Appends the tokens of one tokenized line (tokens separated by single ASCII spaces) as one CSR row. */
export function internLine(vocab: Vocabulary, line: string, out: CsrBuilder): void {
  if (line.length > 0) for (const t of line.split(' ')) if (t.length > 0) out.push(vocab.id(t));
  out.endRow();
}

/** Interns many tokenized lines into one CSR store. */
export function internLines(vocab: Vocabulary, lines: readonly string[]): Csr {
  const b = new CsrBuilder(lines.length * 32, lines.length);
  for (const l of lines) internLine(vocab, l, b);
  return b.finish();
}

/**
 * Interning of tokenized text into integer ids and flat CSR stores.
 * Tokenizers return sacrebleu-style strings; interning scans them once, over char codes, and splits them the way
 * sacrebleu's BLEU does (`str.split()` on Python whitespace, which for tokenizer output joined by single spaces is
 * the same as splitting on spaces). The vocabulary is an open-addressing hash table keyed by the token's code
 * units, so a token already seen costs a hash and a compare, and only a new token allocates its string.
 */
import { CsrBuilder, type Csr } from './csr.js';
import type { TokenBounds } from './tokenizers/token-bounds.js';
import { isPyWhitespace } from './unicode/whitespace.js';

/** FNV-1a's offset basis: the start of {@link tokenHash} (scanners that hash while they scan start here too). */
export const FNV_OFFSET = 0x811c9dc5 | 0;
/** FNV-1a's prime: one step is `Math.imul(h ^ codeUnit, FNV_PRIME)`. */
export const FNV_PRIME = 0x01000193;

/** FNV-1a step over one UTF-16 code unit. */
function hashStep(h: number, c: number): number {
  return Math.imul(h ^ c, FNV_PRIME);
}

/**
 * Final avalanche (murmur3 fmix32) so that the low bits used as the slot index depend on every code unit: the last
 * step of {@link tokenHash}, and of every hash that must equal it or needs its spread.
 */
export function hashFinish(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}

/**
 * The hash {@link Vocabulary} keys the token `s[start, end)` by (FNV-1a over UTF-16 code units, then fmix32);
 * the `hash` argument of {@link Vocabulary.findRange} and {@link Vocabulary.idOfRange}.
 */
export function tokenHash(s: string, start: number, end: number): number {
  let h = FNV_OFFSET;
  for (let i = start; i < end; i++) h = hashStep(h, s.charCodeAt(i));
  return hashFinish(h);
}

/** A growable token ↔ id table. Ids are dense, starting at 0, in order of first appearance. */
export class Vocabulary {
  private readonly strings: string[] = [];
  private hashes = new Int32Array(64);
  /** Code units of every token back to back (token `id` at `starts[id] .. starts[id + 1]`): probes compare
   * against this flat array instead of dereferencing one string object per candidate. */
  private units = new Uint16Array(1024);
  private starts = new Int32Array(65);
  /** Open-addressing slots holding `id + 1` (0 = empty); the capacity is a power of two, at most half full. */
  private slots = new Int32Array(128);
  private mask = 127;
  /** Tokens not yet entered, in id order (see {@link deferred}); entered on first use. */
  private pending: (() => readonly string[]) | null = null;

  /**
   * A vocabulary whose tokens, ids `0 .. n` in the order `tokens()` lists them, are entered only when it is first
   * used: token ids made elsewhere (a kernel's) keep a vocabulary beside them at no cost until someone reads it.
   */
  static deferred(tokens: () => readonly string[]): Vocabulary {
    const v = new Vocabulary();
    v.pending = tokens;
    return v;
  }

  private enterPending(): void {
    const tokens = this.pending!;
    this.pending = null;
    for (const t of tokens()) this.id(t);
  }

  /** The id of `token`, assigning the next free id when it is new. */
  id(token: string): number {
    return this.idOfRange(token, 0, token.length, tokenHash(token, 0, token.length));
  }

  /** The id of `token`, or -1 when it has none (the vocabulary is left unchanged). */
  find(token: string): number {
    return this.findRange(token, 0, token.length, tokenHash(token, 0, token.length));
  }

  /** The token of an id. */
  token(id: number): string {
    if (this.pending !== null) this.enterPending();
    return this.strings[id];
  }

  /** Number of distinct tokens. */
  get size(): number {
    if (this.pending !== null) this.enterPending();
    return this.strings.length;
  }

  /**
   * The id of the token `s[start, end)`, -1 when absent; `hash` must be `tokenHash(s, start, end)` (scanners
   * compute it while they find the token's end). The probe compares hashes first and code units only on a hash
   * match, so no string is created.
   */
  findRange(s: string, start: number, end: number, hash: number): number {
    if (this.pending !== null) this.enterPending();
    const { slots, mask, hashes, units, starts } = this;
    const len = end - start;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[slot];
      if (entry === 0) return -1;
      const id = entry - 1;
      if (hashes[id] !== hash) continue;
      const at = starts[id];
      if (starts[id + 1] - at !== len) continue;
      let k = 0;
      while (k < len && units[at + k] === s.charCodeAt(start + k)) k++;
      if (k === len) return id;
    }
  }

  /** Like {@link findRange}, but assigns the next id (allocating the token's string) when `s[start, end)` is new. */
  idOfRange(s: string, start: number, end: number, hash: number): number {
    const found = this.findRange(s, start, end, hash);
    if (found >= 0) return found;
    const id = this.strings.length;
    this.strings.push(start === 0 && end === s.length ? s : s.slice(start, end));
    if (id === this.hashes.length) {
      const grown = new Int32Array(id * 2);
      grown.set(this.hashes);
      this.hashes = grown;
    }
    this.hashes[id] = hash;
    if (id + 2 > this.starts.length) {
      const grown = new Int32Array(this.starts.length * 2);
      grown.set(this.starts);
      this.starts = grown;
    }
    const at = this.starts[id];
    if (at + (end - start) > this.units.length) {
      const grown = new Uint16Array(Math.max(this.units.length * 2, at + (end - start)));
      grown.set(this.units);
      this.units = grown;
    }
    for (let k = start; k < end; k++) this.units[at + k - start] = s.charCodeAt(k);
    this.starts[id + 1] = at + (end - start);
    if ((id + 1) * 2 > this.slots.length) this.rehash(this.slots.length * 2);
    else this.place(id, hash);
    return id;
  }

  private place(id: number, hash: number): void {
    const { slots, mask } = this;
    let slot = hash & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = id + 1;
  }

  private rehash(capacity: number): void {
    this.slots = new Int32Array(capacity);
    this.mask = capacity - 1;
    for (let id = 0; id < this.strings.length; id++) this.place(id, this.hashes[id]);
  }
}

/**
 * Scans the Python-whitespace-separated tokens of `line` and appends the id of each to `out` (growing `vocab`,
 * or `missingId` for an unknown token when not `grow`), then closes the row. One loop over char codes finds
 * the bounds and computes the hash (the same as `tokenHash`) together.
 */
function scanTokens(
  vocab: Vocabulary,
  line: string,
  out: CsrBuilder,
  grow: boolean,
  missingId: number,
): void {
  const n = line.length;
  let i = 0;
  while (i < n) {
    let c = line.charCodeAt(i);
    // The cheap tests first: ASCII letters and digits are never whitespace.
    while (c <= 0x20 || c >= 0x85 ? isPyWhitespace(c) : false) {
      if (++i === n) break;
      c = line.charCodeAt(i);
    }
    if (i === n) break;
    const start = i;
    let h = FNV_OFFSET;
    do {
      h = Math.imul(h ^ c, FNV_PRIME);
      if (++i === n) break;
      c = line.charCodeAt(i);
    } while ((c > 0x20 && c < 0x85) || !isPyWhitespace(c));
    h = hashFinish(h);
    if (grow) out.push(vocab.idOfRange(line, start, i, h));
    else {
      const id = vocab.findRange(line, start, i, h);
      out.push(id >= 0 ? id : missingId);
    }
  }
  out.endRow();
}

/**
 * Appends the tokens of one tokenized line as one CSR row, growing `vocab` with new tokens. Tokens are the
 * maximal runs of non-whitespace (Python `str.split()`); an empty or all-whitespace line gives an empty row.
 */
export function internLine(vocab: Vocabulary, line: string, out: CsrBuilder): void {
  scanTokens(vocab, line, out, true, -1);
}

/** Interns many tokenized lines into one CSR store (one row per line). */
export function internLines(vocab: Vocabulary, lines: readonly string[]): Csr {
  const b = new CsrBuilder(lines.length * 32, lines.length);
  for (const l of lines) scanTokens(vocab, l, b, true, -1);
  return b.finish();
}

/**
 * Appends the tokens of one tokenized line as one CSR row against a frozen `vocab`: a token without an id gets
 * `missingId` and the vocabulary is not changed (e.g. hypothesis tokens that no reference contains).
 */
export function lookupLine(vocab: Vocabulary, line: string, out: CsrBuilder, missingId: number): void {
  scanTokens(vocab, line, out, false, missingId);
}

/**
 * Appends the tokens `source[tokens.start(k), tokens.end(k))` as one CSR row, growing `vocab`: interning straight
 * from a tokenizer's scanner form (see `getTokenScanner`), without the tokenized string.
 */
export function internTokens(vocab: Vocabulary, source: string, tokens: TokenBounds, out: CsrBuilder): void {
  // The bounds and the hash (tokenHash) inline: a test set's first lines run before the loop is optimized.
  const bounds = tokens.bounds;
  const count = tokens.count;
  for (let k = 0; k < count; k++) {
    const start = bounds[2 * k];
    const end = bounds[2 * k + 1];
    let h = FNV_OFFSET;
    for (let i = start; i < end; i++) h = Math.imul(h ^ source.charCodeAt(i), FNV_PRIME);
    out.push(vocab.idOfRange(source, start, end, hashFinish(h)));
  }
  out.endRow();
}

/** {@link internTokens} against a frozen `vocab`: unknown tokens get `missingId`, the vocabulary is unchanged. */
export function lookupTokens(vocab: Vocabulary, source: string, tokens: TokenBounds, out: CsrBuilder, missingId: number): void {
  const bounds = tokens.bounds;
  const count = tokens.count;
  for (let k = 0; k < count; k++) {
    const start = bounds[2 * k];
    const end = bounds[2 * k + 1];
    let h = FNV_OFFSET;
    for (let i = start; i < end; i++) h = Math.imul(h ^ source.charCodeAt(i), FNV_PRIME);
    const id = vocab.findRange(source, start, end, hashFinish(h));
    out.push(id >= 0 ? id : missingId);
  }
  out.endRow();
}

/**
 * Token text → word id for METEOR, looked up from a span of the line without cutting it out: a line's tokens are
 * mostly ones seen before, and a slice per token plus a Map look-up was most of METEOR's time per line once every
 * word was known. A slot holds what a probe needs (the token's hash, where its characters are, how many, its id),
 * so a look-up reads one slot and, when the hashes agree, the characters from one shared array: the table's memory
 * is touched twice per token, and no string of it at all.
 *
 * {@link TokenTable.scan13a} goes further for the default tokenizer: it finds 13a's tokens, hashes each as it reads
 * it and looks it up, in one pass over the line (the rules are regexp-post-scanner.ts's, which
 * test/meteor-token-table.test.ts checks it against).
 */
import { isPyWhitespace } from '../../text/unicode/whitespace.js';
import { ASCII_CLASS, DASH, PERIOD_COMMA, PLAIN, SPACE } from '../../text/tokenizers/regexp-post-scanner.js';

/** FNV-1a over UTF-16 units. */
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** The id of the token `text[start, end)`, which the table lacks (called once per new token). */
export type TokenMiss = (text: string, start: number, end: number) => number;

/** See the file comment. */
export class TokenTable {
  /** Open addressing, linear probing: slot k is [hash, start of the characters + 1 (0: empty), length, id] at 4k. */
  private slots = new Int32Array(4 * 1024);
  private count = 0;
  /** The tokens' characters, one after the other. */
  private chars = new Uint16Array(1 << 14);
  private charsUsed = 0;
  /** The hash of the span the last {@link get} looked up: a token is added right after its look-up missed. */
  private lastHash = 0;

  private static hash(text: string, start: number, end: number): number {
    let h = FNV_OFFSET;
    for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
    return h;
  }

  /** The word id of `text[start, end)`, or -1. */
  get(text: string, start: number, end: number): number {
    return this.find(text, start, end, (this.lastHash = TokenTable.hash(text, start, end)));
  }

  /** Adds `text[start, end)`, the span of the last {@link get}, which missed. */
  setMissed(text: string, start: number, end: number, value: number): void {
    this.add(text, start, end, this.lastHash, value);
  }

  /**
   * The ids of the tokens of `line` under sacreBLEU's 13a tokenizer then `str.split()` (what `bleuScan` with `scan13a`
   * and no lowercasing finds) into `ids`, which holds at least `line.length` entries; returns how many. Tokens the
   * table lacks get their id from `miss` and are added. Only for lines without `<`, `&` or a line feed (13a's
   * rewriting then changes nothing, and the scan needs no trailing-whitespace strip: the padded end of a line and
   * whitespace split alike).
   */
  scan13a(line: string, ids: Int32Array, miss: TokenMiss): number {
    const n = line.length;
    let count = 0;
    // The open token: its start (-1 when none) and the hash of its characters so far.
    let start = -1;
    let h = FNV_OFFSET;
    let i = 0;
    while (i < n) {
      const c = line.charCodeAt(i);
      const cls = c < 128 ? ASCII_CLASS[c] : isPyWhitespace(c) ? SPACE : PLAIN;
      if (cls === PLAIN || (cls === DASH && !(i > 0 && isDigit(line.charCodeAt(i - 1))))) {
        if (start < 0) {
          start = i;
          h = FNV_OFFSET;
        }
        h = Math.imul(h ^ c, FNV_PRIME);
        i++;
      } else if (cls === PERIOD_COMMA) {
        // A maximal run of `.`/`,`: every member but the last is a token of its own; the last is one too unless
        // it is glued to its neighbours (regexp-post-scanner.ts derives the rule, here with the line padded).
        let last = i;
        while (last + 1 < n && isPeriodComma(line.charCodeAt(last + 1))) last++;
        const afterDigit = i > 0 && isDigit(line.charCodeAt(i - 1));
        const beforeDigit = last + 1 < n && isDigit(line.charCodeAt(last + 1));
        const oddLength = ((last - i + 1) & 1) === 1;
        const lastGlued = (afterDigit ? oddLength : !oddLength) && beforeDigit;
        if (last > i || !lastGlued) {
          if (start >= 0) ids[count++] = this.lookup(line, start, i, h, miss);
          start = -1;
          for (let k = i; k < last; k++) ids[count++] = this.lookup(line, k, k + 1, Math.imul(FNV_OFFSET ^ line.charCodeAt(k), FNV_PRIME), miss);
        }
        const cl = line.charCodeAt(last);
        if (!lastGlued) ids[count++] = this.lookup(line, last, last + 1, Math.imul(FNV_OFFSET ^ cl, FNV_PRIME), miss);
        else {
          // Glued: it continues the open token or opens the next one.
          if (start < 0) {
            start = last;
            h = FNV_OFFSET;
          }
          h = Math.imul(h ^ cl, FNV_PRIME);
        }
        i = last + 1;
      } else {
        if (start >= 0) ids[count++] = this.lookup(line, start, i, h, miss);
        start = -1;
        // ALONE, or a DASH after a digit: a token of its own.
        if (cls !== SPACE) ids[count++] = this.lookup(line, i, i + 1, Math.imul(FNV_OFFSET ^ c, FNV_PRIME), miss);
        i++;
      }
    }
    if (start >= 0) ids[count++] = this.lookup(line, start, n, h, miss);
    return count;
  }

  /** The id of `text[start, end)` whose hash is `hash`, added through `miss` when new. */
  private lookup(text: string, start: number, end: number, hash: number, miss: TokenMiss): number {
    const id = this.find(text, start, end, hash);
    if (id >= 0) return id;
    const value = miss(text, start, end);
    this.add(text, start, end, hash, value);
    return value;
  }

  private find(text: string, start: number, end: number, hash: number): number {
    const slots = this.slots;
    const mask = (slots.length >> 2) - 1;
    const length = end - start;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const s = 4 * slot;
      const at = slots[s + 1] - 1;
      if (at < 0) return -1;
      if (slots[s] !== hash || slots[s + 2] !== length) continue;
      const chars = this.chars;
      const from = at - start;
      let i = start;
      while (i < end && chars[from + i] === text.charCodeAt(i)) i++;
      if (i === end) return slots[s + 3];
    }
  }

  private add(text: string, start: number, end: number, hash: number, value: number): void {
    // Kept at most half full.
    if (8 * (this.count + 1) > this.slots.length) {
      const old = this.slots;
      this.slots = new Int32Array(2 * old.length);
      for (let s = 0; s < old.length; s += 4) if (old[s + 1] !== 0) this.place(old[s], old[s + 1], old[s + 2], old[s + 3]);
    }
    const length = end - start;
    if (this.charsUsed + length > this.chars.length) {
      const grown = new Uint16Array(Math.max(2 * this.chars.length, this.charsUsed + length));
      grown.set(this.chars);
      this.chars = grown;
    }
    this.place(hash, this.charsUsed + 1, length, value);
    for (let i = start; i < end; i++) this.chars[this.charsUsed++] = text.charCodeAt(i);
    this.count++;
  }

  private place(hash: number, atPlusOne: number, length: number, value: number): void {
    const slots = this.slots;
    const mask = (slots.length >> 2) - 1;
    let slot = hash & mask;
    while (slots[4 * slot + 1] !== 0) slot = (slot + 1) & mask;
    const s = 4 * slot;
    slots[s] = hash;
    slots[s + 1] = atPlusOne;
    slots[s + 2] = length;
    slots[s + 3] = value;
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isPeriodComma(c: number): boolean {
  return c === 0x2e || c === 0x2c;
}

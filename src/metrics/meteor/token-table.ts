/**
 * Token text → word id for METEOR, looked up from a span of the line without cutting it out: a line's tokens are
 * mostly ones seen before, and a slice per token plus a Map look-up was most of METEOR's time per line once every
 * word was known. A slot holds what a probe needs (the token's hash, where its characters are, how many, its id),
 * so a look-up reads one slot and, when the hashes agree, the characters from one shared array: the table's memory
 * is touched twice per token, and no string of it at all. (The default tokenizer, 13a with case kept, does not come
 * here: the words-13a WebAssembly kernel tokenizes and interns those lines.)
 */

/** FNV-1a over UTF-16 units. */
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

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

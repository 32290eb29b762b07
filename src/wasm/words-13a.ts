/**
 * BLEU's 13a preprocessing to token ids in WebAssembly (`assembly/words-13a.ts`): the lines are written into the
 * kernel instance's memory as UTF-8 (WTF-8 for a string with a lone surrogate, ./wtf8.ts), and the kernel
 * right-strips, normalizes, tokenizes and interns them in one pass. A short run then spends no time in TypeScript
 * per character or per token, where the same work in TypeScript runs mostly before the JIT has compiled it.
 *
 * A vocabulary built by {@link words13aBuild} is held in TypeScript typed arrays (its hashes, token bytes and its
 * table, at most half full) and copied into the instance's memory for each lookup, so one instance serves every vocabulary
 * of a thread. Ids are dense from 0 in order of first appearance, as `Vocabulary` gives them. A caller that grows one
 * vocabulary batch after batch for its whole life keeps it in an instance of its own instead ({@link Words13aGrowing}),
 * where it is never copied.
 *
 * The same instance splits lines on Python whitespace alone ({@link buildWords} with `split`: TER's words) and
 * gives lines as code points ({@link codePointRows}: chrF's characters), so that no metric walks a line's characters
 * in TypeScript.
 */
import type { Csr } from '../text/csr.js';
import type { KernelExports } from './kernels.js';
import { alignUp, Layout, LinearMemory } from './linear-memory.js';
import { instantiateKernels } from './load.js';
import { decodeWtf8, encodeStringInto, getUtf16Writer } from './wtf8.js';
import type { NameTable } from './name-table.js';

interface Words13aExports extends KernelExports {
  words13a(
    input: number, lineStarts: number, fromLine: number, nLines: number, scratch: number, table: number, mask: number,
    hashes: number, keyStarts: number, arena: number, count: number, limit: number, grow: number, unknownId: number,
    outTokens: number, outOffsets: number, status: number,
  ): number;
  wordsSplit: Words13aExports['words13a'];
  codePoints(input: number, lineStarts: number, nLines: number, keepWhitespace: number, outTokens: number, outOffsets: number): void;
  utf16Lines(units: number, starts: number, nLines: number, out: number): number;
  mapIds(tokens: number, n: number, ids: number): void;
  words13aRehash(table: number, mask: number, hashes: number, count: number): void;
  meteorWordFacts(
    arena: number, keyStarts: number, first: number, count: number, flags: number, units: number, starts: number,
    filter: number, filterWords: number,
  ): void;
}

/**
 * What METEOR learns of new tokens in the kernel (../../assembly/meteor-words.ts), token `first + k` at k:
 * `flags[k]` 0 when the kernel left the token to the caller; otherwise {@link WORD_TAKEN}, and with a synonym filter
 * {@link WORD_MAY_HAVE_SYNONYMS} unless the stem surely has no synonym (../metrics/meteor/wordnet.ts
 * `mayHaveSynonyms` false). The word (Python's `lower()` of the token) is the UTF-16 units
 * `units[starts[2k] .. starts[2k + 1]]`; its Porter stem (NLTK_EXTENSIONS), when it is not the word,
 * `units[starts[2k + 1] .. starts[2k + 2]]`, an empty run otherwise (both empty for a token left), ready for a
 * {@link NameTable}.
 */
export interface WordFacts {
  readonly first: number;
  readonly flags: Uint8Array;
  readonly units: Uint16Array;
  readonly starts: Uint32Array;
}

/** {@link WordFacts} flags. */
export const WORD_TAKEN = 1;
export const WORD_MAY_HAVE_SYNONYMS = 8;

/** Which tokenizer the kernel runs: sacreBLEU's BLEU preprocessing with 13a, or Python's `str.split()` alone. */
export type KernelTokenizer = '13a' | 'split';

function run(kernels: Words13aExports, tokenizer: KernelTokenizer): Words13aExports['words13a'] {
  return tokenizer === '13a' ? kernels.words13a : kernels.wordsSplit;
}

/** A frozen vocabulary of 13a tokens, as the kernel reads it. */
export interface ByteVocabulary {
  /** Number of tokens (ids `0 .. count`). */
  readonly count: number;
  /** The hash of each token. */
  readonly hashes: Uint32Array;
  /** `count + 1` byte offsets: token `id` is `arena[keyStarts[id] .. keyStarts[id + 1]]`. */
  readonly keyStarts: Uint32Array;
  /** The tokens' UTF-8 (WTF-8) bytes back to back. */
  readonly arena: Uint8Array;
  /**
   * Open-addressing slots, a power of two of them at least twice `count`, each two u32: `id + 1` (0 = empty) and
   * the token's hash.
   */
  readonly table: Uint32Array;
}

/** The kernel instance of this thread, created on first use. */
let instance: { kernels: Words13aExports; memory: LinearMemory } | null = null;

function kernel(): { kernels: Words13aExports; memory: LinearMemory } {
  if (instance === null) {
    const kernels = instantiateKernels() as Words13aExports;
    instance = { kernels, memory: new LinearMemory(kernels.memory) };
  }
  return instance;
}

/** The smallest power of two ≥ `n` (and ≥ 16). */
function powerOfTwo(n: number): number {
  let p = 16;
  while (p < n) p *= 2;
  return p;
}

/** Where a call's lines are: their bytes and offsets written into the instance's memory. */
interface PlacedLines {
  readonly input: number;
  readonly lineStarts: number;
  readonly bytes: number;
  readonly longest: number;
}

/**
 * The lines of the last call and where they were written: every call writes its lines first, at the heap base, and
 * nothing else of this module writes over them, so a call with the same lines (the hypotheses that BLEU, TER and
 * chrF each take in turn) finds their bytes still in place.
 */
let lastLines: { copy: string[]; placed: PlacedLines } | null = null;

/** Whether `lines` hold the same strings as `copy`, in order. */
function sameLines(lines: readonly string[], copy: readonly string[]): boolean {
  if (lines.length !== copy.length) return false;
  for (let i = 0; i < lines.length; i++) if (lines[i] !== copy[i]) return false;
  return true;
}

/**
 * Writes `lines` as UTF-8/WTF-8 with their `lines.length + 1` byte offsets at the heap base of the thread's instance
 * (`layout` must be fresh from it), or finds them there from the call before.
 */
function placeLines(memory: LinearMemory, layout: Layout, lines: readonly string[]): PlacedLines {
  let units = 0;
  for (const line of lines) units += line.length;
  const input = layout.place(3 * units + 16);
  const lineStarts = layout.place(4 * (lines.length + 1));
  memory.reserve(layout.end);
  if (lastLines !== null && lastLines.placed.input === input && sameLines(lines, lastLines.copy)) return lastLines.placed;
  lastLines = null;
  const placed = writeLines(kernel().kernels, memory, input, lineStarts, lines, units);
  lastLines = { copy: lines.slice(), placed };
  return placed;
}

/**
 * Writes `lines` (`units` UTF-16 units in all) at `input` (room for three bytes per unit and 16 more) and their byte
 * offsets at `lineStarts`, with no record of them: {@link Words13aGrowing} writes its lines into an instance of its
 * own, whose addresses must not be taken for those of the thread's instance. Where the host copies code units
 * (wtf8.ts `Utf16Writer`), the lines are copied as such into the same room, after its first `units` bytes, and the
 * kernel encodes them in place; otherwise each is encoded here.
 */
function writeLines(
  kernels: Words13aExports, memory: LinearMemory, input: number, lineStarts: number, lines: readonly string[], units: number,
): PlacedLines {
  const writer = getUtf16Writer();
  const u8 = memory.u8;
  const i32 = memory.i32;
  let at = 0;
  let longest = 0;
  i32[lineStarts >> 2] = 0;
  if (writer !== null) {
    // Even, and at least a byte per unit after `input` (what the kernel's encoding in place needs).
    const staging = input + units + (units & 1);
    for (let i = 0; i < lines.length; i++) {
      writer(lines[i], u8, staging + 2 * at);
      at += lines[i].length;
      i32[(lineStarts >> 2) + i + 1] = at;
    }
    const bytes = kernels.utf16Lines(staging, lineStarts, lines.length, input);
    for (let i = 0, from = 0; i < lines.length; i++) {
      const to = i32[(lineStarts >> 2) + i + 1];
      if (to - from > longest) longest = to - from;
      from = to;
    }
    return { input, lineStarts, bytes, longest };
  }
  for (let i = 0; i < lines.length; i++) {
    const written = encodeStringInto(lines[i], u8, input + at);
    if (written > longest) longest = written;
    at += written;
    i32[(lineStarts >> 2) + i + 1] = at;
  }
  return { input, lineStarts, bytes: at, longest };
}

/**
 * The most tokens `nLines` placed lines can hold: one per byte with 13a; split words are at least a byte each with
 * a byte between two of them, so a line of n bytes has at most (n + 1) / 2 (half the room: memory grown and never
 * used still costs its growth).
 */
function mostTokens(tokenizer: KernelTokenizer, placed: PlacedLines, nLines: number): number {
  return tokenizer === 'split' ? Math.floor((placed.bytes + nLines) / 2) + 1 : placed.bytes;
}

/** The row offsets and ids the kernel wrote, copied out of the instance's memory (with `view`, views of it). */
function readRows(memory: LinearMemory, outTokens: number, outOffsets: number, nLines: number, view = false): Csr {
  const i32 = memory.i32;
  const part = (from: number, to: number): Int32Array => (view ? i32.subarray(from, to) : i32.slice(from, to));
  const offsets = part(outOffsets >> 2, (outOffsets >> 2) + nLines + 1);
  const tokens = part(outTokens >> 2, (outTokens >> 2) + offsets[nLines]);
  return { tokens, offsets };
}

/**
 * Token ids of `lines` (one row each) under sacreBLEU's BLEU preprocessing with 13a, case kept: `rstrip()`, the
 * tokenizer, `str.split()`. Ids are given in order of first appearance, and the vocabulary they index is returned.
 * With `base`, its tokens keep their ids and new ones follow them (`base` itself is left as it is): a caller that
 * meets its lines batch by batch keeps one growing vocabulary.
 */
export function words13aBuild(lines: readonly string[], base?: ByteVocabulary): { rows: Csr; vocab: ByteVocabulary } {
  return buildWords('13a', lines, base);
}

/**
 * {@link words13aBuild} with `tokenizer`: `split` gives the words of Python's `str.split()` of each line, case kept
 * (sacreBLEU's TER tokenizer with its default options, before lowercasing).
 */
export function buildWords(
  tokenizer: KernelTokenizer, lines: readonly string[], base?: ByteVocabulary,
): { rows: Csr; vocab: ByteVocabulary } {
  const { kernels, memory } = kernel();
  const words = run(kernels, tokenizer);
  const layout = new Layout(kernels.heapBase());
  const placed = placeLines(memory, layout, lines);
  const baseCount = base === undefined ? 0 : base.count;
  const baseBytes = base === undefined ? 0 : base.arena.length;
  const most = mostTokens(tokenizer, placed, lines.length);
  const hashes = layout.place(4 * (baseCount + most) + 4);
  const keyStarts = layout.place(4 * (baseCount + most) + 8);
  const arena = layout.place(baseBytes + placed.bytes + 16);
  const scratch = layout.place(tokenizer === 'split' ? 16 : 2 * placed.longest + 16);
  const outTokens = layout.place(4 * most + 4);
  const outOffsets = layout.place(4 * (lines.length + 1));
  const status = layout.place(16);
  // The table comes last, so that it can grow in place; it starts small (a table that stays in the cache), for about
  // one distinct token in sixteen bytes, and doubles whenever it is half full.
  const table = layout.end;
  let slots = powerOfTwo(Math.max(4096, most / 8, 4 * baseCount));
  memory.reserve(table + 8 * slots);
  memory.i32[keyStarts >> 2] = 0;
  memory.i32[outOffsets >> 2] = 0;
  if (base !== undefined) {
    memory.u32.set(base.hashes, hashes >> 2);
    memory.u32.set(base.keyStarts, keyStarts >> 2);
    memory.u8.set(base.arena, arena);
  }
  let count = baseCount;
  let line = 0;
  while (true) {
    memory.u8.fill(0, table, table + 8 * slots);
    kernels.words13aRehash(table, slots - 1, hashes, count);
    line = words(
      placed.input, placed.lineStarts, line, lines.length, scratch, table, slots - 1, hashes, keyStarts, arena, count,
      slots / 2, 1, -1, outTokens, outOffsets, status,
    );
    count = memory.u32[status >> 2];
    if (line === lines.length) break;
    slots *= 2;
    memory.reserve(table + 8 * slots);
  }
  const rows = readRows(memory, outTokens, outOffsets, lines.length);
  const u32 = memory.u32;
  const keptHashes = u32.slice(hashes >> 2, (hashes >> 2) + count);
  const keptStarts = u32.slice(keyStarts >> 2, (keyStarts >> 2) + count + 1);
  const vocab: ByteVocabulary = {
    count,
    hashes: keptHashes,
    keyStarts: keptStarts,
    arena: memory.u8.slice(arena, arena + keptStarts[count]),
    table: u32.slice(table >> 2, (table >> 2) + 2 * slots),
  };
  return { rows, vocab };
}

/**
 * Token ids of `lines` as {@link words13aBuild} tokenizes them, against the frozen `vocab`: a token it does not
 * hold gets `unknownId`.
 */
export function words13aLookup(lines: readonly string[], vocab: ByteVocabulary, unknownId: number): Csr {
  return lookupWords('13a', lines, vocab, unknownId);
}

/** {@link words13aLookup} with `tokenizer` (see {@link buildWords}). */
export function lookupWords(tokenizer: KernelTokenizer, lines: readonly string[], vocab: ByteVocabulary, unknownId: number): Csr {
  const { kernels, memory } = kernel();
  const layout = new Layout(kernels.heapBase());
  const placed = placeLines(memory, layout, lines);
  const table = layout.place(4 * vocab.table.length);
  const hashes = layout.place(4 * vocab.count + 4);
  const keyStarts = layout.place(4 * vocab.count + 8);
  const arena = layout.place(vocab.arena.length + 16);
  const scratch = layout.place(tokenizer === 'split' ? 16 : 2 * placed.longest + 16);
  const outTokens = layout.place(4 * mostTokens(tokenizer, placed, lines.length) + 4);
  const outOffsets = layout.place(4 * (lines.length + 1));
  const status = layout.place(16);
  memory.reserve(layout.end);
  memory.i32[outOffsets >> 2] = 0;
  memory.u32.set(vocab.table, table >> 2);
  memory.u32.set(vocab.hashes, hashes >> 2);
  memory.u32.set(vocab.keyStarts, keyStarts >> 2);
  memory.u8.set(vocab.arena, arena);
  run(kernels, tokenizer)(
    placed.input, placed.lineStarts, 0, lines.length, scratch, table, vocab.table.length / 2 - 1, hashes, keyStarts, arena,
    vocab.count, 0, 0, unknownId, outTokens, outOffsets, status,
  );
  return readRows(memory, outTokens, outOffsets, lines.length);
}

/**
 * The code points of each line as one CSR row (token id = code point, a lone surrogate its own unit), without
 * Python whitespace unless `keepWhitespace`: the characters of sacreBLEU's chrF (`''.join(line.split())`).
 * With `transient`, the rows are views of the kernel instance's memory instead of copies: valid only until the
 * next call of this module on this thread, for a caller that hands them straight to another kernel instance (whose
 * own copy is all it needs), sparing a copy as large as the lines (and the fresh pages it would touch).
 */
export function codePointRows(lines: readonly string[], keepWhitespace: boolean, transient = false): Csr {
  const { kernels, memory } = kernel();
  const layout = new Layout(kernels.heapBase());
  const placed = placeLines(memory, layout, lines);
  // At most one code point per byte.
  const outTokens = layout.place(4 * placed.bytes + 4);
  const outOffsets = layout.place(4 * (lines.length + 1));
  memory.reserve(layout.end);
  kernels.codePoints(placed.input, placed.lineStarts, lines.length, keepWhitespace ? 1 : 0, outTokens, outOffsets);
  return readRows(memory, outTokens, outOffsets, lines.length, transient);
}

/** `rows` with every id `t` replaced by `ids[t]` (the same offsets): a loop over every token, run in the kernel. */
export function mapRowIds(rows: Csr, ids: Int32Array): Csr {
  const { kernels, memory } = kernel();
  // Written over the lines of the call before.
  lastLines = null;
  const layout = new Layout(kernels.heapBase());
  const n = rows.offsets[rows.offsets.length - 1];
  const tokens = layout.place(4 * n + 4);
  const map = layout.place(ids.byteLength + 4);
  memory.reserve(layout.end);
  memory.i32.set(rows.tokens.subarray(0, n), tokens >> 2);
  memory.i32.set(ids, map >> 2);
  kernels.mapIds(tokens, n, map);
  return { tokens: memory.i32.slice(tokens >> 2, (tokens >> 2) + n), offsets: rows.offsets };
}

/** UTF-8 decoding that keeps a leading U+FEFF (a token may begin with one; the default decoder drops it). */
const tokenDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** The tokens of a vocabulary as strings, in id order: those of ids `first .. count` (all by default). */
export function byteVocabularyTokens(vocab: ByteVocabulary, first = 0): string[] {
  return decodeTokens(vocab.arena, vocab.keyStarts, first, vocab.count);
}

/**
 * Tokens `first .. count` of an arena (token `id` is `arena[keyStarts[id] .. keyStarts[id + 1]]`) as strings. Their
 * bytes lie back to back, each token whole code points: without a surrogate among them, they are decoded in one call
 * and cut at each token's length in UTF-16 units (a four-byte sequence is two units, a continuation byte none).
 */
function decodeTokens(arena: Uint8Array, keyStarts: Uint32Array, first: number, count: number): string[] {
  const n = Math.max(0, count - first);
  const tokens: string[] = new Array(n);
  if (n === 0) return tokens;
  const start = keyStarts[first];
  const end = keyStarts[count];
  if (!hasSurrogate(arena, start, end)) {
    const text = tokenDecoder.decode(arena.subarray(start, end));
    let at = 0;
    let p = start;
    for (let k = 0; k < n; k++) {
      const to = keyStarts[first + k + 1];
      let units = 0;
      for (; p < to; p++) {
        const b = arena[p];
        if (b < 0x80 || b >= 0xc0) units += b >= 0xf0 ? 2 : 1;
      }
      tokens[k] = text.slice(at, at + units);
      at += units;
    }
    return tokens;
  }
  for (let id = first; id < count; id++) {
    const from = keyStarts[id];
    const to = keyStarts[id + 1];
    // WTF-8 (a lone surrogate, ED A0..BF) is not UTF-8: the platform's decoder would replace it.
    tokens[id - first] = hasSurrogate(arena, from, to) ? decodeWtf8(arena, from, to) : tokenDecoder.decode(arena.subarray(from, to));
  }
  return tokens;
}

/** Whether WTF-8 bytes `[from, to)` encode a surrogate code point. */
function hasSurrogate(bytes: Uint8Array, from: number, to: number): boolean {
  for (let k = from; k + 1 < to; k++) if (bytes[k] === 0xed && bytes[k + 1] >= 0xa0) return true;
  return false;
}

/**
 * A vocabulary of 13a tokens grown batch after batch that lives in a kernel instance of its own: its token records,
 * bytes and table stay in that instance's memory between calls, where {@link words13aBuild} copies a vocabulary
 * in and out of the thread's instance on every call (and rebuilds its table): per call about what a hundred lines
 * cost, and garbage. Ids and rows are those of {@link words13aBuild} given the same lines in the same order.
 *
 * The memory holds, from the heap base: the token hashes, the token offsets, the token bytes, the call's lines and
 * outputs, and last the table (so that it doubles in place), at most half full: a quarter full, its probe runs were
 * shorter, but twice the table fell out of the cache more often (a lifelong vocabulary's table is probed once per
 * token of every line), which cost more; each region has room to spare and all move up when one outgrows its room.
 */
export class Words13aGrowing {
  /** Number of tokens (ids `0 .. count`). */
  count = 0;
  private readonly kernels: Words13aExports;
  private readonly memory: LinearMemory;
  /** Room of the regions: token records, token bytes, bytes of a call's lines and outputs; table slots. */
  private tokenRoom = 0;
  private byteRoom = 0;
  private callRoom = 0;
  private slots = 0;
  /** Addresses of the regions. */
  private readonly hashes: number;
  private keyStarts = 0;
  private arena = 0;
  private call = 0;
  private table = 0;

  /** The facts of the last build's new tokens. */
  private facts: WordFacts | undefined = undefined;
  /** Where the synonym filter is, and its 32-bit words (0: none). */
  private readonly filter: number;
  private readonly filterWords: number;

  /**
   * @param learnsWords whether each build also finds each new token's word and its Porter stem
   * ({@link wordFacts}: METEOR's).
   * @param synonymFilter METEOR's WordNet filter (../metrics/meteor/wordnet.ts `synonymFilter`), with which the
   * facts also say whether a stem may have synonyms.
   */
  constructor(private readonly learnsWords = false, synonymFilter?: Int32Array) {
    this.kernels = instantiateKernels() as Words13aExports;
    this.memory = new LinearMemory(this.kernels.memory);
    // The synonym filter first, where it stays: the regions after it move as they grow.
    this.filter = alignUp(this.kernels.heapBase(), 16);
    this.filterWords = synonymFilter === undefined ? 0 : synonymFilter.length;
    this.hashes = alignUp(this.filter + 4 * this.filterWords, 16);
    this.place(4096, 65536, 65536, 4096, 0);
    if (synonymFilter !== undefined) this.memory.i32.set(synonymFilter, this.filter >> 2);
    this.memory.u8.fill(0, this.table, this.table + 8 * this.slots);
    this.memory.u32[this.keyStarts >> 2] = 0;
  }

  /**
   * Gives the regions the room asked for (at least), moving the regions after one that grows; `callUsed` bytes of
   * the call region are kept.
   */
  private place(tokenRoom: number, byteRoom: number, callRoom: number, slots: number, callUsed: number): void {
    const keyStarts = alignUp(this.hashes + 4 * tokenRoom, 16);
    const arena = alignUp(keyStarts + 4 * (tokenRoom + 1), 16);
    const call = alignUp(arena + byteRoom, 16);
    const table = alignUp(call + callRoom, 16);
    this.memory.reserve(table + 8 * slots);
    if (this.tokenRoom > 0) {
      // Every region moves up (or stays): the last first, so that none is overwritten before it has moved.
      const u8 = this.memory.u8;
      u8.copyWithin(table, this.table, this.table + 8 * this.slots);
      u8.copyWithin(call, this.call, this.call + callUsed);
      u8.copyWithin(arena, this.arena, this.arena + this.memory.u32[(this.keyStarts >> 2) + this.count]);
      u8.copyWithin(keyStarts, this.keyStarts, this.keyStarts + 4 * (this.count + 1));
    }
    this.tokenRoom = tokenRoom;
    this.byteRoom = byteRoom;
    this.callRoom = callRoom;
    this.slots = slots;
    this.keyStarts = keyStarts;
    this.arena = arena;
    this.call = call;
    this.table = table;
  }

  /** Makes room for a call of `callBytes` bytes that adds at most `newTokens` tokens of `newBytes` bytes. */
  private room(newTokens: number, newBytes: number, callBytes: number, callUsed: number): void {
    const tokens = this.count + newTokens;
    const bytes = this.memory.u32[(this.keyStarts >> 2) + this.count] + newBytes;
    if (tokens <= this.tokenRoom && bytes <= this.byteRoom && callBytes <= this.callRoom) return;
    const grown = (have: number, need: number): number => (need <= have ? have : Math.max(need, 2 * have));
    this.place(grown(this.tokenRoom, tokens), grown(this.byteRoom, bytes), grown(this.callRoom, callBytes), this.slots, callUsed);
  }

  /**
   * Token ids of `lines` (one row each), as {@link words13aBuild} gives them, the vocabulary grown by their new
   * tokens. The rows are views of the instance's memory, valid until the next call.
   */
  build(lines: readonly string[]): Csr {
    const memory = this.memory;
    const known = this.count;
    this.facts = undefined;
    let units = 0;
    for (const line of lines) units += line.length;
    // The lines and their offsets first: their byte count bounds what follows.
    const linesBytes = alignUp(3 * units + 16, 16) + alignUp(4 * (lines.length + 1), 16);
    this.room(0, 0, linesBytes, 0);
    const callLayout = new Layout(this.call);
    const lineBytes = callLayout.place(3 * units + 16);
    const placed = writeLines(this.kernels, memory, lineBytes, callLayout.place(4 * (lines.length + 1)), lines, units);
    const most = placed.bytes;
    const layout = new Layout(this.call + linesBytes);
    const scratch = layout.place(2 * placed.longest + 16);
    const outTokens = layout.place(4 * most + 4);
    const outOffsets = layout.place(4 * (lines.length + 1));
    const status = layout.place(16);
    // At most one new token per input byte. The call region may move up, and every address in it with it.
    const placedAt = this.call;
    this.room(most, most, layout.end - placedAt, linesBytes);
    const shift = this.call - placedAt;
    const input = placed.input + shift;
    const lineStarts = placed.lineStarts + shift;
    const out = { scratch: scratch + shift, tokens: outTokens + shift, offsets: outOffsets + shift, status: status + shift };
    memory.i32[out.offsets >> 2] = 0;
    let line = 0;
    while (true) {
      line = this.kernels.words13a(
        input, lineStarts, line, lines.length, out.scratch, this.table, this.slots - 1, this.hashes, this.keyStarts,
        this.arena, this.count, this.slots / 2, 1, -1, out.tokens, out.offsets, out.status,
      );
      this.count = memory.u32[out.status >> 2];
      if (line === lines.length) break;
      // The table is half full: it doubles in place (it is the last region) and takes the ids again.
      this.slots *= 2;
      memory.reserve(this.table + 8 * this.slots);
      memory.u8.fill(0, this.table, this.table + 8 * this.slots);
      this.kernels.words13aRehash(this.table, this.slots - 1, this.hashes, this.count);
    }
    let rowsAt = { tokens: out.tokens, offsets: out.offsets };
    // Only a build that added tokens has facts to learn (wordFacts is then undefined).
    if (this.learnsWords && this.count > known) rowsAt = this.learnWords(known, out.status + 16, rowsAt);
    return readRows(memory, rowsAt.tokens, rowsAt.offsets, lines.length, true);
  }

  /**
   * {@link wordFacts} of tokens `first .. count`, placed from `from` in the call region (after what the call wrote
   * there, which moves with the region if it must grow): returns the rows' addresses `rows` moved as it did.
   */
  private learnWords(first: number, from: number, rows: { tokens: number; offsets: number }): { tokens: number; offsets: number } {
    const fresh = this.count - first;
    const u32 = this.memory.u32;
    // A word has at most one unit per byte of its token, and its stem no more than the word.
    const bytes = u32[(this.keyStarts >> 2) + this.count] - u32[(this.keyStarts >> 2) + first];
    const layout = new Layout(from);
    const flags = layout.place(fresh + 16);
    const units = layout.place(4 * bytes + 16);
    const starts = layout.place(4 * (2 * fresh + 1));
    const placedAt = this.call;
    this.room(0, 0, layout.end - placedAt, from - placedAt);
    const shift = this.call - placedAt;
    this.kernels.meteorWordFacts(
      this.arena, this.keyStarts, first, this.count, flags + shift, units + shift, starts + shift,
      this.filterWords === 0 ? 0 : this.filter, Math.max(1, this.filterWords),
    );
    const memory = this.memory;
    this.facts = {
      first,
      flags: memory.u8.subarray(flags + shift, flags + shift + fresh),
      units: new Uint16Array(memory.u8.buffer, units + shift, 2 * bytes),
      starts: memory.u32.subarray((starts + shift) >> 2, ((starts + shift) >> 2) + 2 * fresh + 1),
    };
    return { tokens: rows.tokens + shift, offsets: rows.offsets + shift };
  }

  /**
   * What the last {@link build} learnt of its new tokens (a vocabulary made with `learnsWords`; undefined when it
   * added none), as views valid until the next call: see {@link WordFacts}.
   */
  wordFacts(): WordFacts | undefined {
    return this.facts;
  }

  /** Token `id` as a string. */
  token(id: number): string {
    return decodeTokens(this.memory.u8.subarray(this.arena), this.memory.u32.subarray(this.keyStarts >> 2), id, id + 1)[0];
  }

  /** The tokens of ids `first .. count` as strings, in id order (as {@link byteVocabularyTokens} reads them). */
  tokens(first: number): string[] {
    return decodeTokens(this.memory.u8.subarray(this.arena), this.memory.u32.subarray(this.keyStarts >> 2), first, this.count);
  }
}

/**
 * The chunk memo's table in WebAssembly memory (`assembly/chunk-memo.ts`): the lines of a call are written into the
 * instance's memory as UTF-8 (./wtf8.ts), the kernel cuts them at U+0020 runs, hashes the chunks and looks them up
 * in a table of the chunks seen so far, kept across calls. The caller tokenizes the chunks the table had not seen
 * ({@link ChunkTable.chunkText}, {@link ChunkTable.setTokens}), then reads each tokenizer's token rows: every line's
 * tokens are the concatenation of its chunks' memoised ones, written by the kernel.
 *
 * Each table owns a kernel instance. Its memory, upward from the heap base: a header the kernels read, the hash
 * table, the chunk records, the key arena, the token store (these four grow by doubling, moved upward as a whole),
 * then the scratch of the current call (its lines, their chunk ids, the rows).
 */
import type { Csr } from '../text/csr.js';
import type { KernelExports } from './kernels.js';
import { LinearMemory, alignUp } from './linear-memory.js';
import { instantiateKernels } from './load.js';
import { decodeWtf8, encodeStringInto } from './wtf8.js';

/** The chunk memo kernels (see `assembly/chunk-memo.ts`; pointers are byte addresses). */
export interface ChunkMemoExports extends KernelExports {
  memoScan(
    header: number, input: number, lineStarts: number, lineEnds: number, fromLine: number, nLines: number,
    chunkIds: number, lineChunks: number,
  ): number;
  memoRehash(header: number): void;
  memoHash(start: number, end: number): number;
  memoTokenCount(header: number, chunkIds: number, nChunks: number, codes: number): number;
  /** Rows of 1 to 4 tokenizers of one block of codes (one function each). */
  memoRows1: MemoRows;
  memoRows2: MemoRows;
  memoRows3: MemoRows;
  memoRows4: MemoRows;
}

/** The row kernels: tokens of the tokenizers from the one at `codes` to `outs`' addresses, offsets to `rowOffsets`. */
type MemoRows = (
  header: number, chunkIds: number, lineChunks: number, nLines: number, codes: number, outs: number, rowOffsets: number,
) => void;

/** Header fields, as u32 indices from the header (the kernel's `H_*` byte offsets ÷ 4). */
const H_TABLE = 0;
const H_MASK = 1;
const H_LOAD = 2;
const H_RECORDS = 3;
const H_COUNT = 5;
const H_MAX_CHUNKS = 6;
const H_ARENA = 7;
const H_ARENA_USED = 8;
const H_ARENA_CAP = 9;
const H_TOKENS = 10;
const H_SHIFT = 12;
const H_NEED = 13;
const H_RESUME = 14;
const H_OUT = 15;
const HEADER_BYTES = 64;
/**
 * Bytes of a table slot (its key and id, and a quarter of its group's 16 spare bytes) and of a key record (hash, key
 * offset, key length).
 */
const SLOT_BYTES = 16;
/** Slots of a group the kernel compares at once: 2^GROUP_BITS. */
const GROUP_BITS = 2;
const RECORD_BYTES = 12;
/**
 * Largest number of tokens a chunk may give a tokenizer for the rows to be sized by that number times the chunks
 * of the call; past it, the tokens are counted first.
 */
const BOUND_BY_MOST = 4;
/** Token code of a chunk that gives a tokenizer no token (see {@link ChunkTable.setTokens}). */
const NO_TOKEN = -1;
/** Tokenizers whose codes share a chunk's 16 bytes, and whose rows one call of the row kernel writes. */
const CODES_BLOCK = 4;
/** Readable bytes the kernel may load past the end of an input (it reads 64-byte blocks) or of the arena. */
const PAD = 64;
/** Slots of a new table: 2^12. */
const INITIAL_TABLE_BITS = 12;

/** Entries a table of `2^bits` slots takes (load factor 5/8: short probes, always an empty slot). */
function loadLimit(bits: number): number {
  return (2 ** bits / 8) * 5;
}

/** Addresses of the persistent regions for given capacities. */
interface Regions {
  readonly bits: number;
  /** Chunks the records hold: as many as the table takes. */
  readonly maxChunks: number;
  readonly arenaCap: number;
  readonly tokensCap: number;
  readonly table: number;
  readonly records: number;
  /**
   * The token codes: per block of {@link CODES_BLOCK} tokenizers, 16 bytes a chunk (an i32 per tokenizer), the
   * blocks one after the other (see {@link ChunkTable.codesOf}).
   */
  readonly codes: number;
  readonly arena: number;
  readonly tokens: number;
  readonly scratch: number;
}

/** Where the chunks of the current call are (byte offsets from the scratch start). */
interface CallScratch {
  readonly nLines: number;
  readonly lineChunks: number;
  readonly chunkIds: number;
  /** Chunks of the call (occurrences). */
  readonly nChunks: number;
  /** Bytes of the scratch holding the call's lines and chunk ids. */
  readonly used: number;
}

/** A chunk table with its memoised token ids for `tokenizers` tokenizers, in a kernel instance of its own. */
export class ChunkTable {
  private readonly kernels: ChunkMemoExports;
  private readonly memory: LinearMemory;
  private readonly header: number;
  private regions: Regions;
  private tokensUsed = 0;
  /** Per tokenizer: the most tokens it gave one chunk. */
  private readonly most: Int32Array;
  /** Per tokenizer: whether its tokens are the chunk ids ({@link useChunkIds}). */
  private readonly direct: boolean[];
  private call: CallScratch | null = null;
  private lineOffsets = new Int32Array(1024);

  constructor(readonly tokenizers: number, kernels: ChunkMemoExports = instantiateKernels() as ChunkMemoExports) {
    this.kernels = kernels;
    this.memory = new LinearMemory(kernels.memory);
    this.header = alignUp(kernels.heapBase(), 16);
    this.most = new Int32Array(tokenizers);
    this.direct = new Array<boolean>(tokenizers).fill(false);
    const bits = INITIAL_TABLE_BITS;
    this.regions = this.place(bits, 16 * loadLimit(bits), 1024);
    this.memory.reserve(this.regions.scratch);
    this.writeHeader();
    this.kernels.memoRehash(this.header);
  }

  /** Number of distinct chunks in the table. */
  get size(): number {
    return this.memory.u32[(this.header >> 2) + H_COUNT];
  }

  /** Slots of the hash table (it grows as chunks come). */
  get capacity(): number {
    return 2 ** this.regions.bits;
  }

  /** Bytes of the chunks' keys in the table. */
  get keyBytes(): number {
    return this.memory.u32[(this.header >> 2) + H_ARENA_USED];
  }

  /**
   * Cuts `count` lines (`line(i)`) into chunks: chunks new to the table get the ids from {@link size} (before the
   * call) on, in order of first appearance; their token ids must be set ({@link setTokens} or {@link setChunkId},
   * every tokenizer but those of {@link useChunkIds}) before {@link rows} reads them. The lines' chunks stay in the
   * scratch until the next scan.
   */
  scan(count: number, line: (i: number) => string): void {
    this.call = null;
    const { memory } = this;
    if (this.lineOffsets.length < count + 1) this.lineOffsets = new Int32Array(Math.max(count + 1, 2 * this.lineOffsets.length));
    const offsets = this.lineOffsets;
    const scratch = this.regions.scratch;
    let used = 0;
    let room = 0;
    let u8 = memory.u8;
    for (let i = 0; i < count; i++) {
      const text = line(i);
      const most = 3 * text.length;
      if (most > room) {
        memory.reserve(scratch + used + Math.max(most, used) + PAD);
        u8 = memory.u8;
        room = u8.length - PAD - scratch - used;
      }
      const n = encodeStringInto(text, u8, scratch + used);
      used += n;
      room -= n;
      offsets[i + 1] = used;
    }
    offsets[0] = 0;
    const bytes = used;
    const lineOffsets = alignUp(bytes + PAD, 16);
    const lineChunks = lineOffsets + 4 * (count + 1);
    // A line of n bytes holds at most ⌈n / 2⌉ chunks (each at least a byte, each but the last followed by a space).
    const chunkIds = lineChunks + 4 * (count + 1);
    const end = alignUp(chunkIds + 4 * (Math.floor((bytes + count) / 2) + 1), 16);
    memory.reserve(scratch + end);
    memory.i32.set(offsets.subarray(0, count + 1), (scratch + lineOffsets) >> 2);
    this.cut(count, lineOffsets, lineOffsets + 4, lineChunks, chunkIds, end);
  }

  /**
   * {@link scan} of byte ranges of one text: line `i` is `bytes[starts[i] .. ends[i]]` (UTF-8). The text is copied
   * into the kernel's memory once, not line by line.
   */
  scanRanges(bytes: Uint8Array, starts: Int32Array, ends: Int32Array, count: number): void {
    this.call = null;
    const { memory } = this;
    const lineStarts = alignUp(bytes.length + PAD, 16);
    const lineEnds = alignUp(lineStarts + 4 * count, 16);
    const lineChunks = alignUp(lineEnds + 4 * count, 16);
    let total = 0;
    for (let i = 0; i < count; i++) total += ends[i] - starts[i];
    const chunkIds = lineChunks + 4 * (count + 1);
    const end = alignUp(chunkIds + 4 * (Math.floor((total + count) / 2) + 1), 16);
    const scratch = this.regions.scratch;
    memory.reserve(scratch + end);
    memory.u8.set(bytes, scratch);
    const i32 = memory.i32;
    i32.set(starts.subarray(0, count), (scratch + lineStarts) >> 2);
    i32.set(ends.subarray(0, count), (scratch + lineEnds) >> 2);
    this.cut(count, lineStarts, lineEnds, lineChunks, chunkIds, end);
  }

  /** Runs the cutting kernel over the `count` lines laid out in the scratch (offsets from its start), growing as needed. */
  private cut(count: number, lineStarts: number, lineEnds: number, lineChunks: number, chunkIds: number, end: number): void {
    const { memory } = this;
    let scratch = this.regions.scratch;
    memory.i32[(scratch + lineChunks) >> 2] = 0;
    const h = this.header >> 2;
    memory.u32[h + H_RESUME] = 0xffffffff;
    memory.u32[h + H_OUT] = 0;
    let done = 0;
    while (true) {
      done = this.kernels.memoScan(
        this.header, scratch, scratch + lineStarts, scratch + lineEnds, done, count, scratch + chunkIds, scratch + lineChunks,
      );
      if (done === count) break;
      // A new chunk found the memo full: room for it (the table doubles), then on from that chunk.
      this.grow(this.size + 1, this.keyBytes + memory.u32[h + H_NEED], 0, end);
      scratch = this.regions.scratch;
    }
    const nChunks = memory.i32[(scratch + lineChunks + 4 * count) >> 2];
    this.call = { nLines: count, lineChunks, chunkIds, nChunks, used: end };
  }

  /** The text of chunk `id`. */
  chunkText(id: number): string {
    const u32 = this.memory.u32;
    const record = (this.regions.records + id * RECORD_BYTES) >> 2;
    const start = this.regions.arena + u32[record + 1];
    return decodeWtf8(this.memory.u8, start, start + u32[record + 2]);
  }

  /**
   * Sets the token ids tokenizer `t` gives chunk `id`: `tokens[from .. to]`. The kernel reads one code per chunk and
   * tokenizer: the token itself when there is one (and it is not negative), -1 for none, else -2 - p where the token
   * store holds their count at p and the tokens after it.
   */
  setTokens(id: number, t: number, tokens: Int32Array, from: number, to: number): void {
    const n = to - from;
    let code = n === 0 ? NO_TOKEN : tokens[from];
    if (n > 1 || code < 0) {
      const need = this.tokensUsed + n + 1;
      if (need > this.regions.tokensCap) this.grow(0, 0, need, this.call?.used ?? 0);
      const at = (this.regions.tokens >> 2) + this.tokensUsed;
      const i32 = this.memory.i32;
      i32[at] = n;
      i32.set(tokens.subarray(from, to), at + 1);
      code = -2 - this.tokensUsed;
      this.tokensUsed += n + 1;
    }
    if (n > this.most[t]) this.most[t] = n;
    this.setCode(id, t, code);
  }

  /** Makes tokenizer `t` give chunk `id` one token: the chunk's id. */
  setChunkId(id: number, t: number): void {
    if (this.most[t] < 1) this.most[t] = 1;
    this.setCode(id, t, id);
  }

  /**
   * Makes tokenizer `t` give every chunk, past and future, one token, its id: its rows are then the scan's chunk ids
   * themselves, copied out without the row kernel (no {@link setChunkId} needed).
   */
  useChunkIds(t: number): void {
    this.direct[t] = true;
  }

  /**
   * Token rows of every tokenizer for the lines of the last scan. The tokens of tokenizer `t` are copied into
   * `buffers[t]` when it is large enough (the result's tokens are then a view of it), else into a new array
   * (see {@link copyOut}).
   */
  rows(buffers?: readonly (Int32Array | undefined)[]): Csr[] {
    const call = this.scanned();
    const nt = this.tokenizers;
    const scratch = this.regions.scratch;
    const outs = call.used;
    const rowOffsets = alignUp(outs + 4 * nt, 16);
    let at = alignUp(rowOffsets + 4 * nt * (call.nLines + 1), 16);
    const starts: number[] = [];
    for (let t = 0; t < nt; t++) {
      if (this.direct[t]) {
        starts.push(0);
        continue;
      }
      // Sized by the most tokens of a chunk when that is small, else counted: a few chunks of many tokens must not
      // make every chunk of the call take room for as many.
      const bound = this.most[t] <= BOUND_BY_MOST
        ? call.nChunks * this.most[t]
        : this.kernels.memoTokenCount(this.header, scratch + call.chunkIds, call.nChunks, this.codesOf(t));
      starts.push(at);
      // One token more: the kernel stores a token before it knows whether the chunk has one.
      at = alignUp(at + 4 * bound + 4, 16);
    }
    this.memory.reserve(scratch + at);
    const u32 = this.memory.u32;
    for (let t = 0; t < nt; t++) u32[((scratch + outs) >> 2) + t] = scratch + starts[t];
    // The kernel takes runs of tokenizers of one block of codes a call, each cursor in a local; a tokenizer that
    // gives chunk ids has the scan's chunk ids as its rows, and no call.
    for (let t = 0; t < nt; ) {
      if (this.direct[t]) {
        t++;
        continue;
      }
      let end = t + 1;
      while (end < nt && !this.direct[end] && Math.floor(end / CODES_BLOCK) === Math.floor(t / CODES_BLOCK)) end++;
      const k = this.kernels;
      const run = end - t;
      const rows = run === 1 ? k.memoRows1 : run === 2 ? k.memoRows2 : run === 3 ? k.memoRows3 : k.memoRows4;
      rows(
        this.header, scratch + call.chunkIds, scratch + call.lineChunks, call.nLines, this.codesOf(t),
        scratch + outs + 4 * t, scratch + rowOffsets + 4 * t * (call.nLines + 1),
      );
      t = end;
    }
    const i32 = this.memory.i32;
    const out: Csr[] = [];
    for (let t = 0; t < nt; t++) {
      if (this.direct[t]) {
        const from = (scratch + call.lineChunks) >> 2;
        const offsets = i32.slice(from, from + call.nLines + 1);
        out.push({ tokens: copyOut(i32, (scratch + call.chunkIds) >> 2, call.nChunks, buffers?.[t]), offsets });
        continue;
      }
      const from = ((scratch + rowOffsets) >> 2) + t * (call.nLines + 1);
      const offsets = i32.slice(from, from + call.nLines + 1);
      out.push({ tokens: copyOut(i32, (scratch + starts[t]) >> 2, offsets[call.nLines], buffers?.[t]), offsets });
    }
    return out;
  }

  private setCode(id: number, t: number, code: number): void {
    this.memory.i32[(this.codesOf(t) >> 2) + 4 * id] = code;
  }

  /** Address of the token code of tokenizer `t` for chunk 0; chunk `id`'s is `16 · id` bytes further. */
  private codesOf(t: number): number {
    const block = Math.floor(t / CODES_BLOCK);
    return this.regions.codes + 16 * this.regions.maxChunks * block + 4 * (t - CODES_BLOCK * block);
  }

  /** Blocks of codes: one per {@link CODES_BLOCK} tokenizers. */
  private get codeBlocks(): number {
    return Math.ceil(this.tokenizers / CODES_BLOCK);
  }

  private scanned(): CallScratch {
    if (this.call === null) throw new TypeError('ChunkTable.rows: no scanned lines to read (call scan first)');
    return this.call;
  }

  /** Addresses of the regions for the given capacities (as many chunks as the table takes). */
  private place(bits: number, arenaCap: number, tokensCap: number): Regions {
    const maxChunks = loadLimit(bits);
    // A group of slots is one cache line.
    const table = alignUp(this.header + HEADER_BYTES, 64);
    const records = alignUp(table + SLOT_BYTES * 2 ** bits, 16);
    const codes = alignUp(records + RECORD_BYTES * maxChunks, 16);
    const arena = alignUp(codes + 16 * maxChunks * this.codeBlocks, 16);
    const tokens = alignUp(arena + arenaCap + PAD, 16);
    const scratch = alignUp(tokens + 4 * tokensCap + PAD, 16);
    return { bits, maxChunks, arenaCap, tokensCap, table, records, codes, arena, tokens, scratch };
  }

  private writeHeader(): void {
    const r = this.regions;
    const u32 = this.memory.u32;
    const h = this.header >> 2;
    u32[h + H_TABLE] = r.table;
    // The kernel probes groups of SLOTS_PER_GROUP slots (one cache line): the mask and shift name groups.
    u32[h + H_MASK] = 2 ** (r.bits - GROUP_BITS) - 1;
    u32[h + H_LOAD] = loadLimit(r.bits);
    u32[h + H_RECORDS] = r.records;
    u32[h + H_MAX_CHUNKS] = r.maxChunks;
    u32[h + H_ARENA] = r.arena;
    u32[h + H_ARENA_CAP] = r.arenaCap;
    u32[h + H_TOKENS] = r.tokens;
    u32[h + H_SHIFT] = 32 - (r.bits - GROUP_BITS);
  }

  /**
   * Makes room for `chunks` chunks, `keyBytes` bytes of keys and `tokens` stored tokens (each capacity at least
   * doubled when it grows), moving the regions up, the call's `scratchUsed` bytes of scratch with them.
   * @throws RangeError when the table would pass 2^28 slots (4 GiB of memory is near).
   */
  private grow(chunks: number, keyBytes: number, tokens: number, scratchUsed: number): void {
    const old = this.regions;
    let bits = old.bits;
    while (loadLimit(bits) < chunks) bits++;
    if (bits > 28) throw new RangeError('the chunk memo cannot hold more chunks: start a new one');
    let arenaCap = old.arenaCap;
    if (keyBytes > arenaCap) arenaCap = Math.max(keyBytes, 2 * arenaCap);
    let tokensCap = old.tokensCap;
    if (tokens > tokensCap) tokensCap = Math.max(tokens, 2 * tokensCap);
    const next = this.place(bits, arenaCap, tokensCap);
    this.memory.reserve(next.scratch + scratchUsed + PAD);
    const u8 = this.memory.u8;
    const count = this.size;
    // Highest region first: each moves up, into room the regions above it have left.
    u8.copyWithin(next.scratch, old.scratch, old.scratch + scratchUsed);
    u8.copyWithin(next.tokens, old.tokens, old.tokens + 4 * this.tokensUsed);
    u8.copyWithin(next.arena, old.arena, old.arena + this.keyBytes);
    // The blocks of codes, the last first: each lies above where it was, and above the blocks before it.
    for (let b = this.codeBlocks - 1; b >= 0; b--) {
      const from = old.codes + 16 * old.maxChunks * b;
      u8.copyWithin(next.codes + 16 * next.maxChunks * b, from, from + 16 * count);
    }
    u8.copyWithin(next.records, old.records, old.records + RECORD_BYTES * count);
    this.regions = next;
    this.writeHeader();
    if (bits !== old.bits) this.kernels.memoRehash(this.header);
  }
}

/**
 * `count` i32 of `i32` from index `at`, copied into `buffer` when large enough, else into a new array at least twice
 * its size (so that a caller keeping it as its next buffer does not reallocate on every slightly larger call); the
 * result is a view of the first `count` values (its `buffer` is the whole array's).
 */
function copyOut(i32: Int32Array, at: number, count: number, buffer: Int32Array | undefined): Int32Array {
  const target = buffer !== undefined && buffer.length >= count ? buffer : new Int32Array(Math.max(count, 2 * (buffer?.length ?? 0)));
  target.set(i32.subarray(at, at + count));
  return target.subarray(0, count);
}

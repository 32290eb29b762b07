/**
 * METEOR's alignment of a batch of lines in WebAssembly (`assembly/meteor.ts`): an instance of its own per metric
 * object, holding the object's tables as the kernel reads them (kernel token id → word id, word → Porter stem, per
 * stem its synonyms), its prepared references and the penalty memo. Every per-line step — token ids
 * to word ids, the three stages, the chunks and the value — then runs in one call per batch; what the kernel does not
 * know (a new word's stem, a new stem's synonyms, a penalty not yet computed) the metric supplies when asked
 * ({@link MeteorAligner.run} stops at the line that needs it; overflow records name the penalties).
 *
 * Memory is placed upward from the heap base; a region that must grow moves to the top (its contents copied), the
 * old place left unused, so at most about as much again as the live regions is wasted.
 */
import type { Csr } from '../text/csr.js';
import type { KernelExports } from './kernels.js';
import { alignUp, LinearMemory } from './linear-memory.js';
import { instantiateKernels } from './load.js';

interface MeteorExports extends KernelExports {
  meteorLines(config: number, nTodo: number): number;
}

/** Matches below which penalties are memoized (the kernel's PENALTY_MATCHES). */
export const ALIGNER_PENALTY_MATCHES = 64;
/** A stem's synonym kind until its synonyms are given, and once it has some (the kernel's SYNONYMS_*). */
const SYNONYMS_UNKNOWN = 1;
const SYNONYMS_SOME = 2;
/** Memo entries: one per (matches, chunks) with 1 ≤ chunks ≤ matches < {@link ALIGNER_PENALTY_MATCHES}. */
const PENALTY_ENTRIES = (ALIGNER_PENALTY_MATCHES * (ALIGNER_PENALTY_MATCHES + 1)) >> 1;


/** A region of the instance's memory: its byte address and how many entries it holds. */
interface Region {
  at: number;
  room: number;
}

/** A reference set as the kernel reads it: the blocks back to back and per segment and reference [start, words]. */
export interface AlignerReferences {
  readonly data: Int32Array;
  readonly index: Int32Array;
  /** References per segment. */
  readonly nRefs: number;
  /** The most words of a reference line, and the words of all. */
  readonly longest: number;
  readonly words: number;
}

/** Config words (see assembly/meteor.ts). */
const C = {
  tokenWord: 0, words: 1, synonymRanges: 2, synonymKinds: 3, synonyms: 4, penalties: 5, refData: 6, refIndex: 7,
  nRefs: 8, tokens: 9, offsets: 10, out: 11, overflow: 12, overflowCount: 13, need: 14, needCount: 15, needKind: 16,
  hypWords: 17, refOf: 18, hypLeft: 19, hypStems: 20, taken: 21, refLeft: 22, refStems: 23, takenRoom: 25,
  wordRoom: 26, stamp: 27, alpha: 28, todo: 30,
} as const;

export class MeteorAligner {
  private readonly kernels: MeteorExports;
  private readonly memory: LinearMemory;
  private readonly config: number;
  private top: number;
  private readonly tokenWord: Region = { at: 0, room: 0 };
  /** Per word id 4 i32: the kernel's mark (stamp, position), the stem, one unused. */
  private readonly words: Region = { at: 0, room: 0 };
  private readonly synonymRanges: Region = { at: 0, room: 0 };
  private readonly synonymKinds: Region = { at: 0, room: 0 };
  private readonly synonyms: Region = { at: 0, room: 0 };
  private readonly penalties: number;
  private readonly refs: Region = { at: 0, room: 0 };
  private readonly refIndex: Region = { at: 0, room: 0 };
  /** The tokens, offsets, values and overflow records of a batch (bytes). */
  private readonly batchRegion: Region = { at: 0, room: 0 };
  /** Scratch: `hyp` entries per hypothesis list, `ref` per reference list. */
  private scratch = { at: 0, hyp: 0, ref: 0 };
  /** Entries of {@link tokenWord} and {@link words} filled, and stems with synonym ranges. */
  private tokensKnown = 0;
  private wordsKnown = 0;
  private stems = 0;
  private synonymsUsed = 0;
  private loaded: AlignerReferences | null = null;
  private lines = 0;
  /** Lines left for the next call. */
  private pending = 0;
  private out = 0;
  private overflow = 0;

  constructor(alpha: number) {
    this.kernels = instantiateKernels() as MeteorExports;
    this.memory = new LinearMemory(this.kernels.memory);
    this.config = alignUp(this.kernels.heapBase(), 16);
    this.top = this.config + 128;
    this.penalties = this.place(8 * PENALTY_ENTRIES);
    this.memory.f64.fill(NaN, this.penalties >> 3, (this.penalties >> 3) + PENALTY_ENTRIES);
    this.memory.f64[(this.config >> 3) + (C.alpha >> 1)] = alpha;
  }

  /** `bytes` bytes at the top (zeroed: memory above the top was never written). */
  private place(bytes: number): number {
    const at = this.top;
    this.top = alignUp(at + bytes, 16);
    this.memory.reserve(this.top);
    return at;
  }

  /** Makes `region` hold `entries` entries of `size` bytes, moving it (contents kept) when it must grow. */
  private room(region: Region, entries: number, size: number): boolean {
    if (entries <= region.room) return false;
    const room = Math.max(entries, 2 * region.room, 256);
    const at = this.place(room * size);
    if (region.room > 0) this.memory.u8.copyWithin(at, region.at, region.at + region.room * size);
    region.at = at;
    region.room = room;
    return true;
  }

  /**
   * Token ids `0 .. count` map to the words `tokenWords` gives them; words `0 .. words` get the stems `wordStems`
   * gives them (-1: not known) unless already held.
   */
  setWords(tokenWords: Int32Array, count: number, wordStems: Int32Array, words: number): void {
    this.room(this.tokenWord, count, 4);
    if (count > this.tokensKnown) {
      this.memory.i32.set(tokenWords.subarray(this.tokensKnown, count), (this.tokenWord.at >> 2) + this.tokensKnown);
      this.tokensKnown = count;
    }
    this.room(this.words, words, 16);
    if (words > this.wordsKnown) {
      const i32 = this.memory.i32;
      const at = this.words.at >> 2;
      for (let w = this.wordsKnown; w < words; w++) i32[at + 4 * w + 2] = wordStems[w];
      this.wordsKnown = words;
    }
  }

  /** Stems `0 .. count` have synonym kinds and ranges (new ones: unknown). */
  stemCount(count: number): void {
    this.room(this.synonymRanges, count, 8);
    this.room(this.synonymKinds, count, 1);
    if (count <= this.stems) return;
    this.memory.u8.fill(SYNONYMS_UNKNOWN, this.synonymKinds.at + this.stems, this.synonymKinds.at + count);
    this.stems = count;
  }

  /** Word `word`'s stem (a stem with a synonym range). */
  setStem(word: number, stem: number): void {
    this.memory.i32[(this.words.at >> 2) + 4 * word + 2] = stem;
  }

  /** Stem `stem`'s synonyms other than itself (stems with synonym ranges). */
  setSynonyms(stem: number, ids: Int32Array): void {
    if (ids.length > 0) this.room(this.synonyms, this.synonymsUsed + ids.length, 4);
    const i32 = this.memory.i32;
    i32.set(ids, (this.synonyms.at >> 2) + this.synonymsUsed);
    const at = (this.synonymRanges.at >> 2) + 2 * stem;
    i32[at] = this.synonymsUsed;
    this.synonymsUsed += ids.length;
    i32[at + 1] = this.synonymsUsed;
    this.memory.u8[this.synonymKinds.at + stem] = ids.length > 0 ? SYNONYMS_SOME : 0;
  }

  /** The penalty memo as the metric holds it (entries it has computed; NaN: not). */
  setPenalties(memo: Float64Array): void {
    this.memory.f64.set(memo.subarray(0, PENALTY_ENTRIES), this.penalties >> 3);
  }

  /** Loads `refs` unless they are the ones loaded last. */
  references(refs: AlignerReferences): void {
    if (refs === this.loaded) return;
    this.room(this.refs, refs.data.length, 4);
    this.room(this.refIndex, refs.index.length, 4);
    const i32 = this.memory.i32;
    i32.set(refs.data, this.refs.at >> 2);
    i32.set(refs.index, this.refIndex.at >> 2);
    this.loaded = refs;
  }

  /** The batch: `rows` (kernel token ids, one row per line). */
  batch(rows: Csr): void {
    const lines = rows.offsets.length - 1;
    const tokens = rows.offsets[lines];
    const nRefs = this.loaded === null ? 0 : this.loaded.nRefs;
    let longest = 0;
    for (let i = 0; i < lines; i++) longest = Math.max(longest, rows.offsets[i + 1] - rows.offsets[i]);
    const offsetsAt = alignUp(4 * tokens, 16);
    const outAt = alignUp(offsetsAt + 4 * (lines + 1), 16);
    const todoAt = outAt + 8 * lines;
    // A line asks for at most the stems of its words and one reference's, or for one stem's synonyms.
    const needAt = alignUp(todoAt + 4 * lines, 16);
    const overflowAt = alignUp(needAt + 4 * (tokens + lines + (this.loaded === null ? 0 : this.loaded.words)), 16);
    this.room(this.batchRegion, overflowAt + 20 * lines * nRefs + 16, 1);
    const i32 = this.memory.i32;
    i32.set(rows.tokens.subarray(0, tokens), this.batchRegion.at >> 2);
    i32.set(rows.offsets, (this.batchRegion.at + offsetsAt) >> 2);
    // Offsets relative to the first token of the rows.
    const first = rows.offsets[0];
    if (first !== 0) for (let i = 0; i <= lines; i++) i32[((this.batchRegion.at + offsetsAt) >> 2) + i] -= first;
    const todo = (this.batchRegion.at + todoAt) >> 2;
    for (let i = 0; i < lines; i++) i32[todo + i] = i;
    this.lines = lines;
    this.pending = lines;
    this.out = this.batchRegion.at + outAt;
    this.overflow = this.batchRegion.at + overflowAt;
    const ref = this.loaded === null ? 0 : this.loaded.longest;
    // Lists of multiples of four entries (16-byte aligned), refOf with room for four more and the reference stems
    // for three more (the kernel reads them four at a time).
    const hypRoom = alignUp(longest, 4) + 4;
    const refRoom = alignUp(ref + 3, 4);
    if (hypRoom > this.scratch.hyp || refRoom > this.scratch.ref) {
      const hyp = Math.max(hypRoom, this.scratch.hyp);
      const r = Math.max(refRoom, this.scratch.ref);
      // hypWords, four spare, refOf, hypLeft, hypStems (hyp each), four spare, taken, refLeft, refStems (r each).
      this.scratch = { at: this.place(4 * (4 * hyp + 8 + 3 * r)), hyp, ref: r };
    }
    const c = this.config >> 2;
    const sc = this.scratch;
    const at = (k: number): number => sc.at + 4 * k;
    // Read again: placing the scratch may have grown the memory.
    const v = this.memory.i32;
    v[c + C.tokens] = this.batchRegion.at;
    v[c + C.offsets] = this.batchRegion.at + offsetsAt;
    v[c + C.out] = this.out;
    v[c + C.overflow] = this.overflow;
    v[c + C.overflowCount] = 0;
    v[c + C.todo] = this.batchRegion.at + todoAt;
    v[c + C.need] = this.batchRegion.at + needAt;
    v[c + C.hypWords] = at(0);
    // The kernel reads the entry before refOf (-1) when it counts chunks, and writes the entry before taken for a
    // word without a match.
    v[c + C.refOf] = at(sc.hyp + 4);
    v[c + C.hypLeft] = at(2 * sc.hyp + 4);
    v[c + C.hypStems] = at(3 * sc.hyp + 4);
    v[c + C.taken] = at(4 * sc.hyp + 8);
    v[c + C.refLeft] = at(4 * sc.hyp + 8 + sc.ref);
    v[c + C.refStems] = at(4 * sc.hyp + 8 + 2 * sc.ref);
    v[c + C.takenRoom] = sc.ref;
  }

  /**
   * Aligns the batch's lines not yet valued; returns how many are left for the next call ({@link needsInto} says what
   * they need), 0 when every line has its value ({@link values}, {@link overflowRecords}).
   */
  run(): number {
    const i32 = this.memory.i32;
    const c = this.config >> 2;
    i32[c + C.tokenWord] = this.tokenWord.at;
    i32[c + C.words] = this.words.at;
    i32[c + C.synonymRanges] = this.synonymRanges.at;
    i32[c + C.synonymKinds] = this.synonymKinds.at;
    i32[c + C.wordRoom] = this.words.room;
    i32[c + C.synonyms] = this.synonyms.at;
    i32[c + C.penalties] = this.penalties;
    i32[c + C.refData] = this.refs.at;
    i32[c + C.refIndex] = this.refIndex.at;
    i32[c + C.nRefs] = this.loaded === null ? 0 : this.loaded.nRefs;
    this.pending = this.kernels.meteorLines(this.config, this.pending);
    return this.pending;
  }

  /** How many needs the lines left have ({@link needsInto}). */
  needCount(): number {
    return this.memory.i32[(this.config >> 2) + C.needCount];
  }

  /**
   * What the lines left need, copied to the start of `out` (room for {@link needCount} entries at least): word ids
   * whose stems are needed, and −1 − the stem ids whose synonyms are; an id may recur.
   */
  needsInto(out: Int32Array): void {
    const i32 = this.memory.i32;
    const at = i32[(this.config >> 2) + C.need] >> 2;
    out.set(i32.subarray(at, at + i32[(this.config >> 2) + C.needCount]));
  }

  /** Whether stem `stem`'s synonyms have been given. */
  hasSynonyms(stem: number): boolean {
    return this.memory.u8[this.synonymKinds.at + stem] !== SYNONYMS_UNKNOWN;
  }

  /** Each line's best value over the references not in the overflow records (-Infinity: none). */
  values(): Float64Array {
    return this.memory.f64.subarray(this.out >> 3, (this.out >> 3) + this.lines);
  }

  /** The overflow records, 5 i32 each: line, matches, chunks, hypothesis words, reference words. */
  overflowRecords(): Int32Array {
    const i32 = this.memory.i32;
    const count = i32[(this.config >> 2) + C.overflowCount];
    return i32.subarray(this.overflow >> 2, (this.overflow >> 2) + 5 * count);
  }
}

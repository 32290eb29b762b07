/**
 * A kernel instance's linear memory seen from TypeScript: typed views that follow `memory.grow` (a grow detaches
 * every view of a non-shared memory, so views are re-created whenever the buffer changed), and a bump layout for
 * placing a call's inputs, scratch and outputs.
 */
import { PaletteError } from '../errors.js';

/** Bytes of a WebAssembly page. */
const PAGE = 65536;
/** wasm32 addresses at most 4 GiB. */
const MAX_PAGES = 65536;

/** Rounds `at` up to a multiple of `alignment` (a power of two, at most 2^30). */
export function alignUp(at: number, alignment: number): number {
  return Math.ceil(at / alignment) * alignment;
}

/** Views on a `WebAssembly.Memory` that stay valid across grows. */
export class LinearMemory {
  private buffer: ArrayBuffer | null = null;
  private u8View = new Uint8Array(0);
  private i32View = new Int32Array(0);
  private u32View = new Uint32Array(0);
  private f64View = new Float64Array(0);

  constructor(readonly memory: WebAssembly.Memory) {}

  /**
   * Makes bytes `[0, end)` addressable, growing the memory when needed (by at least an eighth of its size, so
   * that batches of slowly increasing size do not grow it every call).
   * @throws PaletteError `E_WASM` when `end` exceeds what wasm32 or the host can give.
   */
  reserve(end: number): void {
    const have = this.memory.buffer.byteLength;
    if (end <= have) return;
    const havePages = have / PAGE;
    const needPages = Math.ceil((end - have) / PAGE);
    if (havePages + needPages > MAX_PAGES) {
      throw new PaletteError('E_WASM', `a kernel call needs ${end} bytes of WebAssembly memory, more than 4 GiB: split the batch`);
    }
    const wanted = Math.min(MAX_PAGES - havePages, Math.max(needPages, Math.ceil(havePages / 8)));
    try {
      this.memory.grow(wanted);
    } catch {
      try {
        this.memory.grow(needPages);
      } catch (cause) {
        throw new PaletteError('E_WASM', `cannot grow WebAssembly memory to ${end} bytes: ${(cause as Error).message}`);
      }
    }
  }

  /** Bytes. */
  get u8(): Uint8Array {
    this.refresh();
    return this.u8View;
  }

  /** i32 words (index = byte address / 4). */
  get i32(): Int32Array {
    this.refresh();
    return this.i32View;
  }

  /** u32 words (index = byte address / 4). */
  get u32(): Uint32Array {
    this.refresh();
    return this.u32View;
  }

  /** f64 words (index = byte address / 8). */
  get f64(): Float64Array {
    this.refresh();
    return this.f64View;
  }

  private refresh(): void {
    const buffer = this.memory.buffer;
    if (buffer === this.buffer) return;
    this.buffer = buffer;
    this.u8View = new Uint8Array(buffer);
    this.i32View = new Int32Array(buffer);
    this.u32View = new Uint32Array(buffer);
    this.f64View = new Float64Array(buffer);
  }
}

/** Bump placement of a call's regions, upward from a start address; nothing is freed, the next call starts over. */
export class Layout {
  private at: number;

  constructor(start: number) {
    this.at = alignUp(start, 16);
  }

  /** Places `bytes` bytes (16-byte aligned, so every region suits i32, f64 and v128 access) and returns the address. */
  place(bytes: number): number {
    const address = this.at;
    this.at = alignUp(address + bytes, 16);
    return address;
  }

  /** First free byte. */
  get end(): number {
    return this.at;
  }
}

/**
 * A reusable array for values a caller reads before the next use (a kernel's results, a task's statistics rows): in
 * place of a new array per call, whose memory (outside V8's heap) counts towards the external-memory limit that
 * starts a full garbage collection every few dozen calls. Grown to at least twice its size when short, never shrunk.
 */
export class ResultStore<T extends Int32Array | Float64Array> {
  private store: T;

  constructor(private readonly make: (length: number) => T) {
    this.store = make(0);
  }

  /** The first `length` values of the store, whatever it held: valid until its next use, which overwrites them. */
  space(length: number): T {
    if (this.store.length < length) this.store = this.make(Math.max(length, 2 * this.store.length));
    return this.store.subarray(0, length) as T;
  }

  /** A copy of `source[from .. to)` in the store: valid until the store's next use, which overwrites it. */
  copy(source: T, from: number, to: number): T {
    const out = this.space(to - from);
    (out as Int32Array).set((source as Int32Array).subarray(from, to));
    return out;
  }
}

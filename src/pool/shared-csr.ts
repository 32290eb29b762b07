/**
 * Corpora shared with worker threads without copying: a {@link Csr} (or a plain `Int32Array` side array) is copied
 * once into `SharedArrayBuffer`s, and what is posted to a worker is a small descriptor holding those buffers. The
 * structured clone of a `SharedArrayBuffer` shares its memory, so every worker re-views the same bytes.
 */
import type { Csr } from '../text/csr.js';

/** A shared `Int32Array`: its buffer and its length in elements (the view always starts at byte 0). */
export interface SharedInt32 {
  readonly buffer: SharedArrayBuffer;
  readonly length: number;
}

/** A {@link Csr} whose two arrays live in `SharedArrayBuffer`s; postable to workers as is. */
export interface SharedCsrDescriptor {
  readonly tokens: SharedInt32;
  readonly offsets: SharedInt32;
}

/** Whether an array's memory is already a `SharedArrayBuffer` covering exactly the view (then it is not copied). */
function isWholeShared(array: Int32Array): boolean {
  return (
    array.buffer instanceof SharedArrayBuffer && array.byteOffset === 0 && array.byteLength === array.buffer.byteLength
  );
}

/** Copies an `Int32Array` into a new `SharedArrayBuffer` (or reuses its buffer when it already is one, whole). */
export function shareInt32(array: Int32Array): SharedInt32 {
  if (isWholeShared(array)) return { buffer: array.buffer as SharedArrayBuffer, length: array.length };
  const buffer = new SharedArrayBuffer(array.byteLength);
  new Int32Array(buffer).set(array);
  return { buffer, length: array.length };
}

/** A view (no copy) of a shared `Int32Array`. */
export function viewInt32(shared: SharedInt32): Int32Array {
  return new Int32Array(shared.buffer, 0, shared.length);
}

/**
 * Copies a CSR store into shared memory. Only the tokens the offsets cover are copied, so a store built with spare
 * capacity does not carry it along.
 */
export function shareCsr(csr: Csr): SharedCsrDescriptor {
  const end = csr.offsets.length > 0 ? csr.offsets[csr.offsets.length - 1] : 0;
  const tokens = end === csr.tokens.length ? csr.tokens : csr.tokens.subarray(0, Math.max(0, end));
  return { tokens: shareInt32(tokens), offsets: shareInt32(csr.offsets) };
}

/** The CSR store a descriptor describes, as views of the shared memory (no copy). */
export function viewCsr(shared: SharedCsrDescriptor): Csr {
  return { tokens: viewInt32(shared.tokens), offsets: viewInt32(shared.offsets) };
}

/**
 * The setup of a pool started early, in shared memory (./task-pool.ts): the main thread writes it once into a
 * growable `SharedArrayBuffer` every worker got at its start, and wakes the workers with `Atomics.notify`; a worker
 * waits for it with `Atomics.waitAsync`. Unlike a message on the pool's channel, it needs no turn of the main
 * thread's event loop (which is scoring its own first chunk then) and cannot be missed by a worker that starts
 * listening late; a worker that replaces a dead one reads the same setup.
 *
 * The setup is written as V8 serializes it (structured clone), each `SharedArrayBuffer` in it (found in plain
 * objects and arrays) as a copy of its bytes, which the worker makes into a `SharedArrayBuffer` of its own.
 */
import { createRequire } from 'node:module';

/** node:v8, loaded on first use: a run that starts no early pool (and every `-j 1` run) never loads it. */
let v8: typeof import('node:v8') | undefined;
const v8Module = (): typeof import('node:v8') => (v8 ??= createRequire(import.meta.url)('node:v8') as typeof import('node:v8'));

/** What a worker of a pool started early posts on the pool's channel when it is ready for its setup. */
export const SETUP_HELLO = 'hello';

/** Header (Int32): state, then the byte length of the payload. */
const HEADER_BYTES = 8;
const STATE = 0;
const LENGTH = 1;
/** No setup yet. */
const EMPTY = 0;
/** The setup is in the mailbox. */
export const WRITTEN = 1;
/** The setup comes on the pool's channel instead (it cannot be written, or the workers cannot use it). */
export const ON_CHANNEL = 2;
/** Largest setup the mailbox takes (address space reserved, not memory). */
const MAX_BYTES = 1 << 30;

/** Marks a `SharedArrayBuffer` taken out of the setup: its index among the copied buffers. */
const SAB_KEY = '\u0000paletteSharedArrayBuffer';

/** A new empty mailbox. */
export function createSetupMailbox(): SharedArrayBuffer {
  const Growable = SharedArrayBuffer as unknown as new (length: number, options: { maxByteLength: number }) => SharedArrayBuffer;
  return new Growable(HEADER_BYTES, { maxByteLength: MAX_BYTES });
}

function takeBuffers(value: unknown, buffers: SharedArrayBuffer[]): unknown {
  if (value instanceof SharedArrayBuffer) {
    buffers.push(value);
    return { [SAB_KEY]: buffers.length - 1 };
  }
  if (Array.isArray(value)) return value.map((v) => takeBuffers(v, buffers));
  if (value !== null && typeof value === 'object') {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return value;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) out[key] = takeBuffers((value as Record<string, unknown>)[key], buffers);
    return out;
  }
  return value;
}

function putBuffers(value: unknown, buffers: readonly SharedArrayBuffer[]): unknown {
  if (Array.isArray(value)) return value.map((v) => putBuffers(v, buffers));
  if (value !== null && typeof value === 'object') {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return value;
    const record = value as Record<string, unknown>;
    if (typeof record[SAB_KEY] === 'number') return buffers[record[SAB_KEY] as number];
    for (const key of Object.keys(record)) record[key] = putBuffers(record[key], buffers);
  }
  return value;
}

/**
 * Writes `setup` into the mailbox and wakes the waiting workers; returns false (nothing written) when it cannot be
 * serialized so.
 */
export function writeSetup(mailbox: SharedArrayBuffer, setup: unknown): boolean {
  const header = new Int32Array(mailbox, 0, 2);
  try {
    const buffers: SharedArrayBuffer[] = [];
    const serializer = new (v8Module().Serializer)();
    serializer.writeHeader();
    serializer.writeValue(takeBuffers(setup, buffers));
    const value = serializer.releaseBuffer();
    let length = 4 + 4 * buffers.length + value.length;
    for (const b of buffers) length += b.byteLength;
    (mailbox as unknown as { grow(n: number): void }).grow(HEADER_BYTES + length);
    const bytes = new Uint8Array(mailbox, HEADER_BYTES, length);
    const view = new DataView(mailbox, HEADER_BYTES, length);
    view.setUint32(0, buffers.length, true);
    let at = 4;
    for (const b of buffers) {
      view.setUint32(at, b.byteLength, true);
      at += 4;
      bytes.set(new Uint8Array(b), at);
      at += b.byteLength;
    }
    bytes.set(value, at);
    header[LENGTH] = length;
  } catch {
    return false;
  }
  Atomics.store(header, STATE, WRITTEN);
  Atomics.notify(header, STATE);
  return true;
}

/** Tells the waiting workers that the setup comes on the pool's channel. */
export function setupOnChannel(mailbox: SharedArrayBuffer): void {
  const header = new Int32Array(mailbox, 0, 2);
  Atomics.store(header, STATE, ON_CHANNEL);
  Atomics.notify(header, STATE);
}

/** Waits until the main thread has written the mailbox: {@link WRITTEN} or {@link ON_CHANNEL}. */
export async function waitForSetup(mailbox: SharedArrayBuffer): Promise<number> {
  const header = new Int32Array(mailbox, 0, 2);
  for (;;) {
    const state = Atomics.load(header, STATE);
    if (state !== EMPTY) return state;
    const waiting = (Atomics as unknown as { waitAsync(a: Int32Array, i: number, v: number): { async: boolean; value: unknown } })
      .waitAsync(header, STATE, EMPTY);
    if (waiting.async) await waiting.value;
  }
}

/** The setup a {@link WRITTEN} mailbox holds (its shared buffers copied into new ones). */
export function readSetup(mailbox: SharedArrayBuffer): unknown {
  const header = new Int32Array(mailbox, 0, 2);
  const length = header[LENGTH];
  const bytes = new Uint8Array(mailbox, HEADER_BYTES, length);
  const view = new DataView(mailbox, HEADER_BYTES, length);
  const count = view.getUint32(0, true);
  let at = 4;
  const buffers: SharedArrayBuffer[] = [];
  for (let i = 0; i < count; i++) {
    const n = view.getUint32(at, true);
    at += 4;
    const copy = new SharedArrayBuffer(n);
    new Uint8Array(copy).set(bytes.subarray(at, at + n));
    buffers.push(copy);
    at += n;
  }
  const deserializer = new (v8Module().Deserializer)(bytes.slice(at));
  deserializer.readHeader();
  return putBuffers(deserializer.readValue(), buffers);
}

/**
 * The few browser globals the browser adapter uses, declared here: the project compiles against Node's types (no
 * DOM library), and these shapes are all the adapter relies on, in pages and in workers alike.
 */

/** A dedicated worker as its creator sees it. */
export interface WebWorker {
  postMessage(message: unknown, transfer?: readonly unknown[]): void;
  terminate(): void;
  onmessage: ((event: { readonly data: unknown }) => void) | null;
  onerror: ((event: { readonly message?: string }) => void) | null;
}

/** The global scope of a worker, as the worker sees it. */
export interface WorkerScope {
  postMessage(message: unknown, transfer?: readonly unknown[]): void;
  onmessage: ((event: { readonly data: unknown }) => void) | null;
}

/** A `Blob` or `File`: read in slices. */
export interface BlobLike {
  readonly size: number;
  readonly name?: string;
  slice(start: number, end: number): { arrayBuffer(): Promise<ArrayBuffer> };
}

interface WebGlobals {
  readonly Worker?: new (url: string | URL, options?: { type?: 'module' | 'classic'; name?: string }) => WebWorker;
  readonly navigator?: { readonly hardwareConcurrency?: number };
  readonly Blob?: abstract new (...args: never[]) => BlobLike;
}

/** The browser globals the adapter uses, absent where the platform has none. */
export function webGlobals(): WebGlobals {
  return globalThis as unknown as WebGlobals;
}

/** Whether `x` is a `Blob` (a `File` is one). */
export function isBlob(x: unknown): x is BlobLike {
  const B = webGlobals().Blob;
  return B !== undefined && x instanceof B;
}

/** Logical processors the browser reports (`navigator.hardwareConcurrency`), 1 where it says nothing. */
export function hardwareConcurrency(): number {
  const n = webGlobals().navigator?.hardwareConcurrency;
  return typeof n === 'number' && n >= 1 ? Math.floor(n) : 1;
}

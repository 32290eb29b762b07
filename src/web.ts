/**
 * Palette in the browser (`palette-mt/browser`): the portable core (./core.ts, every metric and helper, the same
 * numbers as Node) with what a page adds — the kernels fetched and compiled once ({@link loadWasm}), a pool of Web
 * Workers for the corpus engine ({@link webWorkerPool}, `navigator.hardwareConcurrency` threads), inputs as strings,
 * `File`s or `ArrayBuffer`s read as the CLI reads files ({@link readInputLines}), and corpus scoring of several
 * systems with progress ({@link scoreCorpora}). No Node module is imported here or below.
 *
 * @example
 * ```ts
 * import { loadWasm, scoreCorpora, webWorkerPool } from 'palette-mt/browser';
 * await loadWasm(); // release.wasm beside the bundle
 * const { systems } = await scoreCorpora([{ name: 'a.de', input: fileA }], [{ name: 'ref.de', input: refFile }], {
 *   metrics: ['bleu', 'chrf'],
 *   pool: webWorkerPool(),
 *   onProgress: ({ phase, done, total }) => console.log(phase, done / total),
 * });
 * ```
 */
export * from './core.js';
export { loadWasm, type WasmSource } from './browser/wasm.js';
export { webWorkerPool, type WebWorkerPoolOptions } from './browser/worker-pool.js';
export { READ_CHUNK, readBlob, readInputLines, type ReadInputOptions, type TextInput } from './browser/read.js';
export {
  scoreCorpora,
  type CorporaScores,
  type ReferenceInput,
  type ScoreCorporaOptions,
  type ScoreProgress,
  type SystemInput,
  type SystemScore,
} from './browser/score.js';
export { hardwareConcurrency, type BlobLike } from './browser/web-globals.js';

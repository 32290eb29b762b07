/**
 * ORANGE on several threads: whole blocks of sentences go to piscina workers (./worker.ts), each with its own
 * scorer and kernel instances, and come back as per-sentence terms. The main thread only reads the n-best list and
 * keeps the terms in block order, so the result is the in-thread result bit for bit (a block's terms depend on
 * nothing but the block and the references). The kernels are compiled once here and handed to the workers, the
 * pattern of src/pool/ngram-pool.ts.
 */
import { createRequire } from 'node:module';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { wasmModule } from '../../wasm/load.js';
import type { OrangeBlock } from '../../meta/orange/block-terms.js';
import type { OrangeVariant } from '../../meta/orange/variants.js';
import { InputError, type PaletteErrorCode } from '../../errors.js';
import type { MetricSettings } from '../../metrics/registry.js';
import type { OrangeWorkerData, OrangeWorkerError } from './worker.js';

/** The worker file: compiled `worker.js` beside this module in a build, `worker.ts` through tsx under vitest/tsx. */
function workerFile(): { filename: string; execArgv: string[] } {
  const js = new URL('./worker.js', import.meta.url);
  if (import.meta.url.endsWith('.js') && existsSync(fileURLToPath(js))) return { filename: js.href, execArgv: [] };
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { filename: new URL('./worker.ts', import.meta.url).href, execArgv: ['--import', tsx] };
}

/** A pool of ORANGE workers for one reference set and one list of variants. */
export class OrangePool {
  private readonly piscina: Piscina;

  /**
   * @param workers threads (≥ 1).
   * @param settings metric settings of the Metric-API variants: each worker builds its metrics (loads a paraphrase
   * table) once from them.
   */
  constructor(
    variants: readonly OrangeVariant[],
    refStreams: readonly (readonly string[])[],
    readonly workers: number,
    settings: MetricSettings = {},
  ) {
    if (!Number.isInteger(workers) || workers < 1) throw new RangeError(`workers must be an integer ≥ 1 (got ${workers})`);
    const { filename, execArgv } = workerFile();
    const workerData: OrangeWorkerData = { module: wasmModule(), variants, refStreams, settings };
    this.piscina = new Piscina({ filename, execArgv, workerData, minThreads: workers, maxThreads: workers });
  }

  /**
   * The terms of one block, per variant.
   * @throws InputError a worker's input error (sent back as data: a thrown error would lose its class).
   */
  async run(block: OrangeBlock): Promise<Float64Array[]> {
    const result = (await this.piscina.run(block)) as Float64Array[] | OrangeWorkerError;
    if (Array.isArray(result)) return result;
    const { code, message, file, line } = result.inputError;
    throw new InputError(code as PaletteErrorCode, message, { file, line });
  }

  /** Stops the workers. */
  async close(): Promise<void> {
    await this.piscina.destroy();
  }
}

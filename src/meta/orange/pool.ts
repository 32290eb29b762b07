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
import type { OrangeBlock } from './block-terms.js';
import type { OrangeVariant } from './variants.js';
import type { OrangeWorkerData } from './worker.js';

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

  /** @param workers threads (≥ 1). */
  constructor(variants: readonly OrangeVariant[], refStreams: readonly (readonly string[])[], readonly workers: number) {
    if (!Number.isInteger(workers) || workers < 1) throw new RangeError(`workers must be an integer ≥ 1 (got ${workers})`);
    const { filename, execArgv } = workerFile();
    const workerData: OrangeWorkerData = { module: wasmModule(), variants, refStreams };
    this.piscina = new Piscina({ filename, execArgv, workerData, minThreads: workers, maxThreads: workers });
  }

  /** The terms of one block, per variant. */
  run(block: OrangeBlock): Promise<Float64Array[]> {
    return this.piscina.run(block) as Promise<Float64Array[]>;
  }

  /** Stops the workers. */
  async close(): Promise<void> {
    await this.piscina.destroy();
  }
}

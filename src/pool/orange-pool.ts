/**
 * ORANGE on several threads: whole blocks of sentences go to the workers of the pool (./task-pool.ts, ORANGE
 * kind: ./kinds/orange.ts), each with its own scorer and kernel instances, and come back as per-sentence terms. The
 * caller (src/node/orange/evaluate.ts) only reads the n-best list and keeps the terms in block order, so the result
 * is the in-thread result bit for bit (a block's terms depend on nothing but the block and the references).
 */
import { InputError, type PaletteErrorCode } from '../errors.js';
import type { OrangeBlock } from '../meta/orange/block-terms.js';
import type { OrangeVariant } from '../meta/orange/variants.js';
import type { MetricSettings } from '../metrics/registry.js';
import { TaskPool } from './task-pool.js';

/** A pool of ORANGE workers for one reference set and one list of variants. */
export class OrangePool {
  private readonly pool: TaskPool<'orange'>;
  private nextBlock = 0;

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
    this.pool = new TaskPool({ kind: 'orange', workers, setup: { variants, refStreams, settings } });
  }

  /**
   * The terms of one block, per variant.
   * @throws InputError a worker's input error (sent back as data: a thrown error would lose its class);
   * PoolTaskError when the block fails twice.
   */
  async run(block: OrangeBlock): Promise<Float64Array[]> {
    const b = this.nextBlock++;
    const { sentences } = block;
    const label = (): string => `ORANGE block ${b} (sentences ${sentences[0]}..${sentences[sentences.length - 1]})`;
    const { result } = await this.pool.run(block, { label });
    if (Array.isArray(result)) return result;
    const { code, message, file, line } = result.inputError;
    throw new InputError(code as PaletteErrorCode, message, { file, line });
  }

  /** Stops the workers. */
  async close(): Promise<void> {
    await this.pool.close();
  }
}

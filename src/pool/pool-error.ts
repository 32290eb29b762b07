/**
 * The error of a pool call whose task failed on its retry too. It is a {@link PaletteError} so that callers and the
 * CLI handle it like any other domain error (code `E_POOL`).
 */
import { PaletteError } from '../errors.js';

/** A pool task failed twice (its first failure was retried once); `cause` is the last failure. */
export class PoolTaskError extends PaletteError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('E_POOL', message);
    this.name = 'PoolTaskError';
    if (options.cause !== undefined) (this as { cause?: unknown }).cause = options.cause;
  }
}

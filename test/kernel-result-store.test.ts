/**
 * Kernel results copied into reusable stores (`ResultStore`, the `reuse` option of the edit engine): the same
 * values as the fresh copies, call after call, whether the store has to grow for a larger batch or serves a smaller
 * one with the larger one's values still behind it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EditEngine, type EditKernelExports } from '../src/wasm/edit.js';
import { instantiateKernels } from '../src/wasm/load.js';
import { ResultStore } from '../src/wasm/linear-memory.js';
import { pairBatchArbitrary, sequenceArbitrary } from './helpers/pair-batches.js';

const batches = fc.array(pairBatchArbitrary(sequenceArbitrary(fc.integer({ min: 0, max: 12 }))), { minLength: 2, maxLength: 6 });

describe('ResultStore', () => {
  it('copies a range, grows for a longer one, and a later shorter copy is exactly its own values', () => {
    const store = new ResultStore<Float64Array>((n) => new Float64Array(n));
    const source = Float64Array.from({ length: 100 }, (_, i) => i + 0.5);
    expect(Array.from(store.copy(source, 10, 13))).toEqual([10.5, 11.5, 12.5]);
    const long = store.copy(source, 0, 90);
    expect(long.length).toBe(90);
    expect(long[89]).toBe(89.5);
    expect(Array.from(store.copy(source, 50, 52))).toEqual([50.5, 51.5]);
  });
});

describe('reused kernel results equal fresh ones', () => {
  it('edit distances and alignment counts, batch after batch', () => {
    const engine = new EditEngine(instantiateKernels() as EditKernelExports);
    fc.assert(
      fc.property(batches, (list) => {
        for (const batch of list) {
          const fresh = engine.editDistances(batch, { alignment: true });
          const reused = engine.editDistances(batch, { alignment: true, reuse: true });
          expect(Array.from(reused.distances)).toEqual(Array.from(fresh.distances));
          expect(Array.from(reused.ops!)).toEqual(Array.from(fresh.ops!));
        }
      }),
      { numRuns: 60 },
    );
  });
});

/**
 * Smoke test of bench/rouge.ts: the module (and js-rouge, its peer) loads and exports the entry bench/index.ts
 * calls. The benchmark itself never runs in tests.
 */
import { describe, expect, it } from 'vitest';

describe('bench/rouge.ts', () => {
  it('imports and exports benchRouge', async () => {
    const bench = await import('../bench/rouge.js');
    expect(typeof bench.benchRouge).toBe('function');
  });
});

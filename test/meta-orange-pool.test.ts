/**
 * ORANGE on the worker pool (src/pool/orange-pool.ts): the same per-sentence terms, bit for bit and in the same
 * order, as in this thread, for blocks of any size (the Joshua slice of test/fixtures/orange).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { InputError } from '../src/errors.js';
import { evaluateOrange } from '../src/node/orange/evaluate.js';
import { parseOrangeMetrics } from '../src/meta/orange/variants.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/orange/${name}`, import.meta.url));

describe('ORANGE pool', () => {
  it('2 workers give the in-thread terms for blocks of 1 sentence and of all', async () => {
    const run = {
      nbest: fixture('joshua.nbest'),
      refs: [0, 1, 2, 3].map((j) => fixture(`joshua.ref.${j}`)),
      variants: parseOrangeMetrics(['bleus1-9', 'nist', 'rouge-l', 'rouge-w-1.5', 'rouge-s4', 'rouge-su*', 'wer', 'per']),
    };
    const inThread = await evaluateOrange({ ...run, blockCandidates: 1 });
    expect(inThread.sentences).toEqual(Int32Array.from([0, 1, 2, 3, 4]));
    for (const blockCandidates of [1, 1000]) {
      const pooled = await evaluateOrange({ ...run, blockCandidates, workers: 2 });
      expect(pooled).toEqual(inThread);
    }
  }, 60_000);

  it('a bad line after pooled blocks is the InputError of that line, and the pool stops', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'palette-orange-pool-'));
    try {
      const bad = join(dir, 'nbest');
      writeFileSync(bad, `${readFileSync(fixture('joshua.nbest'), 'utf8')}4 ||| no features\n`);
      const run = evaluateOrange({
        nbest: bad,
        refs: [0, 1, 2, 3].map((j) => fixture(`joshua.ref.${j}`)),
        variants: parseOrangeMetrics(['bleus4', 'wer']),
        blockCandidates: 1,
        workers: 2,
      });
      await expect(run).rejects.toThrow(InputError);
      await expect(run).rejects.toMatchObject({ file: bad, line: 42 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

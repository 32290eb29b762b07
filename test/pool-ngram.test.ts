/**
 * The n-gram worker pool gives the in-thread rows bit for bit, for 1, 2 and 3 workers and any task size, on random
 * batches (several hypotheses per segment) and on the WMT17 en-de sample; a failed task is retried once — every task
 * a dying worker held fails with it and is retried once; a task that fails twice rejects the call.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { csrFromArrays, type Csr } from '../src/text/csr.js';
import { NgramPool } from '../src/pool/ngram-pool.js';
import { PoolTaskError } from '../src/pool/pool-error.js';
import { TASKS_PER_WORKER } from '../src/pool/task-pool.js';
import { planTasks } from '../src/pool/ngram-task.js';
import { bleuTokenize, getTokenizer } from '../src/text/tokenizers/index.js';
import { internLines, Vocabulary } from '../src/text/intern.js';
import { clippedNgramCounts, ngramWeights, type NgramBatch } from '../src/wasm/ngram.js';
import { mulberry32 } from './helpers/mulberry32.js';

const prng = mulberry32;

/** Random batch: 1–5 hypotheses and 0–4 references per segment, lengths 0–30, a small vocabulary (many matches). */
function randomBatch(segments: number, seed: number): NgramBatch {
  const random = prng(seed);
  const row = (): number[] => Array.from({ length: Math.floor(random() * 31) }, () => Math.floor(random() * 12));
  const hyps: number[][] = [];
  const hypSegment: number[] = [];
  const refs: number[][] = [];
  const segRefOffsets = [0];
  for (let s = 0; s < segments; s++) {
    const nh = 1 + Math.floor(random() * 5);
    for (let i = 0; i < nh; i++) {
      hyps.push(row());
      hypSegment.push(s);
    }
    const nr = Math.floor(random() * 5);
    for (let i = 0; i < nr; i++) refs.push(row());
    segRefOffsets.push(refs.length);
  }
  return {
    hyps: csrFromArrays(hyps), hypSegment: Int32Array.from(hypSegment), refs: csrFromArrays(refs),
    segRefOffsets: Int32Array.from(segRefOffsets),
  };
}

/** The WMT17 en-de sample: the three systems' hypotheses of each segment (segment-major) against the reference. */
function wmtBatch(): NgramBatch {
  const dir = new URL('../samples/wmt17-en-de/', import.meta.url);
  const lines = (name: string): string[] => readFileSync(new URL(name, dir), 'utf8').replace(/\n$/, '').split('\n');
  const tok = getTokenizer('13a');
  const ref = lines('ref.de').map((l) => bleuTokenize(l, tok, false));
  const systems = ['LIUM-NMT.4900.de', 'online-B.0.de', 'uedin-nmt.4722.de'].map((f) => lines(`sys/${f}`));
  const vocab = new Vocabulary();
  const hypLines: string[] = [];
  const hypSegment: number[] = [];
  for (let s = 0; s < ref.length; s++) {
    for (const sys of systems) {
      hypLines.push(bleuTokenize(sys[s], tok, false));
      hypSegment.push(s);
    }
  }
  const refs: Csr = internLines(vocab, ref);
  const hyps: Csr = internLines(vocab, hypLines);
  return { hyps, hypSegment: Int32Array.from(hypSegment), refs, segRefOffsets: Int32Array.from({ length: ref.length + 1 }, (_, i) => i) };
}

function bits(rows: Float64Array): Uint8Array {
  return new Uint8Array(rows.buffer, rows.byteOffset, rows.byteLength).slice();
}

/** Rows of `batch` restricted to hypotheses `a .. b` (a sub-batch of whole segments is scored by the caller). */
function hypSlice(batch: NgramBatch, a: number, b: number): NgramBatch {
  const o = batch.hyps.offsets;
  return {
    hyps: { tokens: batch.hyps.tokens.subarray(o[a], o[b]), offsets: o.slice(a, b + 1).map((x) => x - o[a]) },
    hypSegment: batch.hypSegment === null ? null : batch.hypSegment.slice(a, b),
    refs: batch.refs,
    segRefOffsets: batch.segRefOffsets,
  };
}

const pools = new Map<number, NgramPool>();
function pool(workers: number): NgramPool {
  let p = pools.get(workers);
  if (p === undefined) {
    // minParallelWork 0: every batch of two or more hypotheses goes to the workers.
    p = new NgramPool({ workers, minParallelWork: 0 });
    pools.set(workers, p);
  }
  return p;
}
afterAll(async () => {
  await Promise.all([...pools.values()].map((p) => p.close()));
});

const batches: [string, () => NgramBatch][] = [
  ['random', () => randomBatch(80, 7)],
  ['random, one hypothesis per segment (hypSegment null)', () => {
    const b = randomBatch(200, 8);
    // keep the first hypothesis of each segment
    const rows: Int32Array[] = [];
    let s = -1;
    for (let h = 0; h < b.hypSegment!.length; h++) {
      if (b.hypSegment![h] !== s) {
        s = b.hypSegment![h];
        rows.push(b.hyps.tokens.subarray(b.hyps.offsets[h], b.hyps.offsets[h + 1]));
      }
    }
    return { ...b, hyps: csrFromArrays(rows), hypSegment: null };
  }],
  ['WMT17 en-de sample', wmtBatch],
];

describe('NgramPool: the in-thread rows bit for bit', () => {
  for (const [name, make] of batches) {
    it(`${name}: 1, 2, 3 workers × tasks of one segment, ~7 segments, the whole batch`, async () => {
      const batch = make();
      const expected = bits(clippedNgramCounts(batch, 4));
      const nHyps = batch.hyps.offsets.length - 1;
      const perHypWork = (batch.hyps.offsets[nHyps] + batch.refs.offsets[batch.refs.offsets.length - 1]) / nHyps;
      for (const workers of [1, 2, 3]) {
        for (const taskWork of [1, 7 * perHypWork, Infinity]) {
          const p = pool(workers);
          const rows = await p.clippedNgramCounts(batch, 4, { taskWork });
          expect(p.lastCall.inThread).toBe(false);
          expect(p.lastCall.tasks).toBe(planTasks(batch, taskWork).length - 1);
          expect(bits(rows)).toEqual(expected);
        }
      }
    });
  }

  it('batches of 1, 7 and all hypotheses give the rows of the whole batch', async () => {
    const batch = randomBatch(120, 11);
    const expected = bits(clippedNgramCounts(batch, 4));
    const nHyps = batch.hyps.offsets.length - 1;
    for (const size of [1, 7, nHyps]) {
      const parts: Uint8Array[] = [];
      for (let a = 0; a < nHyps; a += size) {
        parts.push(bits(await pool(2).clippedNgramCounts(hypSlice(batch, a, Math.min(nHyps, a + size)), 4, { taskWork: 20 })));
      }
      expect(Buffer.concat(parts)).toEqual(Buffer.from(expected));
    }
  });

  it('with NIST weights (3 × maxOrder columns), on the WMT17 sample', async () => {
    const batch = wmtBatch();
    const weights = ngramWeights(batch.refs, 5);
    const expected = bits(clippedNgramCounts(batch, 5, weights));
    const rows = await pool(2).clippedNgramCounts(batch, 5, { weights, taskWork: 500 });
    expect(pool(2).lastCall.tasks).toBeGreaterThan(4);
    expect(bits(rows)).toEqual(expected);
  });

  it('reports the time spent inside its tasks (0 in-thread), never more than workers × the call', async () => {
    const p = pool(2);
    const batch = randomBatch(3000, 4);
    const t0 = performance.now();
    await p.clippedNgramCounts(batch, 4, { taskWork: 2000 });
    const wall = performance.now() - t0;
    expect(p.lastCall.tasks).toBeGreaterThan(4);
    expect(p.lastCall.busyMs).toBeGreaterThan(0);
    expect(p.lastCall.busyMs).toBeLessThanOrEqual(2 * wall);
    const q = new NgramPool({ workers: 1 });
    await q.clippedNgramCounts(batch, 4);
    expect(q.lastCall).toEqual({ inThread: true, tasks: 0, retries: 0, retriedTasks: [], busyMs: 0 });
    await q.close();
  });

  it('one worker runs in-thread by default', async () => {
    const p = new NgramPool({ workers: 1 });
    const batch = randomBatch(2000, 4);
    expect(bits(await p.clippedNgramCounts(batch, 4, { taskWork: 10 }))).toEqual(bits(clippedNgramCounts(batch, 4)));
    expect(p.lastCall.inThread).toBe(true);
    await p.close();
  });

  it('small batches run in-thread without starting workers', async () => {
    const p = new NgramPool({ workers: 2 });
    const batch = randomBatch(20, 3);
    expect(bits(await p.clippedNgramCounts(batch, 4))).toEqual(bits(clippedNgramCounts(batch, 4)));
    expect(p.lastCall.inThread).toBe(true);
    await p.close();
  });

  it('bad input is refused before any task runs', async () => {
    const batch = randomBatch(50, 5);
    const bad = { ...batch, hypSegment: batch.hypSegment!.map((s, i) => (i === 3 ? 999 : s)) };
    await expect(pool(2).clippedNgramCounts(bad, 4, { taskWork: 10 })).rejects.toThrow(RangeError);
  });
});

describe('NgramPool: failed tasks', () => {
  const batch = randomBatch(100, 9);
  for (const kind of ['throw', 'exit'] as const) {
    it(`a task whose worker ${kind === 'exit' ? 'dies' : 'throws'} once is retried and the rows are exact`, async () => {
      const p = pool(2);
      const rows = await p.clippedNgramCounts(batch, 4, { taskWork: 50, injectFault: { task: 2, kind, attempts: 1 } });
      const { retries, retriedTasks } = p.lastCall;
      if (kind === 'throw') {
        expect(retriedTasks).toEqual([2]);
      } else {
        // The dead worker may have held a second task (queued behind task 2); it failed with it and was retried too.
        expect(retriedTasks).toContain(2);
        expect(retriedTasks.length).toBeLessThanOrEqual(TASKS_PER_WORKER);
      }
      expect(new Set(retriedTasks).size).toBe(retriedTasks.length);
      expect(retries).toBe(retriedTasks.length);
      expect(bits(rows)).toEqual(bits(clippedNgramCounts(batch, 4)));
    });
    it(`a task that fails twice (${kind}) rejects the call with PoolTaskError`, async () => {
      const p = pool(2);
      const run = p.clippedNgramCounts(batch, 4, { taskWork: 50, injectFault: { task: 1, kind, attempts: 2 } });
      await expect(run).rejects.toBeInstanceOf(PoolTaskError);
      // the pool still works afterwards
      expect(bits(await p.clippedNgramCounts(batch, 4, { taskWork: 50 }))).toEqual(bits(clippedNgramCounts(batch, 4)));
    });
  }

  it('a dying worker fails every task it holds; each of them is retried once and the rows are exact', async () => {
    // One started worker: tasks 0 and 1 are both posted to it at once, so its exit in task 0 takes task 1 along.
    const p = new NgramPool({ workers: 1, minParallelWork: 0 });
    try {
      await p.start();
      const rows = await p.clippedNgramCounts(batch, 4, { taskWork: 50, injectFault: { task: 0, kind: 'exit', attempts: 1 } });
      expect(p.lastCall.tasks).toBeGreaterThan(TASKS_PER_WORKER);
      expect(p.lastCall.retriedTasks).toEqual(Array.from({ length: TASKS_PER_WORKER }, (_, t) => t));
      expect(bits(rows)).toEqual(bits(clippedNgramCounts(batch, 4)));
    } finally {
      await p.close();
    }
  });
});

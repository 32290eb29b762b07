/**
 * The scheduling loop of src/engine/nbest/run.ts while the runner's workers are still starting: the chunks posted
 * to a runner whose `started` is false may wait for it, and the loop must go on scoring chunks itself meanwhile
 * instead of waiting for them once its usual number of chunks is in flight (a core idle for a worker's whole start
 * on a two-core machine). Output bytes are those of the in-thread run.
 */
import { describe, expect, it } from 'vitest';
import '../src/node/install.js';
import { chunkJobContext, runChunkJob, streamReferenceSource, type ChunkResult } from '../src/engine/nbest/chunk-job.js';
import { NbestRun, type NbestChunkRunner } from '../src/engine/nbest/run.js';
import { segmentChunksOf } from '../src/engine/nbest/segment-stream.js';
import type { SegmentChunk } from '../src/corpus/stream/segment-chunks.js';

const SEGMENTS = 200;
const refs = [Array.from({ length: SEGMENTS }, (_, s) => `the cat ${s} sat on the mat`)];
const list = Array.from({ length: SEGMENTS }, (_, s) =>
  Array.from({ length: 5 }, (_, k) => `${s} ||| the cat ${s + k} sat on mat ||| f= ${k} ||| ${-k}`).join('\n'),
).join('\n') + '\n';
const task = { path: 'list', format: 'moses' as const, allowDuplicates: false, sentenceScores: false };
const spec = { ids: ['bleu'], settings: {} };

/** The in-thread run's bytes. */
async function inThread(): Promise<Buffer> {
  const run = new NbestRun({ ...spec, registry: undefined, references: refs, task });
  const parts: Uint8Array[] = [];
  await run.score({ chunks: () => segmentChunksOf(new TextEncoder().encode(list), 200), workers: 1, taskSize: 200, output: (b) => parts.push(b) });
  return Buffer.concat(parts);
}

/**
 * Runs the list at `workers: 2` with a runner of capacity 2 whose `started` turns true once the loop has read
 * `startAt` chunks; the tasks posted before that settle only once it has read `releaseAt` chunks (a worker that
 * reports ready before it has done its first tasks). The loop's usual window is 2 + 6 × 2 = 14 chunks: only a loop
 * that does not stop to wait for those tasks reads that far. Rejects when it waits (20 s).
 */
async function runStarting(startAt: number, releaseAt: number): Promise<{ bytes: Buffer; scoredHere: number; chunks: number }> {
  const context = chunkJobContext(task, spec, streamReferenceSource(refs), undefined);
  let started = false;
  const held: (() => void)[] = [];
  let posted = 0;
  let runs = 0;
  let n = 0;
  const runner: NbestChunkRunner = {
    capacity: 2,
    get inFlight() {
      return posted - runs;
    },
    get started() {
      return started;
    },
    counters: { tasks: 0, retries: 0, busyMs: 0 },
    run(chunk: SegmentChunk): Promise<ChunkResult> {
      posted++;
      const result = runChunkJob(context, chunk.bytes, chunk.firstLine, chunk.byteOffset);
      return new Promise((resolve) => {
        const settle = (): void => {
          runs++;
          (this.counters as { tasks: number }).tasks++;
          resolve(result);
        };
        if (n >= releaseAt) setTimeout(settle, 1);
        else held.push(settle);
      });
    },
    close: async () => {},
  };
  return Promise.race([
    (async () => {
      const chunks = segmentChunksOf(new TextEncoder().encode(list), 200);
      const run = new NbestRun({ ...spec, registry: undefined, references: refs, task });
      const parts: Uint8Array[] = [];
      const info = await run.score({
        chunks: async function* () {
          for await (const c of chunks) {
            if (++n === startAt) started = true;
            if (n === releaseAt) for (const release of held.splice(0)) release();
            yield c;
          }
        },
        workers: 2,
        runner: () => runner,
        taskSize: 200,
        output: (b) => parts.push(b),
      });
      return { bytes: Buffer.concat(parts), scoredHere: info.tasks - (info.poolTasks ?? 0), chunks: n };
    })(),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the loop waited for the tasks of a worker still starting')), 20_000)),
  ]);
}

describe('n-best scheduling while the workers start', () => {
  it('a runner not yet started: the loop scores on past its usual window, then writes in order', async () => {
    const expected = await inThread();
    // The worker starts and does its first tasks once the loop has read 40 chunks.
    const { bytes, scoredHere } = await runStarting(40, 40);
    expect(scoredHere).toBeGreaterThan(30);
    expect(bytes.equals(expected)).toBe(true);
  });

  it('a runner started but not done with the tasks posted before: the loop scores on past its usual window', async () => {
    const expected = await inThread();
    // Ready after 40 chunks, its first tasks done after 70: a loop that goes back to its usual window as soon as the
    // runner is ready waits at 40 for tasks that settle only at 70.
    const { bytes, scoredHere, chunks } = await runStarting(40, 70);
    expect(chunks).toBeGreaterThan(70);
    expect(scoredHere).toBeGreaterThan(60);
    expect(bytes.equals(expected)).toBe(true);
  });
});

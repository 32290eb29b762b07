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

describe('n-best scheduling while the workers start', () => {
  it('a runner not yet started: the loop scores on past its usual window, then writes in order', async () => {
    const expected = await inThread();
    const context = chunkJobContext(task, spec, streamReferenceSource(refs), undefined);
    let started = false;
    const held: (() => void)[] = [];
    let posted = 0;
    let runs = 0;
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
        // A starting worker: its tasks settle only once it has started (after the loop scored ~40 chunks itself).
        return new Promise((resolve) => {
          const settle = (): void => {
            runs++;
            (this.counters as { tasks: number }).tasks++;
            resolve(result);
          };
          if (started) setTimeout(settle, 1);
          else held.push(settle);
        });
      },
      close: async () => {},
    };
    const { bytes, scoredHere } = await Promise.race([
      (async () => {
        const chunks = segmentChunksOf(new TextEncoder().encode(list), 200);
        let n = 0;
        // Starts the worker once the loop has read 40 chunks (its usual window is 2 + 6 × 2 = 14): only a loop that
        // did not stop to wait for the worker gets there.
        const run = new NbestRun({ ...spec, registry: undefined, references: refs, task });
        const parts: Uint8Array[] = [];
        const info = await run.score({
          chunks: async function* () {
            for await (const c of chunks) {
              if (++n === 40) {
                started = true;
                for (const release of held.splice(0)) release();
              }
              yield c;
            }
          },
          workers: 2,
          runner: () => runner,
          taskSize: 200,
          output: (b) => parts.push(b),
        });
        return { bytes: Buffer.concat(parts), scoredHere: info.tasks - (info.poolTasks ?? 0) };
      })(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the loop waited for a worker that had not started')), 20_000)),
    ]);
    expect(scoredHere).toBeGreaterThan(30);
    expect(bytes.equals(expected)).toBe(true);
  });
});

/**
 * The end of a pooled n-best run (src/engine/nbest/run.ts): when the scheduling loop knows the chunks' bytes in all
 * (`chunkBytes`), the runner is given no more than its share of the chunks left, so that the calling thread does not
 * score its last chunk and then sit idle while the runner still holds a full queue of tasks. Without `chunkBytes` (a
 * gzip list, whose decompressed length is not known) the runner is kept full to the end, as before. Output bytes are
 * those of the in-thread run either way.
 */
import { describe, expect, it } from 'vitest';
import '../src/node/install.js';
import { chunkJobContext, runChunkJob, streamReferenceSource, type ChunkResult } from '../src/engine/nbest/chunk-job.js';
import { NbestRun, poolShare, type NbestChunkRunner } from '../src/engine/nbest/run.js';
import { segmentChunksOf } from '../src/engine/nbest/segment-stream.js';
import type { SegmentChunk } from '../src/corpus/stream/segment-chunks.js';

const SEGMENTS = 60;
const refs = [Array.from({ length: SEGMENTS }, (_, s) => `the cat ${s} sat on the mat`)];
const list = Array.from({ length: SEGMENTS }, (_, s) =>
  Array.from({ length: 5 }, (_, k) => `${s} ||| the cat ${s + k} sat on mat ||| f= ${k} ||| ${-k}`).join('\n'),
).join('\n') + '\n';
const bytes = new TextEncoder().encode(list);
const task = { path: 'list', format: 'moses' as const, allowDuplicates: false, sentenceScores: false };
const spec = { ids: ['bleu'], settings: {} };
const TASK_SIZE = 200;

async function inThread(): Promise<Buffer> {
  const run = new NbestRun({ ...spec, registry: undefined, references: refs, task });
  const parts: Uint8Array[] = [];
  await run.score({ chunks: () => segmentChunksOf(bytes, TASK_SIZE), workers: 1, taskSize: TASK_SIZE, output: (b) => parts.push(b) });
  return Buffer.concat(parts);
}

/**
 * A pooled run with a runner of capacity 4 that finishes its oldest task each time the loop has read two more chunks
 * (a worker slower than the calling thread, so that its queue fills up): which chunks it was given, how many it held
 * when the input ended, and the bytes written.
 */
async function pooledRun(chunkBytes: number | undefined): Promise<{ bytes: Buffer; toRunner: number[]; chunks: number; heldAtEnd: number }> {
  const context = chunkJobContext(task, spec, streamReferenceSource(refs), undefined);
  const held: (() => void)[] = [];
  const toRunner: number[] = [];
  let n = 0;
  let heldAtEnd = -1;
  const runner: NbestChunkRunner = {
    capacity: 4,
    get inFlight() {
      return held.length;
    },
    counters: { tasks: 0, retries: 0, busyMs: 0 },
    run(chunk: SegmentChunk): Promise<ChunkResult> {
      toRunner.push(n);
      const result = runChunkJob(context, chunk.bytes, chunk.firstLine, chunk.byteOffset);
      return new Promise((resolve) => held.push(() => resolve(result)));
    },
    close: async () => {},
  };
  const run = new NbestRun({ ...spec, registry: undefined, references: refs, task });
  const parts: Uint8Array[] = [];
  await run.score({
    chunks: async function* () {
      for await (const c of segmentChunksOf(bytes, TASK_SIZE, true)) {
        if (++n % 2 === 0) held.shift()?.();
        yield c;
      }
      heldAtEnd = held.length;
      // The loop then waits for what the runner holds.
      while (held.length > 0) held.shift()!();
    },
    workers: 2,
    runner: () => runner,
    taskSize: TASK_SIZE,
    chunkBytes,
    output: (b) => parts.push(b),
  });
  return { bytes: Buffer.concat(parts), toRunner, chunks: n, heldAtEnd };
}

describe('n-best scheduling at the end of the list', () => {
  it('poolShare: the capacity while many chunks are left, then the workers\' share of those left', () => {
    // 100 chunks of 10 bytes seen, 1000 bytes in all: this one is the last.
    expect(poolShare(4, 1, 1000, 1000, 100)).toBe(0);
    // Two left (this one and one more): one task for a single worker, two for two workers.
    expect(poolShare(4, 1, 1000, 990, 99)).toBe(1);
    expect(poolShare(8, 2, 1000, 990, 99)).toBe(2);
    expect(poolShare(4, 1, 1000, 500, 50)).toBe(4);
    expect(poolShare(4, 1, undefined, 1000, 100)).toBe(4);
  });

  it('with the bytes in all known, the last chunks are scored here while the runner finishes its queue', async () => {
    const expected = await inThread();
    const { bytes: out, toRunner, chunks, heldAtEnd } = await pooledRun(bytes.length);
    expect(chunks).toBeGreaterThan(30);
    expect(out.equals(expected)).toBe(true);
    // The runner got about half the chunks, but none of the last three, and held at most two tasks when the input
    // ended (its share of the chunks left when the loop last gave it one).
    expect(toRunner.length).toBeGreaterThan(chunks / 3);
    expect(Math.max(...toRunner)).toBeLessThanOrEqual(chunks - 3);
    expect(heldAtEnd).toBeLessThanOrEqual(2);
  });

  it('without it (a gzip list) the runner is kept full to the end', async () => {
    const expected = await inThread();
    const { bytes: out, toRunner, chunks, heldAtEnd } = await pooledRun(undefined);
    expect(out.equals(expected)).toBe(true);
    expect(Math.max(...toRunner)).toBe(chunks);
    expect(heldAtEnd).toBe(4);
  });
});

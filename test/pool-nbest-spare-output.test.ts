/**
 * An output array handed to the n-best pool with a task (the calling thread's arrays already written out) goes to
 * the worker with the first attempt only: transferred, it is gone when that attempt fails, and the retry (a worker
 * that throws, or one that dies and is replaced) runs without it. Either way the task's output is the same bytes as
 * without a spare; a spare long enough carries the output back.
 */
import { describe, expect, it } from 'vitest';
import { wasmModule } from '../src/wasm/load.js';
import { shareReferences, type ChunkResult } from '../src/engine/nbest/chunk-job.js';
import { segmentChunksOf } from '../src/engine/nbest/segment-stream.js';
import type { SegmentChunk } from '../src/corpus/stream/segment-chunks.js';
import { NbestPool, type NbestInjectedFault } from '../src/pool/nbest-pool.js';
import '../src/node/install.js';

const refs = shareReferences([Array.from({ length: 6 }, (_, s) => `w${s} a b c`)]);
const settings = { path: 'list', format: 'msgpack' as const, allowDuplicates: false, sentenceScores: false };
const spec = { ids: ['bleu', 'rouge-l', 'wer'], settings: {} };

let text = '';
for (let id = 0; id < 6; id++) for (let k = 0; k < 30; k++) text += `${id} ||| w${k} w${k + 1} a b ||| f= ${k} ||| -1\n`;

async function oneChunk(): Promise<SegmentChunk> {
  for await (const chunk of segmentChunksOf(text, 1 << 20, true)) return chunk;
  throw new Error('no chunk');
}

async function runOnce(spare: Uint8Array | undefined, injectFault?: NbestInjectedFault): Promise<ChunkResult> {
  const pool = new NbestPool({ workers: 1, module: wasmModule(), refs, settings, spec, injectFault });
  try {
    return await pool.run(await oneChunk(), spare);
  } finally {
    await pool.close();
  }
}

const bytesOf = (r: ChunkResult): Uint8Array => {
  if (!r.ok) throw new Error('bad input');
  return r.out.slice();
};

describe('n-best pool: a spare output array with a task', () => {
  it('carries the output back when long enough, same bytes as without one', async () => {
    const plain = bytesOf(await runOnce(undefined));
    const spare = new Uint8Array(plain.length + 100);
    const withSpare = await runOnce(spare);
    expect(spare.buffer.byteLength).toBe(0); // transferred to the worker
    expect(withSpare.ok && withSpare.out.buffer.byteLength).toBe(plain.length + 100);
    expect(bytesOf(withSpare)).toEqual(plain);
  });

  it.each(['throw', 'exit'] as const)('a first attempt that fails (%s) is retried without the spare, same bytes', async (kind) => {
    const plain = bytesOf(await runOnce(undefined));
    const spare = new Uint8Array(plain.length + 100);
    const retried = await runOnce(spare, { task: 0, kind, attempts: 1 });
    expect(spare.buffer.byteLength).toBe(0);
    expect(bytesOf(retried)).toEqual(plain);
  });
});

/**
 * The n-best fast path's chunk memo and msgpack statistics, alone, warm, one thread (tinybench).
 *
 * Workload: bench/nbest-gen.ts with 100 segments × 1000 hypotheses (its other defaults: 4 references, ~25 Zipf
 * tokens over 20k words), generated in os.tmpdir() and removed afterwards; the candidates cut into tasks of 2000
 * lines (about `palette nbest`'s 256 KiB tasks), each task's references (its segments × 4) scanned before its
 * candidates, as src/engine/nbest/fast/fused-scorer.ts does.
 *   - memo: ChunkMemo.rows over every task, one memo kept across passes (a thread's memo), with three tokenizers
 *     shaped as `-m bleu rouge-l rouge-s4 wer` has them: Moses' split (chunk ids), ASCII letter and digit runs
 *     lowercased (ROUGE-like: none, one or several tokens a chunk) and the whole chunk as one word (jiwer-like). A
 *     warm memo calls its tokenizers only for chunks it has not seen, so its cost is the scan, the look-ups and the
 *     rows, whatever the tokenizers are;
 *   - memo, fresh: the same with a new memo for each pass (every chunk of the list tokenized once);
 *   - msgpack: the statistics of those candidates (25 numbers a row: 9 BLEU counts, two ROUGE rows of P/R/F
 *     fractions and counts, 4 WER counts) encoded as `--stats-format msgpack` writes them, one block per segment.
 * Figures: µs per candidate (median of the passes) and its spread.
 *
 * Run: npx tsx bench/index.ts nbest-memo
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bench } from 'tinybench';
import { ByteOut } from '../src/engine/nbest/byte-out.js';
import { ChunkMemo, RowScratch } from '../src/engine/nbest/fast/chunk-memo.js';
import { blockEncoder } from '../src/engine/nbest/stats-format.js';
import { Vocabulary } from '../src/text/intern.js';
import { DEFAULT_NBEST_WORKLOAD, generateNbestFiles } from './nbest-gen.js';

const TASK_LINES = 2000;
const WIDTH = 25;

/** Where a tokenizer appends token ids. */
type Sink = { push(id: number): void };

/** The three stand-in tokenizers (see the file comment; `key` names them as the memo's callers do). */
function tokenizers() {
  const runs = new Vocabulary();
  const words = new Vocabulary();
  return [
    { key: 'space', chunkIds: true, tokenize: (_chunk: string, _out: Sink): void => undefined },
    {
      key: 'runs',
      tokenize(chunk: string, out: Sink): void {
        for (const run of chunk.toLowerCase().match(/[a-z0-9]+/g) ?? []) out.push(runs.id(run));
      },
    },
    { key: 'words', tokenize: (chunk: string, out: Sink): void => out.push(words.id(chunk)) },
  ];
}

export async function benchNbestMemo(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'palette-memo-'));
  try {
    const files = generateNbestFiles(dir, { ...DEFAULT_NBEST_WORKLOAD, segments: 100 });
    const entries = readFileSync(files.nbest, 'utf8').split('\n').filter((l) => l !== '').map((l) => l.split(' ||| '));
    const hyps = entries.map((e) => e[1]);
    const ids = entries.map((e) => Number(e[0]));
    const refs = files.refs.map((f) => readFileSync(f, 'utf8').split('\n'));
    const nRefs = refs.length;
    const tasks: { from: number; to: number; segments: number[] }[] = [];
    for (let from = 0; from < hyps.length; from += TASK_LINES) {
      const to = Math.min(hyps.length, from + TASK_LINES);
      tasks.push({ from, to, segments: [...new Set(ids.slice(from, to))] });
    }
    console.log(
      `  workload: ${hyps.length} candidates (${files.hypTokens} tokens, ${(files.nbestBytes / 2 ** 20).toFixed(1)} MiB), ` +
        `${nRefs} references, ${tasks.length} tasks of ${TASK_LINES} lines`,
    );

    const pass = (memo: ChunkMemo, refScratch: RowScratch, hypScratch: RowScratch): void => {
      for (const { from, to, segments } of tasks) {
        memo.rows(segments.length * nRefs, (i) => refs[i % nRefs][segments[Math.floor(i / nRefs)]], refScratch);
        memo.rows(to - from, (h) => hyps[from + h], hypScratch);
      }
    };
    const warm = new ChunkMemo(tokenizers());
    const warmScratch = [new RowScratch(), new RowScratch()] as const;

    // Statistics shaped as the four metrics' rows: counts, and ROUGE's P/R/F fractions.
    const stats = new Float64Array(hyps.length * WIDTH);
    for (let h = 0; h < hyps.length; h++) {
      for (let c = 0; c < WIDTH; c++) stats[h * WIDTH + c] = c >= 9 && c < 21 && c % 3 !== 0 ? ((h * 7 + c) % 97) / 97 : (h + c) % 40;
    }
    const blocks: Int32Array[] = [];
    for (let from = 0; from < hyps.length; ) {
      let to = from;
      while (to < hyps.length && ids[to] === ids[from]) to++;
      blocks.push(Int32Array.from({ length: to - from }, (_, k) => from + k));
      from = to;
    }
    const encode = blockEncoder('msgpack', 'BLEU,ROUGE-L,ROUGE-S4,WER', WIDTH);
    const out = new ByteOut();

    const bench = new Bench({ time: 3000, iterations: 10, warmup: true, throws: true });
    bench.add('memo (warm)', () => pass(warm, ...warmScratch));
    bench.add('memo (fresh memo each pass)', () => pass(new ChunkMemo(tokenizers()), new RowScratch(), new RowScratch()));
    bench.add('msgpack statistics', () => {
      blocks.forEach((rows, s) => encode(s, stats, rows, out));
      out.take();
    });
    await bench.run();
    console.log('  stage                             µs/candidate   ±rme');
    for (const task of bench.tasks) {
      const r = task.result;
      if (!('latency' in r)) continue;
      const us = (r.latency.p50 * 1000) / hyps.length;
      console.log(`  ${task.name.padEnd(34)} ${us.toFixed(3).padStart(10)}  ${r.latency.rme.toFixed(1)}%`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * What the metric benchmarks on English-target real data share (bench/npchunk.ts, bench/paraeval.ts): the workloads
 * read from ../shared/data (compare-mt TED sk-en and SummEval), and one tinybench timing of a call reported as its
 * median wall time and its mean process CPU time, so that every such benchmark reports the same two figures.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import { readLines } from '../src/node/read-lines.js';

/** ../shared/data, resolved from the repository root. */
export const DATA = fileURLToPath(new URL('../../shared/data/', import.meta.url));

/** A number in English digit groups with exactly `digits` decimals. */
export const fmt = (x: number, digits = 0): string =>
  x.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** One measured call, in milliseconds. */
export interface Timing {
  /** Median wall time per call. */
  readonly median: number;
  /** Mean process CPU time (user + system, every thread) per call, warm-up included. */
  readonly cpu: number;
}

/** Median wall time and mean process CPU time (ms) per call of `fn`. */
export async function measure(fn: () => unknown, iterations: number): Promise<Timing> {
  let calls = 0;
  const bench = new Bench({ iterations, time: 0, warmupIterations: 1, warmupTime: 0, throws: true });
  bench.add('case', () => {
    calls++;
    fn();
  });
  const before = process.cpuUsage();
  await bench.run();
  const cpu = process.cpuUsage(before);
  const result = bench.tasks[0].result;
  return { median: result.state === 'completed' ? result.latency.p50 : NaN, cpu: (cpu.user + cpu.system) / 1000 / calls };
}

/** Systems' outputs and the reference streams they are scored against. */
export interface Workload {
  /** How the benchmark names it. */
  readonly name: string;
  /** One line array per system. */
  readonly systems: readonly (readonly string[])[];
  /** One line array per reference stream. */
  readonly refs: readonly (readonly string[])[];
}

/** Whether ../shared/data holds the corpora {@link englishWorkloads} reads. */
export function hasEnglishData(): boolean {
  return existsSync(join(DATA, 'summeval')) && existsSync(join(DATA, 'compare-mt'));
}

/**
 * TED sk-en (2 systems × 2,445 tokenized segments, one reference) and SummEval (16 systems × 100 summaries, against
 * reference 0 alone and against all 11 references).
 */
export function englishWorkloads(): Workload[] {
  const ted = join(DATA, 'compare-mt/example');
  const summeval = join(DATA, 'summeval');
  const systems = readdirSync(join(summeval, 'systems'))
    .filter((f) => f.endsWith('.txt'))
    .sort()
    .map((f) => readLines(join(summeval, 'systems', f)));
  const refs = Array.from({ length: 11 }, (_, j) => readLines(join(summeval, `refs/ref.${j}.txt`)));
  return [
    {
      name: 'TED sk-en, 2 systems x 2445, 1 ref',
      systems: ['ted.sys1.eng', 'ted.sys2.eng'].map((f) => readLines(join(ted, f))),
      refs: [readLines(join(ted, 'ted.ref.eng'))],
    },
    { name: 'SummEval, 16 systems x 100, ref 0', systems, refs: [refs[0]] },
    { name: 'SummEval, 16 systems x 100, 11 refs', systems, refs },
  ];
}

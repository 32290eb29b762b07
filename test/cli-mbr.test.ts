/**
 * `palette mbr`: the MBR choice and expected utilities of every segment equal the sacreBLEU golden's (the slice in
 * test/fixtures/pairwise for a clone, the 100 segments of ../shared/golden/mbr when present), for chrF, chrF++, BLEU
 * and TER, from aligned sample files and from a Moses n-best list; --include-self, --pseudo-refs, --weights and --matrix;
 * bad input refused with one line and exit 2, leaving output files
 * untouched; help and its place in `palette --help`.
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { mbrDecode } from '../src/engine/pairwise/index.js';
import { Chrf } from '../src/metrics/chrf/chrf.js';
import { createHandler, type MbrWorkerSetup } from '../src/pool/kinds/mbr.js';
import { LastingMbrPool, MbrTaskCursor, mbrOnPool, type MbrPoolInfo, type MbrPoolOptions, type MbrRun, type MbrSide } from '../src/pool/mbr-pool.js';
import { InputError } from '../src/errors.js';
import { cliRunner, expectInputError } from './helpers/cli.js';
import { goldenClose, haveShared, sharedPath } from './helpers/shared-data.js';

const mbr = cliRunner(['mbr']);
const palette = cliRunner();

const METRIC_ARGS: Record<string, string[]> = {
  chrF: ['-m', 'chrf'],
  'chrF++': ['-m', 'chrf', '--chrf-word-order', '2'],
  BLEU: ['-m', 'bleu'],
  TER: ['-m', 'ter'],
};

interface Golden {
  readonly choice: number;
  readonly nearTies: readonly number[];
  readonly means: readonly number[];
}

/** Writes sample k's lines to sample-k.txt and returns the file names. */
function writeSamples(dir: string, samplesBySegment: readonly (readonly string[])[]): string[] {
  const n = samplesBySegment[0].length;
  return Array.from({ length: n }, (_, k) => {
    const file = join(dir, `sample-${String(k).padStart(2, '0')}.txt`);
    writeFileSync(file, `${samplesBySegment.map((s) => s[k]).join('\n')}\n`);
    return file;
  });
}

/** Runs palette mbr and checks the output lines, the choices and the utilities against the golden. */
async function checkMbr(dir: string, files: string[], samples: readonly (readonly string[])[], golden: Record<string, Golden[]>): Promise<number> {
  let checked = 0;
  for (const [name, args] of Object.entries(METRIC_ARGS)) {
    const scores = join(dir, `${name}.jsonl`);
    const r = await mbr(['--samples', ...files, ...args, '--scores', scores]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const out = r.out.split('\n');
    expect(out.pop()).toBe('');
    const rows = readFileSync(scores, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { segment: number; choice: number; utilities: number[] });
    expect(rows).toHaveLength(samples.length);
    rows.forEach((row, s) => {
      const g = golden[name][s];
      expect(row.segment).toBe(s + 1);
      if (row.choice !== g.choice) expect(g.nearTies).toContain(row.choice);
      expect(out[s]).toBe(samples[s][row.choice]);
      row.utilities.forEach((u, i) => {
        if (!goldenClose(u, g.means[i])) throw new Error(`${name} segment ${s + 1} utility ${i}: ${u} ≠ ${g.means[i]}`);
      });
      checked++;
    });
  }
  return checked;
}

const fixture = JSON.parse(readFileSync(new URL('fixtures/pairwise/wmt21-en-de-5.json', import.meta.url), 'utf8')) as {
  segments: { samples: string[]; metrics: Record<string, { mbr_choice: number; near_ties: number[]; means: number[]; matrix: number[][] }> }[];
};
const fixtureGolden = (name: string): Golden[] =>
  fixture.segments.map((s) => ({ choice: s.metrics[name].mbr_choice, nearTies: s.metrics[name].near_ties, means: s.metrics[name].means }));

describe('the golden MBR choices and utilities', () => {
  it('clone fixture: 5 segments × chrF, chrF++, BLEU, TER', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'palette-mbr-'));
    const samples = fixture.segments.map((s) => s.samples);
    const golden = Object.fromEntries(Object.keys(METRIC_ARGS).map((n) => [n, fixtureGolden(n)]));
    expect(await checkMbr(dir, writeSamples(dir, samples), samples, golden)).toBe(20);
  });

  const GOLDEN = 'golden/mbr/wmt21-en-de.pairwise.json';
  it.skipIf(!haveShared(GOLDEN))('../shared golden: 100 segments × chrF, chrF++, BLEU, TER', async () => {
    const g = JSON.parse(readFileSync(sharedPath(GOLDEN), 'utf8')) as {
      header: { samples: string[] };
      records: { metric: string; segments: [number, number, number[], number[], number[][]][] }[];
    };
    const files = g.header.samples.map((p) => readFileSync(sharedPath(`data/${p}`), 'utf8').split('\n'));
    const samples = Array.from({ length: 100 }, (_, s) => files.map((f) => f[s]));
    const golden: Record<string, Golden[]> = {};
    for (const r of g.records) {
      const [line, choice, means, nearTies] = r.segments[0];
      (golden[r.metric] ??= [])[line - 1] = { choice, nearTies, means };
    }
    const dir = mkdtempSync(join(tmpdir(), 'palette-mbr-'));
    expect(await checkMbr(dir, writeSamples(dir, samples), samples, golden)).toBe(400);
  });
});

describe('self-pairs and separate pseudo-references', () => {
  const seg = fixture.segments[1];
  const dir = mkdtempSync(join(tmpdir(), 'palette-mbr-'));
  const samples = fixture.segments.map((s) => s.samples);
  const files = writeSamples(dir, samples);
  // Row means over all 20 columns, the diagonal included, summed left to right.
  const withSelf = seg.metrics.chrF.matrix.map((row) => row.reduce((a, b) => a + b, 0) / 20);

  it('--include-self averages over every column', async () => {
    const scores = join(dir, 'self.jsonl');
    const r = await mbr(['--samples', ...files, '-m', 'chrf', '--include-self', '--scores', scores]);
    expect(r.code).toBe(0);
    const row = JSON.parse(readFileSync(scores, 'utf8').split('\n')[1]) as { utilities: number[]; choice: number };
    row.utilities.forEach((u, i) => expect(goldenClose(u, withSelf[i])).toBe(true));
    const best = withSelf.indexOf(Math.max(...withSelf));
    expect(row.choice).toBe(best);
  });

  it('--pseudo-refs scores the samples against other files (every pair counts)', async () => {
    const scores = join(dir, 'pseudo.jsonl');
    // The first 5 samples as pseudo-references: column j of the golden matrix for j < 5.
    const r = await mbr(['--samples', ...files, '--pseudo-refs', ...files.slice(0, 5), '-m', 'chrf', '--scores', scores]);
    expect(r.code).toBe(0);
    const row = JSON.parse(readFileSync(scores, 'utf8').split('\n')[1]) as { utilities: number[] };
    const want = seg.metrics.chrF.matrix.map((m) => m.slice(0, 5).reduce((a, b) => a + b, 0) / 5);
    row.utilities.forEach((u, i) => expect(goldenClose(u, want[i])).toBe(true));
  });

  it('lower-is-better metrics through their token stage (WER) choose the lowest utility', async () => {
    const scores = join(dir, 'wer.jsonl');
    const r = await mbr(['--samples', ...files, '-m', 'wer', '--scores', scores]);
    expect(r.code).toBe(0);
    const rows = readFileSync(scores, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { utilities: number[]; choice: number });
    expect(rows).toHaveLength(5);
    for (const row of rows) {
      expect(row.choice).toBe(row.utilities.indexOf(Math.min(...row.utilities)));
      expect(Math.min(...row.utilities)).toBeLessThan(Math.max(...row.utilities));
    }
  });

  it('--weights: uniform weights give the plain means; zero weights leave pseudo-references out', async () => {
    const ones = files.map((_, k) => {
      const f = join(dir, `w1-${k}.txt`);
      writeFileSync(f, '1\n1.0\n1e0\n1\n1\n');
      return f;
    });
    const plain = join(dir, 'plain.jsonl');
    const weighted = join(dir, 'weighted.jsonl');
    await mbr(['--samples', ...files, '-m', 'chrf', '--scores', plain]);
    await mbr(['--samples', ...files, '-m', 'chrf', '--weights', ...ones, '--scores', weighted]);
    const rows = (f: string) => readFileSync(f, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { utilities: number[]; choice: number });
    const a = rows(plain);
    const b = rows(weighted);
    a.forEach((row, s) => {
      expect(b[s].choice).toBe(row.choice);
      row.utilities.forEach((u, i) => expect(goldenClose(b[s].utilities[i], u)).toBe(true));
    });
    // Only the first 5 samples weigh: utility i = mean of M[i][j] over j < 5, j ≠ i.
    const firstFive = files.map((_, k) => {
      const f = join(dir, `w5-${k}.txt`);
      writeFileSync(f, `${Array(5).fill(k < 5 ? '0.5' : '0').join('\n')}\n`);
      return f;
    });
    const five = join(dir, 'five.jsonl');
    const r = await mbr(['--samples', ...files, '-m', 'chrf', '--weights', ...firstFive, '--scores', five]);
    expect(r.code).toBe(0);
    const row = rows(five)[1];
    seg.metrics.chrF.matrix.forEach((mrow, i) => {
      const js = [0, 1, 2, 3, 4].filter((j) => j !== i);
      const want = js.reduce((acc, j) => acc + mrow[j], 0) / js.length;
      expect(goldenClose(row.utilities[i], want)).toBe(true);
    });
  });

  it('--matrix writes every segment\'s matrix as one .npy array (segments, samples, pseudo-references)', async () => {
    const file = join(dir, 'm.npy');
    const r = await mbr(['--samples', ...files, '-m', 'chrf', '--chrf-word-order', '2', '--matrix', file]);
    expect(r.code).toBe(0);
    const bytes = readFileSync(file);
    // numpy 2.4's np.save header of a (5, 20, 20) float64 array.
    expect(bytes.subarray(0, 128).toString('latin1')).toBe(
      `\x93NUMPY\x01\x00v\x00{'descr': '<f8', 'fortran_order': False, 'shape': (5, 20, 20), }${' '.repeat(53)}\n`,
    );
    expect(bytes.length).toBe(128 + 8 * 5 * 400);
    const data = new Float64Array(bytes.buffer.slice(bytes.byteOffset + 128, bytes.byteOffset + bytes.length));
    fixture.segments.forEach((sg, s) => {
      sg.metrics['chrF++'].matrix.forEach((mrow, i) => mrow.forEach((v, j) => {
        if (!goldenClose(data[s * 400 + i * 20 + j], v)) throw new Error(`segment ${s + 1} [${i}][${j}]`);
      }));
    });
  });

  it('-o writes the chosen samples to a file', async () => {
    const out = join(dir, 'mbr.txt');
    const r = await mbr(['--samples', ...files, '-m', 'ter', '-o', out]);
    expect(r).toEqual({ code: 0, out: '', err: '' });
    const lines = readFileSync(out, 'utf8').split('\n');
    expect(lines).toHaveLength(6);
    fixture.segments.forEach((s, k) => {
      const g = s.metrics.TER;
      expect([g.mbr_choice, ...g.near_ties].map((c) => s.samples[c])).toContain(lines[k]);
    });
  });
});

describe('-j: segments decided on this thread and pool workers', () => {
  const samples = fixture.segments.map((s) => s.samples);
  it('mbrOnPool gives mbrDecode\'s choices, utilities and matrices, one segment a task, in order', async () => {
    const streams = samples[0].map((_, k) => samples.map((seg) => seg[k]));
    const setup = {
      utility: [{ metric: 'chrf', weight: undefined, direction: 'higher' as const }], settings: { sentenceLevel: true, chrf: { wordOrder: 2 } },
      samples: streams, pseudoRefs: undefined, weightStreams: undefined, direction: 'higher' as const, includeSelf: false, aggregate: false,
      matrices: true,
    };
    const seen: number[] = [];
    const got: { choice: number; utilities: number[]; matrix: number[] }[] = [];
    await mbrOnPool(setup, 2, (from, to, run) => {
      seen.push(from, to);
      for (let s = 0; s < to - from; s++) {
        got.push({ choice: run.choices[s], utilities: Array.from(run.utilities.subarray(s * 20, (s + 1) * 20)), matrix: Array.from(run.matrices!.subarray(s * 400, (s + 1) * 400)) });
      }
    }, { taskPairs: { min: 400, max: 400 } });
    expect(seen).toEqual([0, 1, 1, 2, 2, 3, 3, 4, 4, 5]);
    const matrices: number[][] = [];
    const want = mbrDecode(new Chrf({ wordOrder: 2 }), streams, { onMatrix: (_, m) => matrices.push(Array.from(m)) });
    expect(got).toEqual(want.map((c, s) => ({ choice: c.choice, utilities: Array.from(c.utilities), matrix: matrices[s] })));
  }, 60_000);

  it('MbrTaskCursor hands out every row of every segment once, in order: runs of whole segments or blocks of one segment', () => {
    const shapes: [number, number, number, boolean][] = [[5, 20, 20, false], [7, 3, 3, false], [4, 20, 5, false], [3, 1, 9, false], [6, 20, 20, true]];
    for (const [segments, rows, columns, aggregate] of shapes) {
      for (const sizes of [[1], [70], [400], [1000], [5000, 70, 1, 33, 401]]) {
        const cursor = new MbrTaskCursor(segments, rows, columns, aggregate);
        const rowsSeen: string[] = [];
        let left = cursor.pairsLeft;
        expect(left).toBe(segments * rows * columns);
        for (let k = 0; !cursor.done; k++) {
          const asked = sizes[k % sizes.length];
          const task = cursor.next(asked)!;
          let pairs: number;
          if (task.rows === undefined) {
            expect(task.to).toBeGreaterThan(task.from);
            for (let s = task.from; s < task.to; s++) for (let r = 0; r < rows; r++) rowsSeen.push(`${s}:${r}`);
            pairs = (task.to - task.from) * rows * columns;
            // A run holds what was asked for, or one segment.
            if (task.to - task.from > 1) expect(pairs).toBeLessThanOrEqual(asked);
          } else {
            expect(aggregate).toBe(false);
            expect(task.to).toBe(task.from + 1);
            const [r0, r1] = task.rows;
            for (let r = r0; r < r1; r++) rowsSeen.push(`${task.from}:${r}`);
            pairs = (r1 - r0) * columns;
            if (r1 - r0 > 1) expect(pairs).toBeLessThanOrEqual(asked);
          }
          left -= pairs;
          expect(cursor.pairsLeft).toBe(left);
        }
        expect(left).toBe(0);
        expect(rowsSeen).toEqual(Array.from({ length: segments * rows }, (_, k) => `${Math.floor(k / rows)}:${k % rows}`));
      }
    }
  });

  it('MbrTaskCursor with two sides: every row once; a segment is one side\'s, but for blocks from its end taken once every segment has started', () => {
    let seed = 12345;
    const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32;
    const shapes: [number, number, number, boolean][] = [[5, 20, 20, false], [7, 3, 3, false], [4, 20, 5, false], [3, 1, 9, false], [6, 20, 20, true], [2, 64, 64, false]];
    for (const [segments, rows, columns, aggregate] of shapes) {
      // 0: a side takes any rows left; 1: only what is worth twice its preparation; 1e9: never a segment it has not prepared.
      for (const prep of [0, 1, 1e9]) {
        for (let trial = 0; trial < 12; trial++) {
          const cursor = new MbrTaskCursor(segments, rows, columns, aggregate, prep);
          const seen = new Set<string>();
          // The side that started each segment, the rows the other side took from its end so far.
          const owner = new Map<number, MbrSide>();
          const takenFrom = new Map<number, number>();
          const taken = { pool: 0, here: 0 };
          let started = 0;
          let left = cursor.pairsLeft;
          for (let k = 0; k < 100_000 && !cursor.done; k++) {
            const side: MbrSide = random() < 0.5 ? 'pool' : 'here';
            const asked = [1, 70, 400, 5000][Math.floor(random() * 4)];
            const start = random() < 0.7;
            const task = side === 'pool' ? cursor.next(asked, asked, start) : cursor.nextHere(asked, start);
            if (task === undefined) continue;
            // Nothing new when told not to start.
            if (!start) expect(task.to).toBeLessThanOrEqual(started);
            let pairs: number;
            if (task.rows === undefined) {
              expect(task.from).toBe(started);
              expect(task.to).toBeGreaterThan(task.from);
              for (let s = task.from; s < task.to; s++) for (let r = 0; r < rows; r++) seen.add(`${s}:${r}`);
              pairs = (task.to - task.from) * rows * columns;
              if (task.to - task.from > 1) expect(pairs).toBeLessThanOrEqual(asked);
            } else {
              expect(aggregate).toBe(false);
              expect(task.to).toBe(task.from + 1);
              const [r0, r1] = task.rows;
              expect(r1).toBeGreaterThan(r0);
              for (let r = r0; r < r1; r++) {
                expect(seen.has(`${task.from}:${r}`)).toBe(false);
                seen.add(`${task.from}:${r}`);
              }
              pairs = (r1 - r0) * columns;
              if (r1 - r0 > 1) expect(pairs).toBeLessThanOrEqual(asked);
              if (task.from === started) {
                // A segment starts at its first row, on the side that starts it.
                expect(r0).toBe(0);
                owner.set(task.from, side);
              } else if (owner.get(task.from) !== side) {
                // The other side's segment: once every segment has started, from its end down.
                expect(started).toBe(segments);
                expect(prep).toBeLessThan(1e9);
                expect(r1).toBe(takenFrom.get(task.from) ?? rows);
                takenFrom.set(task.from, r0);
                taken[side] += r1 - r0;
              }
            }
            started = Math.max(started, task.to);
            left -= pairs;
            expect(cursor.pairsLeft).toBe(left);
          }
          expect(cursor.done).toBe(true);
          expect(left).toBe(0);
          expect(seen.size).toBe(segments * rows);
          expect(cursor.rowsTaken).toEqual(taken);
        }
      }
    }
  });

  /**
   * The pool's runs, put together, against the same setup decided in this thread as one run (the -j 1 path); `lasting`:
   * on that pool's threads instead of a pool of `workers − 1` set up for this call.
   */
  async function poolAgainstOneThread(setup: MbrWorkerSetup, workers: number, options: MbrPoolOptions, lasting?: LastingMbrPool): Promise<MbrPoolInfo | undefined> {
    const want = createHandler(setup).run({ from: 0, to: setup.samples[0].length });
    const runs: MbrRun[] = [];
    let at = 0;
    const onRun = (from: number, to: number, run: MbrRun): void => {
      expect(from).toBe(at);
      at = to;
      expect(run.choices).toHaveLength(to - from);
      runs.push(run);
    };
    const info = await (lasting === undefined ? mbrOnPool(setup, workers, onRun, options) : lasting.decide(setup, onRun, options));
    expect(at).toBe(setup.samples[0].length);
    const joined = (part: (r: MbrRun) => ArrayLike<number> | null) => runs.flatMap((r) => Array.from(part(r) ?? []));
    expect(want.ok).toBe(true);
    if (!want.ok) return undefined;
    expect(joined((r) => r.choices)).toEqual(Array.from(want.choices));
    // Bit for bit: Object.is tells -0 from 0 and compares NaN.
    const same = (a: number[], b: ArrayLike<number>) => a.length === b.length && a.every((v, k) => Object.is(v, b[k]));
    expect(same(joined((r) => r.utilities), want.utilities)).toBe(true);
    expect(same(joined((r) => r.matrices), want.matrices ?? [])).toBe(true);
    return info;
  }

  const streams = samples[0].map((_, k) => samples.map((seg) => seg[k]));
  const base = {
    samples: streams, pseudoRefs: undefined, weightStreams: undefined, includeSelf: false, aggregate: false, matrices: true,
  };
  const chrfPlusPlus: MbrWorkerSetup = {
    ...base, utility: [{ metric: 'chrf', weight: undefined, direction: 'higher' }], settings: { sentenceLevel: true, chrf: { wordOrder: 2 } }, direction: 'higher',
  };
  // chrF higher, TER lower: the sum is higher-is-better with TER subtracted, whatever the first metric's direction.
  const mixed: MbrWorkerSetup = {
    ...base, utility: [{ metric: 'ter', weight: 0.5, direction: 'lower' }, { metric: 'chrf', weight: 0.5, direction: 'higher' }], settings: { sentenceLevel: true }, direction: 'lower',
  };
  const weights = streams.slice(0, 7).map((_, k) => streams[0].map((_, s) => ((k * 7 + s * 3) % 5) + 0.25));
  const bleuPseudo: MbrWorkerSetup = {
    ...base, utility: [{ metric: 'bleu', weight: undefined, direction: 'higher' }], settings: { sentenceLevel: true }, direction: 'higher',
    pseudoRefs: streams.slice(0, 7), weightStreams: weights,
  };
  const terSelf: MbrWorkerSetup = {
    ...base, utility: [{ metric: 'ter', weight: undefined, direction: 'lower' }], settings: { sentenceLevel: true }, direction: 'lower', includeSelf: true, matrices: false,
  };

  it('blocks of rows on this thread and a worker (chrF++, TER + chrF, BLEU against pseudo-references with weights, TER with self-pairs) = one thread, bit for bit', async () => {
    for (const setup of [chrfPlusPlus, mixed, bleuPseudo, terSelf]) {
      await poolAgainstOneThread(setup, 2, { taskPairs: { min: 70, max: 70 } });
    }
  }, 120_000);

  it('any task sizes and thread counts: the same numbers', async () => {
    await poolAgainstOneThread(chrfPlusPlus, 3, { taskPairs: { min: 30, max: 1000 } });
    expect(await poolAgainstOneThread(mixed, 1, { taskPairs: { min: 1, max: 20 } })).toMatchObject({ threads: 1, tasks: { pool: 0 } });
    await poolAgainstOneThread(bleuPseudo, 2, { taskPairs: { min: 100, max: 300 } });
  }, 120_000);

  it('blocks taken from the end of the pool\'s segment by this thread, put together with the pool\'s = one thread, bit for bit', async () => {
    // This thread decides its blocks while the worker is still starting, then takes what the pool has not begun of
    // its segment, from the end (any rows: no preparation cost).
    for (const setup of [chrfPlusPlus, mixed, bleuPseudo, terSelf]) {
      const info = await poolAgainstOneThread(setup, 2, { taskPairs: { min: 20, max: 20 }, prepPairsPerText: 0 });
      expect(info?.threads).toBe(2);
      expect(info?.tasks.here).toBeGreaterThan(0);
      expect(info?.tasks.pool).toBeGreaterThan(0);
      expect(info?.rowsTaken.here).toBeGreaterThan(0);
    }
  }, 120_000);

  it('one lasting pool (palette worker\'s) decides input after input, started once: the numbers and errors of one thread', async () => {
    const lasting = new LastingMbrPool(2);
    try {
      // A small input needs one thread: no pool is started for it.
      const one = { ...terSelf, samples: terSelf.samples.map((stream) => stream.slice(0, 1)) };
      expect(await poolAgainstOneThread(one, 2, { taskPairs: { min: 1000, max: 1000 } }, lasting)).toMatchObject({ threads: 1, tasks: { pool: 0 } });
      expect(lasting.starts).toBe(0);
      // Blocks of rows (a thread keeps a segment prepared across them; some taken from the end of this thread's
      // segment), runs of segments, other metrics and settings, each input's pool tasks carrying their part of it.
      let poolTasks = 0;
      for (const [setup, options] of [
        [chrfPlusPlus, { taskPairs: { min: 70, max: 70 } }], [mixed, { taskPairs: { min: 30, max: 1000 } }],
        [bleuPseudo, { taskPairs: { min: 100, max: 300 } }], [terSelf, { taskPairs: { min: 20, max: 20 }, prepPairsPerText: 0 }],
        [chrfPlusPlus, { taskPairs: { min: 1, max: 20 } }],
      ] as const) {
        const info = await poolAgainstOneThread(setup, 2, options, lasting);
        expect(info?.threads).toBe(2);
        poolTasks += info?.tasks.pool ?? 0;
      }
      expect(poolTasks).toBeGreaterThan(0);
      // Other segments of an input already seen: another part, not what the threads kept of the first.
      const later = { ...mixed, samples: mixed.samples.map((stream) => stream.slice(2)) };
      await poolAgainstOneThread(later, 2, { taskPairs: { min: 70, max: 70 } }, lasting);
      const zero = streams.map((_, k) => streams[0].map((_, s) => (s === 3 && k !== 3 ? 0 : 1)));
      for (const options of [{ taskPairs: { min: 40, max: 40 } }, { taskPairs: { min: 20, max: 20 }, prepPairsPerText: 0 }]) {
        const err = await lasting.decide({ ...chrfPlusPlus, weightStreams: zero }, () => {}, options).catch((e: unknown) => e);
        expect(err).toBeInstanceOf(InputError);
        expect(err).toMatchObject({ line: 4, message: "segment 4: the weights of sample 4's pseudo-references sum to zero" });
      }
      await poolAgainstOneThread(terSelf, 2, { taskPairs: { min: 70, max: 70 } }, lasting);
      // Inputs at once (a worker taking several shards at a time): each counts its own tasks in the pool.
      await Promise.all([
        poolAgainstOneThread(chrfPlusPlus, 2, { taskPairs: { min: 20, max: 20 }, prepPairsPerText: 0 }, lasting),
        poolAgainstOneThread(mixed, 2, { taskPairs: { min: 30, max: 60 } }, lasting),
        poolAgainstOneThread(bleuPseudo, 2, { taskPairs: { min: 10, max: 40 } }, lasting),
      ]);
      expect(lasting.starts).toBe(1);
    } finally {
      await lasting.close();
    }
    // Closed: the next input starts a pool again.
    try {
      await poolAgainstOneThread(bleuPseudo, 2, { taskPairs: { min: 100, max: 100 } }, lasting);
      expect(lasting.starts).toBe(2);
    } finally {
      await lasting.close();
    }
  }, 120_000);

  it('a zero weight sum in a block of rows: the line and message of one thread', async () => {
    // Segment 4 (line 4): only sample 4 (index 3) weighs, so its own utility has no weight left.
    const zero = streams.map((_, k) => streams[0].map((_, s) => (s === 3 && k !== 3 ? 0 : 1)));
    const setup: MbrWorkerSetup = { ...chrfPlusPlus, weightStreams: zero };
    const want = createHandler(setup).run({ from: 0, to: 5 });
    expect(want.ok).toBe(false);
    if (want.ok) return;
    expect(want.error).toMatchObject({ line: 4, message: "segment 4: the weights of sample 4's pseudo-references sum to zero" });
    // Blocks of two rows from the start of each segment; blocks of one row, some from the end of the pool's.
    for (const options of [{ taskPairs: { min: 40, max: 40 } }, { taskPairs: { min: 20, max: 20 }, prepPairsPerText: 0 }]) {
      const err = await mbrOnPool(setup, 2, () => {}, options).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InputError);
      expect(err).toMatchObject({ code: want.error.code, line: 4, message: want.error.message });
    }
  }, 60_000);

  it('palette mbr -j 2 writes the bytes of -j 1 (output, --scores, --matrix); a zero weight sum names its line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'palette-mbr-j-'));
    const files = writeSamples(dir, samples);
    const run = async (j: string[]) => {
      const [s, m] = [join(dir, `s${j.length}.jsonl`), join(dir, `m${j.length}.npy`)];
      const r = await mbr(['--samples', ...files, '-m', 'ter', '--scores', s, '--matrix', m, ...j]);
      expect(r.code).toBe(0);
      return [r.out, readFileSync(s, 'utf8'), readFileSync(m).toString('hex')];
    };
    expect(await run(['-j', '2'])).toEqual(await run([]));
    const weights = files.map((_, k) => {
      const f = join(dir, `w${k}.txt`);
      writeFileSync(f, k === 3 ? '1\n1\n1\n1\n1\n' : '1\n1\n1\n0\n1\n');
      return f;
    });
    // Line 4: only sample 4 (index 3) weighs, so its own utility has no weight left.
    const r = await mbr(['--samples', ...files, '-m', 'chrf', '--weights', ...weights, '-j', '2']);
    expectInputError(r, 'mbr', /w0\.txt:4: the weights of sample 4's pseudo-references sum to zero/);
  }, 60_000);
});

describe('--nbest: a Moses n-best list as the samples', () => {
  // Ids 0, 1, 2, 4, 5 hold fixture segments 1..5 (id 3 has no hypotheses: its output line is empty).
  const ids = [0, 1, 2, 4, 5];
  const dir = mkdtempSync(join(tmpdir(), 'palette-mbr-nbest-'));
  const list = join(dir, 'list.nbest');
  writeFileSync(list, fixture.segments.flatMap((sg, k) => sg.samples.map((x) => `${ids[k]} ||| ${x} ||| f0= 0.5 ||| -1.5`)).join('\n') + '\n');

  for (const [name, args] of Object.entries(METRIC_ARGS)) {
    it(`${name}: the golden choice of each id, in id order`, async () => {
      const scores = join(dir, `${name}.jsonl`);
      const r = await mbr(['--nbest', list, ...args, '--scores', scores]);
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      const lines = r.out.split('\n');
      expect(lines).toHaveLength(7);
      expect(lines[3]).toBe('');
      const rows = readFileSync(scores, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { segment: number; choice: number; utilities: number[] });
      expect(rows.map((row) => row.segment)).toEqual(ids.map((id) => id + 1));
      rows.forEach((row, k) => {
        const g = fixture.segments[k].metrics[name];
        if (row.choice !== g.mbr_choice) expect(g.near_ties).toContain(row.choice);
        expect(lines[ids[k]]).toBe(fixture.segments[k].samples[row.choice]);
        row.utilities.forEach((u, i) => expect(goldenClose(u, g.means[i])).toBe(true));
      });
    });
  }

  it('an id with one hypothesis is refused at its line unless --include-self', async () => {
    const one = join(dir, 'one.nbest');
    writeFileSync(one, '0 ||| a b c ||| f0= 1\n0 ||| a b d ||| f0= 1\n1 ||| only one ||| f0= 1\n2 ||| x ||| f0= 1\n2 ||| y ||| f0= 1\n');
    const out = join(dir, 'out.txt');
    writeFileSync(out, 'old\n');
    expectInputError(await mbr(['--nbest', one, '-m', 'chrf', '-o', out]), 'mbr', /one\.nbest:3: id 1 has one hypothesis/);
    expect(readFileSync(out, 'utf8')).toBe('old\n');
    const r = await mbr(['--nbest', one, '-m', 'chrf', '--include-self']);
    expect(r.code).toBe(0);
    expect(r.out.split('\n')[1]).toBe('only one');
  });

  it('refuses the options that take samples from files', async () => {
    for (const extra of [['--samples', list], ['--pseudo-refs', list], ['--weights', list], ['--matrix', join(dir, 'm.npy')]]) {
      expectInputError(await mbr(['--nbest', list, '-m', 'chrf', ...extra]), 'mbr', /--nbest takes its samples from the list/);
    }
    expectInputError(await mbr(['--nbest', list, '-m', 'chrf', '-j', '2']), 'mbr', /-j decides runs of segments of --samples files/);
  });
});

describe('bad input: one line, exit 2, output files untouched', () => {
  type Files = { dir: string; a: string; b: string; short: string; w1: string; bad: string; neg: string; zero: string };
  const make = (): Files => {
    const dir = mkdtempSync(join(tmpdir(), 'palette-mbr-bad-'));
    writeFileSync(join(dir, 'a.txt'), 'one\ntwo\nthree\n');
    writeFileSync(join(dir, 'b.txt'), 'uno\ndos\ntres\n');
    writeFileSync(join(dir, 'short.txt'), 'eins\nzwei\n');
    writeFileSync(join(dir, 'out.txt'), 'old\n');
    writeFileSync(join(dir, 'w1.txt'), '1\n1\n1\n');
    writeFileSync(join(dir, 'wbad.txt'), '1\nx\n1\n');
    writeFileSync(join(dir, 'wneg.txt'), '1\n1\n-1\n');
    writeFileSync(join(dir, 'wzero.txt'), '1\n0\n1\n');
    const p = (n: string) => join(dir, n);
    return { dir, a: p('a.txt'), b: p('b.txt'), short: p('short.txt'), w1: p('w1.txt'), bad: p('wbad.txt'), neg: p('wneg.txt'), zero: p('wzero.txt') };
  };
  const cases: [string, (f: ReturnType<typeof make>) => string[], RegExp][] = [
    ['sample files of different lengths', (f) => ['--samples', f.a, f.short, '-m', 'chrf'], /short\.txt: sample file has 2 lines, but .*a\.txt has 3/],
    ['pseudo-references of another length', (f) => ['--samples', f.a, f.b, '--pseudo-refs', f.short, '-m', 'chrf'], /short\.txt: pseudo-reference file has 2 lines, but .*a\.txt has 3/],
    ['one sample without --include-self', (f) => ['--samples', f.a, '-m', 'bleu'], /at least two sample files .*--include-self/],
    ['no samples', () => ['-m', 'bleu'], /the samples are required/],
    ['a metric without pairwise scores', (f) => ['--samples', f.a, f.b, '-m', 'nist'], /-m nist: no pairwise sentence scores/],
    ['no metric', (f) => ['--samples', f.a, f.b], /a metric is required/],
    ['a missing sample file', (f) => ['--samples', f.a, join(f.dir, 'nope.txt'), '-m', 'ter'], /nope\.txt: no such file/],
    ['a weight that is not a number', (f) => ['--samples', f.a, f.b, '-m', 'chrf', '--weights', f.w1, f.bad], /wbad\.txt:2: a weight must be a non-negative number \(got "x"\)/],
    ['a negative weight', (f) => ['--samples', f.a, f.b, '-m', 'chrf', '--weights', f.neg, f.w1], /wneg\.txt:3: a weight must be a non-negative number \(got "-1"\)/],
    ['weights that sum to zero', (f) => ['--samples', f.a, f.b, '-m', 'chrf', '--weights', f.zero, f.w1], /wzero\.txt:2: the weights of sample 2's pseudo-references sum to zero/],
    ['weight files of another length', (f) => ['--samples', f.a, f.b, '-m', 'chrf', '--weights', f.w1, f.short], /short\.txt: weight file has 2 lines, but .*a\.txt has 3/],
    ['a weight file per pseudo-reference', (f) => ['--samples', f.a, f.b, '-m', 'chrf', '--weights', f.w1], /--weights names 1 file\(s\) for 2 pseudo-references/],
  ];
  for (const [label, argv, message] of cases) {
    it(label, async () => {
      const f = make();
      const out = join(f.dir, 'out.txt');
      const r = await mbr([...argv(f), '-o', out, '--scores', out, '--matrix', out]);
      expectInputError(r, 'mbr', message);
      expect(readFileSync(out, 'utf8')).toBe('old\n');
      expect(readdirSync(f.dir).sort()).toEqual(['a.txt', 'b.txt', 'out.txt', 'short.txt', 'w1.txt', 'wbad.txt', 'wneg.txt', 'wzero.txt']);
    });
  }
  it('one sample with --include-self is its own choice', async () => {
    const f = make();
    const r = await mbr(['--samples', f.a, '-m', 'chrf', '--include-self']);
    expect(r).toEqual({ code: 0, out: 'one\ntwo\nthree\n', err: '' });
  });
});

describe('help', () => {
  it('palette mbr --help', async () => {
    const r = await mbr(['--help']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^usage: palette mbr \(--samples FILE \[FILE ...\] \| --nbest FILE\)/);
    for (const flag of ['--nbest', '--pseudo-refs', '--include-self', '--weights', '--matrix', '--scores', '--chrf-word-order']) expect(r.out).toContain(flag);
  });
  it('-s is BLEU\'s smoothing, as in palette score (no short name for --samples)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'palette-mbr-'));
    const files = writeSamples(dir, fixture.segments.map((s) => s.samples));
    const scores = (f: string) => readFileSync(f, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as { utilities: number[] });
    expect((await mbr(['--samples', ...files, '-m', 'bleu', '-s', 'floor', '--scores', join(dir, 'floor.jsonl')])).code).toBe(0);
    expect((await mbr(['--samples', ...files, '-m', 'bleu', '--scores', join(dir, 'exp.jsonl')])).code).toBe(0);
    expect(scores(join(dir, 'floor.jsonl'))).not.toEqual(scores(join(dir, 'exp.jsonl')));
    expect((await mbr(['--help'])).out).not.toMatch(/-s, --samples/);
  });

  it('palette --help lists it', async () => {
    expect((await palette(['--help'])).out).toMatch(/\n {2}mbr {7}minimum Bayes risk decoding/);
  });
});

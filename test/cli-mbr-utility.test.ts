/**
 * `palette mbr -m METRIC:WEIGHT …` (a weighted sum of sentence scores) and `--scores-format msgpack`: the utility
 * matrix is Σ weight · score of the metrics computed one by one (the same doubles, added in -m order), the expected
 * utilities their weighted sums; lower-is-better metrics mixed in are subtracted; one metric weighing 1 is that
 * metric; bad weights are refused with exit 2; MessagePack records decode to the JSON lines' numbers.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unpackMultiple } from 'msgpackr';
import { describe, expect, it } from 'vitest';
import { cliRunner, expectInputError } from './helpers/cli.js';

const mbr = cliRunner(['mbr']);

const fixture = JSON.parse(readFileSync(new URL('fixtures/pairwise/wmt21-en-de-5.json', import.meta.url), 'utf8')) as {
  segments: { samples: string[] }[];
};
const segments = fixture.segments.map((s) => s.samples.slice(0, 8));
const dir = mkdtempSync(join(tmpdir(), 'palette-mbr-utility-'));
const files = segments[0].map((_, k) => {
  const f = join(dir, `s${k}.txt`);
  writeFileSync(f, `${segments.map((seg) => seg[k]).join('\n')}\n`);
  return f;
});

interface Row { segment: number; choice: number; utilities: number[] }

/** palette mbr with `args`; its output lines, --scores rows and --matrix (.npy float64 data). */
async function run(args: string[], tag: string): Promise<{ out: string[]; rows: Row[]; matrix: Float64Array }> {
  const scores = join(dir, `${tag}.jsonl`);
  const matrix = join(dir, `${tag}.npy`);
  const r = await mbr(['--samples', ...files, ...args, '--scores', scores, '--matrix', matrix]);
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  const npy = readFileSync(matrix);
  const headerLength = npy.readUInt16LE(8);
  const data = npy.subarray(10 + headerLength);
  return {
    out: r.out.trimEnd().split('\n'),
    rows: readFileSync(scores, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Row),
    matrix: new Float64Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)),
  };
}

const relClose = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b));

describe('a weighted sum of metrics as the utility', () => {
  it('-m chrf:0.3 bleu:0.7 sums the metrics\' own matrices and utilities, weighted', async () => {
    const chrf = await run(['-m', 'chrf'], 'chrf');
    const bleu = await run(['-m', 'bleu'], 'bleu');
    const sum = await run(['-m', 'chrf:0.3', 'bleu:0.7'], 'sum');
    expect(sum.matrix.length).toBe(chrf.matrix.length);
    sum.matrix.forEach((v, e) => expect(v).toBe(0.3 * chrf.matrix[e] + 0.7 * bleu.matrix[e]));
    sum.rows.forEach((row, s) => {
      const want = row.utilities.map((_, i) => 0.3 * chrf.rows[s].utilities[i] + 0.7 * bleu.rows[s].utilities[i]);
      row.utilities.forEach((u, i) => {
        if (!relClose(u, want[i])) throw new Error(`segment ${s + 1} sample ${i}: ${u} ≠ ${want[i]}`);
      });
      expect(row.choice).toBe(row.utilities.indexOf(Math.max(...row.utilities)));
      expect(sum.out[s]).toBe(segments[s][row.choice]);
    });
    // The sum is not either metric alone: some segment's utilities differ from both.
    expect(sum.rows.some((row, s) => row.utilities[0] !== chrf.rows[s].utilities[0] && row.utilities[0] !== bleu.rows[s].utilities[0])).toBe(true);
  }, 60_000);

  it('one metric weighing 1 is that metric; a metric without a weight weighs 1', async () => {
    const plain = await run(['-m', 'chrf'], 'plain');
    const one = await run(['-m', 'chrf:1'], 'one');
    expect(one.rows).toEqual(plain.rows);
    expect(Array.from(one.matrix)).toEqual(Array.from(plain.matrix));
    const bleu = await run(['-m', 'bleu'], 'bleu1');
    const both = await run(['-m', 'chrf', 'bleu:1'], 'both');
    both.matrix.forEach((v, e) => expect(v).toBe(plain.matrix[e] + bleu.matrix[e]));
  }, 60_000);

  it('lower-is-better metrics mixed in are subtracted (chrF − TER, the highest wins); all lower-is-better: the lowest wins', async () => {
    const chrf = await run(['-m', 'chrf'], 'c');
    const ter = await run(['-m', 'ter'], 't');
    const mixed = await run(['-m', 'chrf', 'ter:2'], 'mixed');
    mixed.matrix.forEach((v, e) => expect(v).toBe(chrf.matrix[e] + -2 * ter.matrix[e]));
    mixed.rows.forEach((row) => expect(row.choice).toBe(row.utilities.indexOf(Math.max(...row.utilities))));
    const lower = await run(['-m', 'ter:0.5', 'wer:0.5'], 'lower');
    const wer = await run(['-m', 'wer'], 'w');
    lower.matrix.forEach((v, e) => expect(v).toBe(0.5 * ter.matrix[e] + 0.5 * wer.matrix[e]));
    lower.rows.forEach((row) => expect(row.choice).toBe(row.utilities.indexOf(Math.min(...row.utilities))));
  }, 60_000);

  it('-j 2 writes the bytes of -j 1 for a weighted sum', async () => {
    const outs: string[] = [];
    for (const j of ['1', '2']) {
      const scores = join(dir, `j${j}.jsonl`);
      const r = await mbr(['--samples', ...files, '-m', 'chrf:0.5', 'bleu:0.5', '--scores', scores, '-j', j]);
      expect(r.code).toBe(0);
      outs.push(r.out + readFileSync(scores, 'utf8'));
    }
    expect(outs[1]).toBe(outs[0]);
  }, 60_000);

  it('refuses weights that do not parse, are negative or sum to zero (exit 2, no output file)', async () => {
    const out = join(dir, 'never.txt');
    for (const [m, message] of [
      [['chrf:x', 'bleu:0.5'], /-m chrf:x: the weight "x" is not a non-negative number/],
      [['chrf:-1'], /-m chrf:-1: the weight "-1" is not a non-negative number/],
      [['chrf:'], /the weight "" is not/],
      [['chrf:0', 'bleu:0'], /the weights sum to zero/],
      [['chrf:0'], /the weights sum to zero/],
      [['chrf:nan'], /not a non-negative number/],
    ] as const) {
      expectInputError(await mbr(['--samples', ...files, '-m', ...m, '-o', out]), 'mbr', message);
    }
    expect(() => readFileSync(out)).toThrow();
  });
});

describe('help', () => {
  it('palette mbr --help names the weighted sum, --aggregate and --scores-format', async () => {
    const r = await mbr(['--help']);
    expect(r.code).toBe(0);
    for (const text of ['-m METRIC[:WEIGHT]', 'chrf:0.5 bleu:0.5', '--aggregate', 'Vamvas & Sennrich 2024', '--scores-format jsonl|msgpack']) expect(r.out).toContain(text);
  });
});

describe('--scores-format msgpack', () => {
  it('one MessagePack map per segment, the JSON lines\' records and numbers (samples and --nbest)', async () => {
    const json = join(dir, 'u.jsonl');
    const pack = join(dir, 'u.msgpack');
    for (const args of [['--samples', ...files, '-m', 'chrf:0.5', 'bleu:0.5']]) {
      const a = await mbr([...args, '--scores', json]);
      const b = await mbr([...args, '--scores', pack, '--scores-format', 'msgpack']);
      expect(b.out).toBe(a.out);
      const rows = readFileSync(json, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Row);
      const records = unpackMultiple(readFileSync(pack)) as Row[];
      expect(records).toEqual(rows);
      expect(records).toHaveLength(segments.length);
    }
    const nbest = join(dir, 'n.txt');
    writeFileSync(nbest, segments.flatMap((seg, s) => seg.map((h) => `${s} ||| ${h} ||| f= 0 ||| 0`)).join('\n') + '\n');
    const a = await mbr(['--nbest', nbest, '-m', 'bleu', '--scores', json]);
    const b = await mbr(['--nbest', nbest, '-m', 'bleu', '--scores', pack, '--scores-format', 'msgpack']);
    expect(b.code).toBe(0);
    expect(b.out).toBe(a.out);
    expect(unpackMultiple(readFileSync(pack))).toEqual(readFileSync(json, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l)));
  }, 60_000);

  it('refuses another format', async () => {
    expectInputError(await mbr(['--samples', ...files, '-m', 'chrf', '--scores', join(dir, 'x'), '--scores-format', 'csv']), 'mbr', /--scores-format must be one of jsonl, msgpack/);
  });
});

/**
 * The library's streaming n-best API (`scoreNbest`, `scoreNbestRows` from the package entry) against
 * `palette nbest`: for BLEU alone (Moses statistics, one batched call), BLEU + ROUGE-L + ROUGE-S4 + WER (the fused
 * fast path) and chrF (each metric's own rows), in-thread and with a pool of 2, the encoded bytes equal the
 * command's output file and the rows equal the command's JSON rows (and sentence scores). Also: text, one byte
 * array and bytes in pieces cut anywhere give the same bytes; references with a byte order mark and non-ASCII text
 * reach the pool's workers intact; bad input names the list and line; a merge with a previous run equals
 * `--prev-stats`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  InputError, nbestWorkerPool, readLines, scoreNbest, scoreNbestRows, type NbestBytesOptions, type NbestInput,
  type NbestRowBlock, type NbestRowsOptions, type NbestScoringOptions,
} from '../src/index.js';
import { runNbestCommand } from '../src/cli/nbest/command.js';

const FIX = join(import.meta.dirname, 'fixtures', 'nbest-joshua');
const NBEST = join(FIX, 'output.nbest');
const REF_FILES = [0, 1, 2, 3].map((k) => join(FIX, `reference.en.${k}`));
const REFS = REF_FILES.map((f) => readLines(f));
const LIST = readFileSync(NBEST);

const dir = mkdtempSync(join(tmpdir(), 'palette-engine-api-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `palette nbest` in-process; the output file's bytes. */
async function cli(args: string[], name: string, nbest = NBEST, refs = REF_FILES): Promise<Buffer> {
  let err = '';
  const io = { stdout: { write: () => true }, stderr: { write: (t: string) => (err += t) } };
  const path = join(dir, name);
  const code = await runNbestCommand(['--nbest', nbest, '-r', ...refs, ...args, '--stats', path], io);
  expect({ code, err }).toEqual({ code: 0, err: '' });
  return readFileSync(path);
}

/** Rows of the command's JSON Lines output, grouped into blocks as the library gives them. */
function jsonBlocks(bytes: Buffer): { sentence: number; stats: number[][]; scores?: (number | null)[][] }[] {
  const blocks: { sentence: number; stats: number[][]; scores?: (number | null)[][] }[] = [];
  for (const line of bytes.toString('utf8').split('\n')) {
    if (line === '') continue;
    const row = JSON.parse(line) as { sentence: number; stats: number[]; scores?: Record<string, number | null> };
    let block = blocks[blocks.length - 1];
    if (block === undefined || block.sentence !== row.sentence) {
      block = { sentence: row.sentence, stats: [] };
      if (row.scores !== undefined) block.scores = [];
      blocks.push(block);
    }
    block.stats.push(row.stats);
    if (row.scores !== undefined) block.scores!.push(Object.values(row.scores));
  }
  return blocks;
}

/** Library blocks in the same shape (NaN scores as null, as JSON writes them). */
function libraryBlocks(blocks: NbestRowBlock[]): ReturnType<typeof jsonBlocks> {
  return blocks.map((b) => {
    const stats = Array.from({ length: b.count }, (_, k) => Array.from(b.stats.subarray(k * b.width, (k + 1) * b.width)));
    if (b.scores === undefined) return { sentence: b.sentence, stats };
    const n = b.scores.length / b.count;
    const scores = Array.from({ length: b.count }, (_, k) =>
      Array.from(b.scores!.subarray(k * n, (k + 1) * n), (v) => (Number.isNaN(v) ? null : v)),
    );
    return { sentence: b.sentence, stats, scores };
  });
}

/** The bytes `scoreNbest` writes, concatenated. */
async function libraryBytes(input: NbestInput, options: Omit<NbestBytesOptions, 'output'>) {
  const parts: Uint8Array[] = [];
  const info = await scoreNbest(input, { ...options, output: (b) => parts.push(b) });
  return { bytes: Buffer.concat(parts), info };
}

/** The blocks `scoreNbestRows` hands over. */
async function libraryRows(input: NbestInput, options: Omit<NbestRowsOptions, 'onRows'>) {
  const blocks: NbestRowBlock[] = [];
  const info = await scoreNbestRows(input, { ...options, onRows: (b) => blocks.push(b) });
  return { blocks, info };
}

const POOL: Partial<NbestScoringOptions> = { workers: 2, pool: nbestWorkerPool, taskSize: 3000 };

describe('the library API gives palette nbest’s bytes and rows', () => {
  it.each([
    ['BLEU alone', ['bleu']],
    ['BLEU + ROUGE-L + ROUGE-S4 + WER', ['bleu', 'rouge-l', 'rouge-s4', 'wer']],
    ['chrF (per-metric rows)', ['chrf']],
  ])('%s: in-thread and with a pool of 2', async (_, metrics) => {
    const moses = await cli(['-m', ...metrics, '--workers', '1'], 'moses');
    const json = jsonBlocks(await cli(['-m', ...metrics, '--workers', '1', '--stats-format', 'json'], 'json'));
    expect(json.length).toBe(REFS[0].length);
    const base = { metrics, references: REFS };

    const inThread = await libraryBytes(LIST, base);
    expect(inThread.info.inThread).toBe(true);
    expect(inThread.bytes.equals(moses)).toBe(true);
    const rows = await libraryRows(LIST, base);
    expect(libraryBlocks(rows.blocks)).toEqual(json);

    const pooled = await libraryBytes(LIST, { ...base, ...POOL });
    expect(pooled.info.inThread).toBe(false);
    expect(pooled.info.poolTasks).toBeGreaterThan(0);
    expect(pooled.bytes.equals(moses)).toBe(true);
    const pooledRows = await libraryRows(LIST, { ...base, ...POOL });
    expect(pooledRows.info.poolTasks).toBeGreaterThan(0);
    expect(libraryBlocks(pooledRows.blocks)).toEqual(json);
  });

  it('JSON with sentence scores, and rows with their scores, in-thread and pooled', async () => {
    const metrics = ['bleu', 'rouge-l', 'wer'];
    const args = ['-m', ...metrics, '--stats-format', 'json', '--sentence-scores'];
    const json = await cli([...args, '--workers', '1'], 'json-scores');
    const options = { metrics, references: REFS, sentenceScores: true };
    expect((await libraryBytes(LIST, { ...options, format: 'json' })).bytes.equals(json)).toBe(true);
    const expected = jsonBlocks(json);
    expect(expected[0].scores?.[0]).toHaveLength(3);
    expect(libraryBlocks((await libraryRows(LIST, options)).blocks)).toEqual(expected);
    expect(libraryBlocks((await libraryRows(LIST, { ...options, ...POOL })).blocks)).toEqual(expected);
  });

  it('MessagePack bytes equal the command’s, with a pool of 2', async () => {
    const metrics = ['bleu', 'rouge-s4'];
    const msgpack = await cli(['-m', ...metrics, '--stats-format', 'msgpack', '--workers', '1'], 'msgpack');
    const { bytes } = await libraryBytes(LIST, { metrics, references: REFS, format: 'msgpack', ...POOL });
    expect(bytes.equals(msgpack)).toBe(true);
  });
});

describe('inputs and settings', () => {
  const metrics = ['bleu', 'rouge-l', 'wer'];

  it('text, one byte array, and bytes in pieces cut anywhere (chunks down to one segment) give the same bytes', async () => {
    const expected = (await libraryBytes(LIST, { metrics, references: REFS })).bytes;
    expect(expected.length).toBeGreaterThan(0);
    expect((await libraryBytes(LIST.toString('utf8'), { metrics, references: REFS })).bytes.equals(expected)).toBe(true);
    for (const piece of [1, 7, 333, 4096]) {
      async function* pieces(): AsyncGenerator<Uint8Array> {
        for (let at = 0; at < LIST.length; at += piece) yield LIST.subarray(at, at + piece);
      }
      for (const taskSize of [1, 500, 1 << 18]) {
        const { bytes, info } = await libraryBytes(pieces(), { metrics, references: REFS, taskSize });
        expect(bytes.equals(expected), `pieces of ${piece} bytes, task size ${taskSize}`).toBe(true);
        if (taskSize === 1) expect(info.tasks).toBe(REFS[0].length);
      }
    }
  });

  it('settings reach the metrics: --rouge-flavor rouge155 --stem --wer-lowercase', async () => {
    const flags = ['--rouge-flavor', 'rouge155', '--stem', '--wer-lowercase'];
    const moses = await cli(['-m', ...metrics, ...flags, '--workers', '1'], 'settings');
    const settings = { rouge: { flavor: 'rouge155' as const, stem: true }, wer: { lowercase: true } };
    const { bytes } = await libraryBytes(LIST, { metrics, references: REFS, settings, ...POOL });
    expect(bytes.equals(moses)).toBe(true);
    expect(bytes.equals((await libraryBytes(LIST, { metrics, references: REFS })).bytes)).toBe(false);
  });

  it('references with a byte order mark and non-ASCII text reach the pool workers as they are', async () => {
    const refs = [['\uFEFFzürich ist schön', 'b c d e', 'x'], ['schön ist es', 'c d', 'x y']];
    let list = '';
    for (let s = 0; s < 3; s++) {
      for (const h of ['\uFEFFzürich ist schön', 'zürich ist schön', 'b c d', 'x y z']) list += `${s} ||| ${h} ||| f= ${h.length} ||| 0\n`;
    }
    const options = { metrics: ['bleu', 'rouge-l', 'wer'], references: refs };
    const inThread = await libraryRows(list, options);
    const pooled = await libraryRows(list, { ...options, workers: 2, pool: nbestWorkerPool, taskSize: 1 });
    expect(pooled.info.poolTasks).toBeGreaterThan(0);
    expect(libraryBlocks(pooled.blocks)).toEqual(libraryBlocks(inThread.blocks));
    // The BOM is part of the first reference's first word: the candidate with it matches all 3 words, the other 2.
    const { stats, width } = inThread.blocks[0];
    const [withBom, without] = [stats[0], stats[width]];
    expect([withBom, without]).toEqual([3, 2]);
  });

  it('bad input: an InputError naming the list and the line, in-thread and pooled', async () => {
    const list = '0 ||| a b ||| f= 1 ||| 0\n1 ||| c d ||| f= 1 ||| 0\n1 c d\n';
    for (const extra of [{}, { workers: 2, pool: nbestWorkerPool, taskSize: 1 }]) {
      const run = libraryBytes(list, { metrics: ['bleu', 'wer'], references: [['a b', 'c d']], name: 'my.nbest', ...extra });
      await expect(run).rejects.toBeInstanceOf(InputError);
      await expect(run).rejects.toMatchObject({ file: 'my.nbest', line: 3 });
    }
  });

  it('workers > 1 without a pool is refused', async () => {
    await expect(libraryBytes(LIST, { metrics, references: REFS, workers: 2 })).rejects.toBeInstanceOf(RangeError);
  });

  it('a merge with a previous run equals palette nbest --prev-stats', async () => {
    const head = LIST.toString('utf8').split('\n').slice(0, 40).join('\n') + '\n';
    writeFileSync(join(dir, 'head.nbest'), head);
    const prev = await cli(['-m', ...metrics, '--allow-duplicates', '--workers', '1'], 'prev', join(dir, 'head.nbest'));
    const merged = await cli(['-m', ...metrics, '--allow-duplicates', '--prev-stats', join(dir, 'prev')], 'merged');
    const { bytes } = await libraryBytes(LIST, {
      metrics,
      references: REFS,
      allowDuplicates: true,
      previous: { stats: { name: 'prev', lines: readLines(join(dir, 'prev')) } },
    });
    expect(bytes.equals(merged)).toBe(true);
    expect(merged.length).toBeGreaterThan(prev.length);
  });
});

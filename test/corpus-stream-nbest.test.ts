import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { readNbestBatches } from '../src/node/nbest.js';
import type { NbestOptions } from '../src/corpus/nbest.js';
import { InputError } from '../src/errors.js';
import { haveShared, sharedPath } from './helpers/shared-data.js';

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, 'fixtures', 'corpus-stream');
const dir = mkdtempSync(join(tmpdir(), 'palette-stream-nbest-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let fileNo = 0;
function writeTemp(text: string): string {
  const path = join(dir, `n${fileNo++}.txt`);
  writeFileSync(path, text, 'utf8');
  return path;
}

interface Entry {
  id: number;
  hyp: string;
  features: string | undefined;
  score: number;
  line: number;
}

async function entries(path: string, options: NbestOptions = {}): Promise<Entry[]> {
  const out: Entry[] = [];
  for await (const b of readNbestBatches(path, { features: true, ...options })) {
    expect(b.count).toBeGreaterThan(0);
    for (let i = 0; i < b.count; i++) {
      const [id, hyp, features, score, line] = [b.ids[i], b.hypotheses[i], b.features?.[i], b.scores[i], b.lines[i]];
      out.push({ id, hyp, features, score, line });
    }
  }
  return out;
}

/** An independent reading: whole file, split with String.split (fine for well-formed lists). */
function naive(path: string): Entry[] {
  const lines = readFileSync(path, 'utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map((l, i) => {
    const f = l.split('|||');
    return { id: Number(f[0]), hyp: f[1], features: f[2], score: f.length > 3 ? Number(f[3]) : NaN, line: i + 1 };
  });
}

async function error(path: string, options: NbestOptions = {}): Promise<InputError> {
  try {
    await entries(path, options);
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error('expected an InputError');
}

describe('n-best fixtures', () => {
  it('Moses list (id written without a blank before |||)', async () => {
    const path = join(fixtures, 'moses-nbest.txt');
    const got = await entries(path, { chunkSize: 64, maxLines: 3 });
    expect(got).toEqual(naive(path));
    expect(got.map((e) => e.id)).toEqual([0, 0, 0, 0, 0, 1, 1, 1, 1]);
    expect(got[0].hyp).toBe(' mr president , we shall be in biarritz , look a little further .  ');
    expect(got[0].score).toBe(-9.26049);
    expect(got[0].features?.startsWith(' d= 0 -3.30693 ')).toBe(true);
  });

  it('Joshua list (multi-byte OOV tokens, name=value features)', async () => {
    const path = join(fixtures, 'joshua-nbest.txt');
    for (const chunkSize of [1, 7, 100, 1 << 20]) {
      const got = await entries(path, { chunkSize });
      expect(got).toEqual(naive(path));
    }
    const got = await entries(path);
    expect(got[0].hyp).toBe(
      ' rabindranath was born in kolkata a পিরালী ব্রাহ্মণ in the family ',
    );
    expect(got[0].score).toBe(-227.217);
    expect(got.filter((e) => e.id === 1)).toHaveLength(2);
  });

  it('features are only kept on request', async () => {
    for await (const b of readNbestBatches(join(fixtures, 'moses-nbest.txt'))) expect(b.features).toBeUndefined();
  });
});

/** The n-best lists of ../shared read below: path, candidates (when checked), segments. */
const SHARED_NBEST: [string, number | undefined, number][] = [
  ['data/moses-mert/mert.extractor-txt/data/nbest.1', 1000, 10],
  ['data/moses-mert/mert.extractor-txt/data/nbest.5', undefined, 10],
  ['data/joshua-bn-en/output.gold', 805, 100],
  ['data/joshua-bn-en/output-classlm.gold', 678, 100],
];

describe.skipIf(!haveShared(...SHARED_NBEST.map(([rel]) => rel)))('n-best lists of the shared material', () => {
  it.each(SHARED_NBEST)('%s', async (rel, lines, segments) => {
    const path = sharedPath(rel);
    const got = await entries(path, { segmentCount: segments, chunkSize: 4096, maxLines: 128 });
    if (lines !== undefined) expect(got).toHaveLength(lines);
    expect(got).toEqual(naive(path));
    expect(Math.max(...got.map((e) => e.id))).toBeLessThan(segments);
  });
});

describe('malformed n-best lines: typed error with file and line', () => {
  const ok = '0 ||| a b ||| f= 1 ||| -1\n';
  it.each([
    ['too few fields', `${ok}0 ||| a b\n`, 'E_BAD_INPUT', 2, /2 fields .*expected at least 3/],
    ['one field', `${ok}${ok}just text\n`, 'E_BAD_INPUT', 3, /1 field separated/],
    ['too many fields', `${ok}0 ||| a ||| f ||| 1 ||| x ||| y ||| z\n`, 'E_BAD_INPUT', 2, /more than 6 fields/],
    ['non-integer id', `${ok}1.5 ||| a ||| f ||| 1\n`, 'E_BAD_INPUT', 2, /id "1.5" is not a non-negative integer/],
    ['negative id', `-1 ||| a ||| f ||| 1\n`, 'E_BAD_INPUT', 1, /id "-1"/],
    ['empty id', `${ok} ||| a ||| f\n`, 'E_BAD_INPUT', 2, /id ""/],
    ['id too large', `${ok}2147483648 ||| a ||| f\n`, 'E_BAD_INPUT', 2, /below 2\^31/],
    ['ids out of order', `1 ||| a ||| f\n2 ||| a ||| f\n\n1 ||| a ||| f\n`, 'E_BAD_INPUT', 4, /id 1 after id 2/],
    ['bad score', `${ok}0 ||| a ||| f ||| high\n`, 'E_BAD_INPUT', 2, /score "high" is not a number/],
    ['empty score', `${ok}0 ||| a ||| f |||\n`, 'E_BAD_INPUT', 2, /score "" is not a number/],
  ])('%s', async (_name, text, code, line, message) => {
    const path = writeTemp(text);
    for (const chunkSize of [1, 5, 1 << 20]) {
      const err = await error(path, { chunkSize });
      expect(err).toMatchObject({ code, file: path, line });
      expect(err.message).toMatch(message);
    }
  });

  it('an id without a reference segment', async () => {
    const path = writeTemp('0 ||| a ||| f\n1 ||| b ||| f\n2 ||| c ||| f\n');
    const err = await error(path, { segmentCount: 2 });
    expect(err).toMatchObject({ code: 'E_LINE_COUNT_MISMATCH', file: path, line: 3 });
    expect(err.message).toMatch(/id 2 has no reference: the references have 2 segment/);
    await expect(entries(path, { segmentCount: 3 })).resolves.toHaveLength(3);
  });

  it('invalid UTF-8 and empty files keep the line reader errors', async () => {
    const bad = join(dir, 'bad.txt');
    const bytes = [Buffer.from('0 ||| a ||| f\n0 ||| '), Buffer.from([0xff]), Buffer.from(' ||| f\n')];
    writeFileSync(bad, Buffer.concat(bytes));
    expect(await error(bad, { chunkSize: 3 })).toMatchObject({ code: 'E_INVALID_UTF8', file: bad, line: 2 });
    expect(await error(writeTemp(''))).toMatchObject({ code: 'E_EMPTY_INPUT' });
  });
});

describe('gzip lists (as palette nbest reads them)', () => {
  it('the entries, lines and errors of the plain list, whatever the chunk size', async () => {
    const plain = join(fixtures, 'joshua-nbest.txt');
    const gz = join(dir, 'joshua-nbest.txt.gz');
    writeFileSync(gz, gzipSync(readFileSync(plain)));
    for (const chunkSize of [1, 7, 100, 1 << 20]) {
      expect(await entries(gz, { chunkSize, maxLines: 3 })).toEqual(await entries(plain, { chunkSize, maxLines: 3 }));
    }
    const bad = join(dir, 'bad.txt.gz');
    writeFileSync(bad, gzipSync(Buffer.concat([Buffer.from('0 ||| a ||| f\n0 ||| '), Buffer.from([0xff]), Buffer.from(' ||| f\n')])));
    expect(await error(bad, { chunkSize: 3 })).toMatchObject({ code: 'E_INVALID_UTF8', file: bad, line: 2 });
    const empty = join(dir, 'empty.txt.gz');
    writeFileSync(empty, gzipSync(Buffer.alloc(0)));
    expect(await error(empty)).toMatchObject({ code: 'E_EMPTY_INPUT', file: empty });
  });

  it('gzip data cut short: E_FILE_UNREADABLE naming the file', async () => {
    const whole = gzipSync(readFileSync(join(fixtures, 'joshua-nbest.txt')));
    const cut = join(dir, 'cut.txt.gz');
    writeFileSync(cut, whole.subarray(0, whole.length >> 1));
    const err = await error(cut);
    expect(err).toMatchObject({ code: 'E_FILE_UNREADABLE', file: cut });
    expect(err.message).toContain('cannot decompress the gzip file');
  });
});

describe('accepted variants', () => {
  it('3 fields (no score), alignment fields, empty lines, CRLF, id jumps and blanks around the id', async () => {
    const path = writeTemp('0 ||| a ||| f\r\n\n 0|||b|||f|||2|||0-0|||0-0 1-1\n\r\n3 ||| c ||| f ||| -1e-3\n');
    const got = await entries(path);
    expect(got).toEqual([
      { id: 0, hyp: ' a ', features: ' f', score: NaN, line: 1 },
      { id: 0, hyp: 'b', features: 'f', score: 2, line: 3 },
      { id: 3, hyp: ' c ', features: ' f ', score: -0.001, line: 5 },
    ]);
  });
});

describe('bounded memory', () => {
  it('a 200k-line n-best list streams in batches of at most maxLines, each from one small chunk', async () => {
    const n = 200_000;
    const parts: string[] = [];
    for (let i = 0; i < n; i++) parts.push(`${Math.floor(i / 10)} ||| hyp ${i} x ||| lm= ${-i} ||| ${-i / 4}\n`);
    const path = writeTemp(parts.join(''));
    parts.length = 0;
    const maxLines = 512;
    const chunkSize = 8192;
    let total = 0;
    let peak = 0;
    let previous = -1;
    let checksum = 0;
    for await (const b of readNbestBatches(path, { maxLines, chunkSize })) {
      // What a batch holds at once: its arrays (≤ maxLines entries) and one decoded chunk.
      peak = Math.max(peak, b.count, b.ids.length, b.hypotheses.length, b.scores.length);
      for (let i = 0; i < b.count; i++) {
        expect(b.ids[i]).toBeGreaterThanOrEqual(previous);
        previous = b.ids[i];
        checksum += b.scores[i];
      }
      expect(b.hypotheses[0]).toBe(` hyp ${total} x `);
      total += b.count;
    }
    expect(total).toBe(n);
    expect(peak).toBeLessThanOrEqual(maxLines);
    expect(previous).toBe(n / 10 - 1);
    expect(checksum).toBe(-((n - 1) * n) / 2 / 4);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJsonlFieldBatches, type JsonlOptions } from '../src/node/jsonl.js';
import { readTsvColumnBatches, type TsvOptions } from '../src/node/tsv.js';
import { InputError } from '../src/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'palette-stream-tab-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let fileNo = 0;
function writeTemp(text: string): string {
  const path = join(dir, `t${fileNo++}.txt`);
  writeFileSync(path, text, 'utf8');
  return path;
}

async function collect(it: AsyncGenerator<{ values: string[]; lines: Int32Array; count: number }>) {
  const values: string[] = [];
  const lines: number[] = [];
  for await (const b of it) {
    expect(b.count).toBeGreaterThan(0);
    values.push(...b.values.slice(0, b.count));
    lines.push(...b.lines.subarray(0, b.count));
  }
  return { values, lines };
}

async function failure(run: () => Promise<unknown>): Promise<InputError> {
  try {
    await run();
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error('expected an InputError');
}

const tsv = (path: string, o: TsvOptions) => collect(readTsvColumnBatches(path, o));
const jsonl = (path: string, o: JsonlOptions) => collect(readJsonlFieldBatches(path, o));

describe('TSV column reader', () => {
  const path = writeTemp('src\tref\tsys\na\tb€\tc\n\t\t\nx\t"q"\ty\tz\n');
  it('column by index and by header name, at any chunk size', async () => {
    for (const chunkSize of [1, 3, 64]) {
      expect(await tsv(path, { column: 1, chunkSize, maxLines: 2 })).toEqual({
        values: ['ref', 'b€', '', '"q"'],
        lines: [1, 2, 3, 4],
      });
      expect(await tsv(path, { column: 'sys', header: true, chunkSize })).toEqual({
        values: ['c', '', 'y'],
        lines: [2, 3, 4],
      });
    }
    expect((await tsv(path, { column: 0 })).values).toEqual(['src', 'a', '', 'x']);
  });
  it('errors', async () => {
    const short = writeTemp('a\tb\nc\n');
    const err = await failure(() => tsv(short, { column: 1 }));
    expect(err).toMatchObject({ code: 'E_BAD_INPUT', file: short, line: 2 });
    expect((await failure(() => tsv(short, { column: 1 }))).message).toMatch(/1 tab-separated field\(s\), column 1/);
    const unknown = await failure(() => tsv(path, { column: 'nope', header: true }));
    expect(unknown).toMatchObject({ code: 'E_BAD_INPUT', line: 1 });
    expect(await failure(() => tsv(path, { column: 'sys' }))).toMatchObject({ code: 'E_BAD_OPTION' });
    await expect(tsv(path, { column: -1 })).rejects.toThrow(RangeError);
  });
});

describe('JSONL field reader', () => {
  it('string field of each object, at any chunk size', async () => {
    const path = writeTemp('{"hyp":"a b","n":1}\n{"n":2,"hyp":"\\u00e9\\n\\t"}\n{"hyp":"ব্রাহ্মণ"}\n');
    for (const chunkSize of [1, 5, 1024]) {
      expect(await jsonl(path, { field: 'hyp', chunkSize, maxLines: 2 })).toEqual({
        values: ['a b', 'é\n\t', 'ব্রাহ্মণ'],
        lines: [1, 2, 3],
      });
    }
  });
  it.each([
    ['invalid JSON', '{"hyp":"a"}\n{"hyp":\n', 2, /invalid JSON/],
    ['not an object', '{"hyp":"a"}\n["hyp"]\n', 2, /not a JSON object/],
    ['missing field', '{"hyp":"a"}\n{"ref":"a"}\n', 2, /no field "hyp"/],
    ['non-string field', '{"hyp":"a"}\n{"hyp":3}\n', 2, /field "hyp" is number, not a string/],
    ['null field', '{"hyp":null}\n', 1, /is null/],
    ['empty line', '{"hyp":"a"}\n\n{"hyp":"b"}\n', 2, /empty line/],
  ])('%s', async (_name, text, line, message) => {
    const path = writeTemp(text);
    const err = await failure(() => jsonl(path, { field: 'hyp', chunkSize: 4 }));
    expect(err).toMatchObject({ code: 'E_BAD_INPUT', file: path, line });
    expect(err.message).toMatch(message);
  });
});

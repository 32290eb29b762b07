import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readLines } from '../src/node/read-lines.js';
import type { NewlineMode } from '../src/corpus/read-lines.js';
import { batchLines } from '../src/corpus/stream/line-batch.js';
import { readLineBatches } from '../src/node/read-line-batches.js';
import type { LineStreamOptions } from '../src/corpus/stream/line-batch.js';
import { InputError } from '../src/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'palette-stream-lines-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let fileNo = 0;
function writeTemp(bytes: Uint8Array): string {
  const path = join(dir, `f${fileNo++}.txt`);
  writeFileSync(path, bytes);
  return path;
}

type Outcome = { lines: string[]; lineNumbers: number[] } | { code: string; message: string; line?: number };

async function streamed(path: string, options: LineStreamOptions): Promise<Outcome> {
  const lines: string[] = [];
  const lineNumbers: number[] = [];
  try {
    for await (const batch of readLineBatches(path, options)) {
      expect(batch.count).toBeGreaterThan(0);
      expect(batch.count).toBeLessThanOrEqual(options.maxLines ?? Infinity);
      batchLines(batch).forEach((l, i) => {
        lines.push(l);
        lineNumbers.push(batch.firstLine + i);
      });
    }
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    return { code: err.code, message: err.message, line: err.line };
  }
  return { lines, lineNumbers };
}

function whole(path: string, newline: NewlineMode, allowEmpty: boolean): Outcome {
  try {
    const lines = readLines(path, { newline, allowEmpty });
    return { lines, lineNumbers: lines.map((_, i) => i + 1) };
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    return { code: err.code, message: err.message, line: err.line };
  }
}

/** Bytes that make line and UTF-8 edge cases likely: terminators, ASCII, valid multi-byte text and stray bytes. */
const piece = fc.oneof(
  fc.constantFrom([0x0a], [0x0d], [0x0d, 0x0a], [0x61], [0x20], [0xef, 0xbb, 0xbf]),
  fc.string({ unit: 'grapheme', maxLength: 3 }).map((s) => [...Buffer.from(s, 'utf8')]),
  fc.constantFrom([0xc3, 0xa9], [0xe2, 0x82, 0xac], [0xf0, 0x9f, 0x98, 0x80], [0xed, 0xa0, 0x80], [0xc0, 0xaf]),
  fc.integer({ min: 0, max: 255 }).map((b) => [b]),
);
const fileBytes = (validOnly: boolean) =>
  fc
    .array(validOnly ? fc.oneof(piece.filter((p) => p.length !== 1 || p[0] < 0x80)) : piece, { maxLength: 40 })
    .map((ps) => Uint8Array.from(ps.flat()))
    .filter((b) => !validOnly || Buffer.from(b.slice()).toString('utf8') === new TextDecoder().decode(b));

describe('readLineBatches = readLines, chunk by chunk', () => {
  for (const newline of ['lf', 'universal'] as const) {
    it(`random files, chunk sizes 1..17, ${newline}`, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.boolean().chain((valid) => fileBytes(valid)),
          fc.integer({ min: 1, max: 17 }),
          fc.integer({ min: 1, max: 5 }),
          fc.boolean(),
          async (bytes, chunkSize, maxLines, allowEmpty) => {
            const path = writeTemp(bytes);
            const got = await streamed(path, { chunkSize, maxLines, newline, allowEmpty });
            expect(got).toEqual(whole(path, newline, allowEmpty));
          },
        ),
        { numRuns: 400 },
      );
    });
  }

  it('a UTF-8 sequence split across every possible chunk boundary decodes whole', async () => {
    const text = 'é€😀\nx😀y\r\n€\n';
    const path = writeTemp(Buffer.from(text, 'utf8'));
    for (let chunkSize = 1; chunkSize <= 20; chunkSize++) {
      expect(await streamed(path, { chunkSize })).toEqual(whole(path, 'lf', false));
    }
  });

  it('invalid UTF-8 at and around chunk boundaries: same offset, byte and line as readLines', async () => {
    const good = Buffer.from('ab\ncd€\n', 'utf8'); // 9 bytes, 2 lines
    const cases = [
      [0xff],
      [0xe2, 0x82], // truncated, then a newline
      [0xe2, 0x82, 0x0a],
      [0xf0, 0x9f, 0x98],
      [0xed, 0xa0, 0x80], // surrogate
    ];
    for (const bad of cases) {
      for (const tail of [[], [0x0a], [0x7a, 0x0a, 0x7a]]) {
        const bytes = Buffer.concat([good, Buffer.from(bad), Buffer.from(tail)]);
        const path = writeTemp(bytes);
        const expected = whole(path, 'lf', false);
        expect(expected).toMatchObject({ code: 'E_INVALID_UTF8', line: 3 });
        for (let chunkSize = 1; chunkSize <= 14; chunkSize++) {
          expect(await streamed(path, { chunkSize })).toEqual(expected);
        }
      }
    }
  });

  it('file errors are typed and name the file', async () => {
    const missing = join(dir, 'missing.txt');
    await expect(streamed(missing, {})).resolves.toMatchObject({ code: 'E_FILE_NOT_FOUND' });
    await expect(streamed(dir, {})).resolves.toMatchObject({ code: 'E_FILE_UNREADABLE' });
    const empty = writeTemp(new Uint8Array(0));
    await expect(streamed(empty, {})).resolves.toMatchObject({ code: 'E_EMPTY_INPUT' });
    await expect(streamed(empty, { allowEmpty: true })).resolves.toEqual({ lines: [], lineNumbers: [] });
    await expect(streamed(empty, { encoding: 'latin-1' })).resolves.toMatchObject({ code: 'E_BAD_OPTION' });
  });

  it('rejects bad chunk options', async () => {
    const path = writeTemp(Buffer.from('a\n'));
    await expect(streamed(path, { chunkSize: 0 })).rejects.toThrow(RangeError);
    await expect(streamed(path, { maxLines: 1.5 })).rejects.toThrow(RangeError);
  });

  it('a line longer than the chunk grows the buffer and stays whole', async () => {
    const long = 'w'.repeat(10_000);
    const path = writeTemp(Buffer.from(`a\n${long}\nb`, 'utf8'));
    expect(await streamed(path, { chunkSize: 7 })).toEqual({ lines: ['a', long, 'b'], lineNumbers: [1, 2, 3] });
  });
});

import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeLines, firstInvalidUtf8, resolveEncoding, splitLines } from '../src/corpus/read-lines.js';
import { fileError, readLines, readStreamLines } from '../src/node/read-lines.js';
import { InputError } from '../src/errors.js';

const bytes = (...parts: (string | number[])[]): Uint8Array =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

/** The InputError `fn` throws. */
function thrown(fn: () => unknown): InputError {
  try {
    fn();
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error('expected an InputError');
}

describe('splitting lines as Python open(newline="\\n") does', () => {
  it.each([
    ['a\nb\n', ['a', 'b']],
    ['a\nb', ['a', 'b']],
    ['a\n\nb\n', ['a', '', 'b']],
    ['\n', ['']],
    ['a\r\nb\r\n', ['a\r', 'b\r']],
    ['a\rb\n', ['a\rb']],
    ['a\u2028b\x85c\n', ['a\u2028b\x85c']],
  ])('%j', (text, lines) => expect(splitLines(text, 'lf')).toEqual(lines));
});

describe('universal newlines (sacrebleu reads stdin so)', () => {
  it.each([
    ['a\r\nb\rc\n', ['a', 'b', 'c']],
    ['a\r', ['a']],
    ['a\n\r\nb', ['a', '', 'b']],
  ])('%j', (text, lines) => expect(splitLines(text, 'universal')).toEqual(lines));
});

describe('decodeLines', () => {
  it('keeps a byte-order mark, as Python utf-8 (not utf-8-sig) does', () => {
    expect(decodeLines(bytes([0xef, 0xbb, 0xbf], 'x\n'), 'f')).toEqual(['\ufeffx']);
  });

  it('reports the line and offset of the first invalid byte', () => {
    const err = thrown(() => decodeLines(bytes('ok\nstill ok\nbad ', [0xc3, 0x28], '\n'), 'sys.de'));
    expect(err.code).toBe('E_INVALID_UTF8');
    expect([err.file, err.line]).toEqual(['sys.de', 3]);
    expect(err.message).toContain('0xc3 at byte offset 16');
  });

  it('counts lines by the selected newline mode', () => {
    expect(thrown(() => decodeLines(bytes('a\rb\r', [0xff]), '<stdin>', { newline: 'universal' })).line).toBe(3);
    expect(thrown(() => decodeLines(bytes('a\rb\r', [0xff]), 'f')).line).toBe(1);
  });

  it('rejects a 0-byte input unless allowed', () => {
    expect(thrown(() => decodeLines(new Uint8Array(0), 'ref.de')).code).toBe('E_EMPTY_INPUT');
    expect(decodeLines(new Uint8Array(0), 'ref.de', { allowEmpty: true })).toEqual([]);
  });
});

describe('firstInvalidUtf8 (WHATWG/Python strictness)', () => {
  it.each([
    [[0x61, 0x62], -1],
    [[0xe2, 0x82, 0xac], -1], // €
    [[0xf0, 0x9f, 0x98, 0x80], -1], // 😀
    [[0x61, 0xc0, 0x80], 1], // overlong NUL
    [[0xe0, 0x80, 0x80], 0], // overlong
    [[0xed, 0xa0, 0x80], 0], // surrogate D800
    [[0xf4, 0x90, 0x80, 0x80], 0], // above U+10FFFF
    [[0x61, 0xe2, 0x82], 1], // truncated
    [[0x80], 0], // lone continuation
    [[0xe2, 0x28, 0xa1], 0],
  ])('%j → %i', (input, at) => expect(firstInvalidUtf8(Uint8Array.from(input))).toBe(at));
});

describe('readLines', () => {
  // Created when the tests run (not when they are collected) and removed afterwards.
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'palette-read-'));
  });
  afterAll(() => {
    if (dir !== '') rmSync(dir, { recursive: true, force: true });
  });

  it('reads a file', () => {
    writeFileSync(join(dir, 'a.txt'), 'x y\r\nz\n');
    expect(readLines(join(dir, 'a.txt'))).toEqual(['x y\r', 'z']);
  });

  it('names the file when it is missing or is a directory', () => {
    const missing = thrown(() => readLines(join(dir, 'none.txt')));
    expect([missing.code, missing.file]).toEqual(['E_FILE_NOT_FOUND', join(dir, 'none.txt')]);
    mkdirSync(join(dir, 'sub'));
    expect(thrown(() => readLines(join(dir, 'sub'))).code).toBe('E_FILE_UNREADABLE');
  });

  it('says what is wrong in plain words, never as a bare error code', () => {
    writeFileSync(join(dir, 'plain.txt'), 'x\n');
    const under = thrown(() => readLines(join(dir, 'plain.txt', 'x.txt')));
    expect([under.code, under.message]).toEqual(['E_FILE_NOT_FOUND', 'no such file (a folder of its path is a file)']);
    expect(thrown(() => readLines(join(dir, 'sub-missing'))).message).toBe('no such file');
    const io = Object.assign(new Error("EIO: i/o error, read"), { code: 'EIO', syscall: 'read' });
    expect(fileError(io, 'f.txt').message).toBe('cannot read the file: i/o error');
    const other = Object.assign(new Error("ELOOP: too many symbolic links encountered, open 'a'"), { code: 'ELOOP' });
    expect(fileError(other, 'a').message).toBe('cannot read the file: too many symbolic links encountered');
  });

  it('accepts the UTF-8 spellings Python accepts, and nothing else', () => {
    for (const name of ['utf-8', 'UTF8', 'utf_8', 'U8', 'utf 8']) expect(resolveEncoding(name)).toBe('utf-8');
    expect(thrown(() => resolveEncoding('latin-1')).code).toBe('E_BAD_OPTION');
  });
});

describe('readStreamLines', () => {
  it('reads chunks split inside a multi-byte character', async () => {
    const euro = Buffer.from('€', 'utf8');
    const stream = Readable.from([Buffer.from('a '), euro.subarray(0, 1), Buffer.concat([euro.subarray(1), Buffer.from('\nb\n')])]);
    expect(await readStreamLines(stream, '<stdin>')).toEqual(['a €', 'b']);
  });
});

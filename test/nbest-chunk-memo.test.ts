/**
 * The chunk memo of the n-best fast path (src/engine/nbest/fast/chunk-memo.ts: cutting, hashing and look-up in
 * WebAssembly, src/wasm/chunk-table.ts and assembly/chunk-memo.ts) against its plain oracle (test/reference/
 * chunk-memo.ts): the same token rows for every tokenizer, call after call on one memo, for random lines of repeated
 * words, non-ASCII text, surrogate pairs and lone surrogates, empty lines, runs of spaces and blanks other than
 * U+0020; chunks that agree in their first 8 bytes or differ only by a trailing NUL, chunks of 7 and 8 bytes that
 * would have one key if the length were not kept or an 8-byte chunk's last byte were taken for it; enough distinct
 * short and long chunks to grow the table, the key arena and the token store in the middle of a call (and to fill
 * groups past their home); long chunks of one key (equal hash and length); tokenizers that give chunk ids in any
 * places among those that do not (every run length of the row kernels) and negative token ids. Also the WTF-8
 * strings the kernels read (src/wasm/wtf8.ts): one-to-one on all strings, UTF-8 on well-formed ones. The memo also
 * reads lines as byte ranges of a larger UTF-8 text (the fields of an n-best chunk): the same rows as from the lines'
 * strings.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ChunkMemo, RowScratch } from '../src/engine/nbest/fast/chunk-memo.js';
import type { Csr } from '../src/text/csr.js';
import { ChunkTable, type ChunkMemoExports } from '../src/wasm/chunk-table.js';
import { LinearMemory, alignUp } from '../src/wasm/linear-memory.js';
import { instantiateKernels } from '../src/wasm/load.js';
import { decodeWtf8, encodeStringInto, encodeWtf8Into, isWellFormedUtf16, scanWellFormed } from '../src/wasm/wtf8.js';
import { OracleChunkMemo, type OracleTokenizer } from './reference/chunk-memo.js';
import { mulberry32 } from './helpers/mulberry32.js';

/** Ids in order of first appearance. */
function vocabulary(): (key: string) => number {
  const ids = new Map<string, number>();
  return (key) => {
    let id = ids.get(key);
    if (id === undefined) {
      id = ids.size;
      ids.set(key, id);
    }
    return id;
  };
}

/**
 * Tokenizers of every shape the memo handles: chunk ids; one token per code unit (many tokens, past the bound that
 * sizes rows by the longest chunk); runs of ASCII letters, lowercased (none, one or several); the upper-cased chunk
 * (one token, shared by chunks that differ in case); the chunk's length, negated for an odd one (one token, which
 * may be negative).
 */
function tokenizerKinds(): OracleTokenizer[] {
  const chars = vocabulary();
  const letters = vocabulary();
  const upper = vocabulary();
  const direct = vocabulary();
  return [
    { chunkIds: true, tokenize: (chunk, out) => out.push(direct(chunk)) },
    {
      tokenize(chunk, out) {
        for (const c of chunk.split('')) out.push(chars(c));
      },
    },
    {
      tokenize(chunk, out) {
        for (const run of chunk.toLowerCase().match(/[a-z]+/g) ?? []) out.push(letters(run));
      },
    },
    { tokenize: (chunk, out) => out.push(upper(chunk.toUpperCase())) },
    { tokenize: (chunk, out) => out.push(chunk.length % 2 === 1 ? -chunk.length : chunk.length) },
  ];
}

/** The first four kinds of {@link tokenizerKinds}: chunk ids, then a run of three others. */
function tokenizers(): OracleTokenizer[] {
  return tokenizerKinds().slice(0, 4);
}

/** Rows as plain arrays: per tokenizer, per line. */
function plain(rows: readonly Csr[]): number[][][] {
  return rows.map(({ tokens, offsets }) => {
    const lines: number[][] = [];
    for (let i = 0; i + 1 < offsets.length; i++) lines.push(Array.from(tokens.subarray(offsets[i], offsets[i + 1])));
    return lines;
  });
}

/** Pieces of lines: words that repeat, blanks of every kind, non-ASCII text, surrogates, near-equal long chunks. */
const PIECES = [
  'the', 'The', 'cat', 'cats', 'w17', 'w1234', 'a', 'x-ray', 'e-mail', 'U.S.', '2024', 'Straße', 'naïve', '中文',
  'Ελλάδα', '😀', '\ud83d', '\ude00', '\ud800', '\udfff', '\ufffd', '\u0000', 'ab', 'ab\u0000', 'abcdefgh', 'abcdefgh1',
  'abcdefg', 'abcdefg\u0007', 'abcdefg\u0001', 'abcdefg\u0000', 'abcdefg\b', 'abcdefé', 'abcdeé', 'abcdefg\u0007x',
  'abcdefgh2', 'abcdefghijklmnop', 'abcdefghijklmnopq', 'x'.repeat(300), 'x'.repeat(301), ' ', ' ', '  ', '    ',
  '\t', '\n', '\r', '\u00a0', '\u3000', '\u2009', '\u000b', '\u0085', '',
];
const line = fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }).map((p) => p.join(''));

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Lines as byte ranges of one UTF-8 text in which other bytes (` ||| 0 ||| `, words) separate them. */
function embedded(lines: readonly string[]): { bytes: Uint8Array; starts: Int32Array; ends: Int32Array } {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  const starts = new Int32Array(lines.length);
  const ends = new Int32Array(lines.length);
  let at = 0;
  lines.forEach((l, i) => {
    const before = encoder.encode(i % 2 === 0 ? '7 ||| ' : 'x y |||');
    const body = encoder.encode(l);
    parts.push(before, body);
    starts[i] = at + before.length;
    ends[i] = starts[i] + body.length;
    at = ends[i];
  });
  parts.push(encoder.encode(' ||| f= 1\n'));
  const bytes = new Uint8Array(at + parts[parts.length - 1].length);
  let p = 0;
  for (const b of parts) {
    bytes.set(b, p);
    p += b.length;
  }
  return { bytes, starts, ends };
}

/**
 * Rows of `lines` from a new memo, given as strings and as byte ranges of one text, each checked against the
 * oracle's; returns the memo that read the strings.
 */
function expectBothFormsLikeOracle(lines: readonly string[]): ChunkMemo {
  const memo = new ChunkMemo(tokenizers());
  const ranges = new ChunkMemo(tokenizers());
  const { bytes, starts, ends } = embedded(lines);
  const expected = new OracleChunkMemo(tokenizers()).rows(lines);
  expect(plain(memo.rows(lines.length, (i) => lines[i]))).toEqual(expected);
  expect(plain(ranges.rowsOfRanges(bytes, starts, ends, lines.length))).toEqual(expected);
  return memo;
}

/** Integers in `[0, n)` from a seeded {@link mulberry32}. */
function randomInts(seed: number): (n: number) => number {
  const random = mulberry32(seed);
  return (n) => Math.floor(random() * n);
}
const batches = fc.array(fc.array(line, { maxLength: 12 }), { minLength: 1, maxLength: 4 });

describe('chunk memo = its plain oracle', () => {
  it('random lines, call after call on one memo, with and without row buffers, 4 and 8 tokenizers', () => {
    fc.assert(
      fc.property(batches, (calls) => {
        const memo = new ChunkMemo(tokenizers());
        const buffered = new ChunkMemo(tokenizers());
        const scratch = new RowScratch();
        const oracle = new OracleChunkMemo(tokenizers());
        // More tokenizers than the row kernel takes in one call.
        const wide = (): OracleTokenizer[] => [...tokenizers(), ...tokenizers().reverse()];
        const wideMemo = new ChunkMemo(wide());
        const wideOracle = new OracleChunkMemo(wide());
        const rangesMemo = new ChunkMemo(tokenizers());
        const rangesOracle = new OracleChunkMemo(tokenizers());
        const rangesScratch = new RowScratch();
        for (const lines of calls) {
          // The same lines as byte ranges of one UTF-8 text, with other bytes between them (n-best fields).
          const wellFormed = lines.map((l) => l.replace(LONE_SURROGATE, '\ufffd'));
          const { bytes, starts, ends } = embedded(wellFormed);
          expect(plain(rangesMemo.rowsOfRanges(bytes, starts, ends, wellFormed.length, rangesScratch))).toEqual(
            rangesOracle.rows(wellFormed),
          );
          const expected = oracle.rows(lines);
          expect(plain(memo.rows(lines.length, (i) => lines[i]))).toEqual(expected);
          expect(plain(buffered.rows(lines.length, (i) => lines[i], scratch))).toEqual(expected);
          expect(memo.size).toBe(oracle.size);
          expect(plain(wideMemo.rows(lines.length, (i) => lines[i]))).toEqual(wideOracle.rows(lines));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('grows its table, key arena and token store in the middle of a call, and keeps every chunk', () => {
    // 3 calls of 4000 lines of 5 chunks: 36000 distinct chunks of up to ~70 bytes, most of several tokens; 6
    // tokenizers, whose codes take two blocks.
    const six = (): OracleTokenizer[] => [...tokenizerKinds(), tokenizerKinds()[3]];
    const memo = new ChunkMemo(six());
    const oracle = new OracleChunkMemo(six());
    const int = randomInts(12345);
    for (let call = 0; call < 3; call++) {
      const lines = Array.from({ length: 4000 }, () =>
        Array.from({ length: 5 }, () => `w${int(40000)}-${'é'.repeat(int(4))}${'z'.repeat(int(60))}`).join(' '),
      );
      expect(plain(memo.rows(lines.length, (i) => lines[i]))).toEqual(oracle.rows(lines));
    }
    expect(memo.size).toBe(oracle.size);
    expect(memo.size).toBeGreaterThan(20000);
  });

  it('a long line of few distinct chunks leaves the table its size (it grows by the chunks it gets, not by a bound)', () => {
    const table = new ChunkTable(1);
    const lines = ['x'.repeat(1 << 20), 'ab '.repeat(300000), 'x ab'];
    const before = table.capacity;
    table.scan(lines.length, (i) => lines[i]);
    for (let id = 0; id < 3; id++) table.setTokens(id, 0, Int32Array.of(7 + id), 0, 1);
    expect(table.size).toBe(3);
    expect(table.capacity).toBe(before);
    const [rows] = table.rows();
    expect(Array.from(rows.offsets)).toEqual([0, 1, 300001, 300003]);
    expect(Array.from(rows.tokens.subarray(300000))).toEqual([8, 9, 8]);
  });

  it('lone surrogates, their pair, U+FFFD and a NUL-padded chunk are distinct chunks', () => {
    const memo = new ChunkMemo(tokenizers());
    const lines = ['\ud83d \ude00 😀 \ufffd \ud83d\ude00 ab ab\u0000 ab', '\ude00\ud83d 😀'];
    const [ids] = plain(memo.rows(lines.length, (i) => lines[i]));
    expect(ids).toEqual([[0, 1, 2, 3, 2, 4, 5, 4], [6, 2]]);
  });

  it('long chunks of one key (equal hash and length) are told apart by their bytes', () => {
    const kernels = instantiateKernels() as ChunkMemoExports;
    const memory = new LinearMemory(kernels.memory);
    const at = alignUp(kernels.heapBase(), 16);
    /**
     * Two different texts `make(i)` (i < limit, all of one length) whose hashes are equal (a long chunk's key is its
     * hash and its length), found by trying them in order.
     */
    const collision = (make: (i: number) => string, limit: number): [string, string] => {
      const seen = new Map<number, string>();
      for (let i = 0; i < limit; i++) {
        const text = make(i);
        memory.reserve(at + 3 * text.length + 16);
        const n = encodeStringInto(text, memory.u8, at);
        const hash = kernels.memoHash(at, at + n);
        const other = seen.get(hash);
        if (other !== undefined) return [other, text];
        seen.set(hash, text);
      }
      throw new Error('no collision');
    };
    const digit = (i: number, k: number): string => 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'[(i >> (6 * k)) & 63];
    const tail = (i: number): string => digit(i, 0) + digit(i, 1) + digit(i, 2) + digit(i, 3);
    const pairs = [
      // 12 bytes: the first 8 agree.
      collision((i) => `abcdefgh${tail(i)}`, 64 ** 4),
      // 8 bytes whose last is below 8 (not their own key): they differ in the first 4.
      collision((i) => `${tail(i)}abc\u0007`, 64 ** 4),
      // 300 bytes, differing in the middle.
      collision((i) => `${'y'.repeat(150)}${tail(i)}${'z'.repeat(146)}`, 64 ** 4),
    ];
    for (const [a, b] of pairs) {
      expect(a).not.toBe(b);
      expect(a.length).toBe(b.length);
      // Each one first: the other is then looked up against it.
      for (const lines of [[`${a} ${b}`, b, a], [`${b} ${a}`, a, b]]) {
        const memo = new ChunkMemo(tokenizers());
        expect(plain(memo.rows(lines.length, (i) => lines[i]))).toEqual(new OracleChunkMemo(tokenizers()).rows(lines));
        expect(memo.size).toBe(2);
      }
    }
  });

  it('chunks of up to 8 bytes are told apart by length and every byte (7 and 8 bytes, NULs, bytes below 8)', () => {
    // Keys of short chunks are their bytes with their length in the top byte, an 8-byte chunk its own word unless
    // its last byte is below 8: 'abcdefg' and 'abcdefg\u0007' would share a key if that exception were missing.
    const chunks = [
      'abcdefg', 'abcdefg\u0007', 'abcdefg\u0001', 'abcdefg\u0000', 'abcdefg\b', 'abcdefg\t', 'abc', 'abc\u0000',
      'abc\u0000\u0000\u0000\u0000\u0003', 'abc\u0003', '\u0007', '\u0007\u0000', 'abcdefé', 'abcdeé', 'abcdefgh',
    ];
    const lines = [chunks.join(' '), [...chunks].reverse().join(' '), chunks.slice(3).join(' ')];
    const memo = expectBothFormsLikeOracle(lines);
    expect(memo.size).toBe(new Set(chunks).size);
  });

  it('many short chunks: groups fill past their home group, the table grows in a call, every chunk is kept', () => {
    // 40000 distinct chunks of 2 to 7 bytes (their own keys) over 3 calls, each looked up again later.
    const memo = new ChunkMemo(tokenizers());
    const oracle = new OracleChunkMemo(tokenizers());
    const int = randomInts(777);
    for (let call = 0; call < 3; call++) {
      const lines = Array.from({ length: 3000 }, () =>
        Array.from({ length: 8 }, () => `w${int(40000)}`).join(' '),
      );
      expect(plain(memo.rows(lines.length, (i) => lines[i]))).toEqual(oracle.rows(lines));
    }
    expect(memo.size).toBe(oracle.size);
    expect(memo.size).toBeGreaterThan(30000);
  });

  it('tokenizers that give chunk ids anywhere among the others (every run the row kernels take), 1 to 10', () => {
    const kinds = fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 1, maxLength: 10 });
    fc.assert(
      fc.property(kinds, fc.array(line, { maxLength: 8 }), fc.array(line, { maxLength: 8 }), (picks, first, second) => {
        const make = (): OracleTokenizer[] => {
          const all = tokenizerKinds();
          return picks.map((k) => all[k]);
        };
        const memo = new ChunkMemo(make());
        const oracle = new OracleChunkMemo(make());
        for (const lines of [first, second]) {
          expect(plain(memo.rows(lines.length, (i) => lines[i]))).toEqual(oracle.rows(lines));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('spaces and line ends at every offset around the 64-byte blocks the kernel reads', () => {
    // Every split of a 130-byte line into two chunks, runs of spaces around the split, multi-byte characters
    // across a block boundary; as strings and as byte ranges of one text.
    const lines: string[] = [];
    for (let k = 0; k <= 130; k++) {
      lines.push(`${'a'.repeat(k)} ${'b'.repeat(130 - k)}`, `${'c'.repeat(k)}  ${'d'.repeat(k % 7)} `, ` ${'é'.repeat(k)}x`);
    }
    expectBothFormsLikeOracle(lines);
  });

  it('no lines, empty lines and lines of spaces give empty rows', () => {
    const memo = new ChunkMemo(tokenizers());
    for (const rows of memo.rows(0, () => '')) expect(Array.from(rows.offsets)).toEqual([0]);
    const lines = ['', '   ', 'a', ' '];
    for (const rows of memo.rows(lines.length, (i) => lines[i])) expect(Array.from(rows.offsets.subarray(0, 3))).toEqual([0, 0, 0]);
  });

  it('a table refuses rows before a scan', () => {
    expect(() => new ChunkTable(1).rows()).toThrow(TypeError);
  });
});

/** Strings of any UTF-16 code units, lone surrogates included. */
const codeUnits = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 40 });

describe('WTF-8 strings of the kernels', () => {
  it('decode(encode(s)) = s for any string; UTF-8 (TextEncoder) bytes for well-formed ones', () => {
    const encoder = new TextEncoder();
    fc.assert(
      fc.property(fc.oneof(codeUnits, fc.string({ unit: 'binary' })), (s) => {
        const out = new Uint8Array(3 * s.length + 8);
        const n = encodeStringInto(s, out, 5);
        expect(decodeWtf8(out, 5, 5 + n)).toBe(s);
        const wtf8 = new Uint8Array(3 * s.length);
        expect(Array.from(out.subarray(5, 5 + n))).toEqual(Array.from(wtf8.subarray(0, encodeWtf8Into(s, wtf8, 0))));
        expect(isWellFormedUtf16(s)).toBe(scanWellFormed(s));
        if (scanWellFormed(s)) expect(Array.from(out.subarray(5, 5 + n))).toEqual(Array.from(encoder.encode(s)));
      }),
      { numRuns: 2000 },
    );
  });

  it('lone surrogates: three bytes each, distinct from U+FFFD', () => {
    const out = new Uint8Array(16);
    expect(Array.from(out.subarray(0, encodeStringInto('\ud800', out, 0)))).toEqual([0xed, 0xa0, 0x80]);
    expect(Array.from(out.subarray(0, encodeStringInto('\udfff', out, 0)))).toEqual([0xed, 0xbf, 0xbf]);
    expect(Array.from(out.subarray(0, encodeStringInto('\ud83d\ude00', out, 0)))).toEqual([0xf0, 0x9f, 0x98, 0x80]);
    expect(scanWellFormed('\ud83d\ude00')).toBe(true);
    expect(scanWellFormed('a\ud83d')).toBe(false);
    expect(scanWellFormed('\ude00\ud83d')).toBe(false);
  });
});

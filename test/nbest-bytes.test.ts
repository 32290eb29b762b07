/**
 * Parsing n-best chunks from bytes (src/engine/nbest/nbest-bytes.ts over the WebAssembly parse of
 * assembly/nbest-lines.ts, src/wasm/nbest-lines.ts) against the plain oracles: the candidate columns against
 * test/reference/nbest-lines.ts on random text (multi-byte and astral characters, `\r`, runs of bars, empty lines,
 * a last line without `\n`, lines longer and shorter than the kernel's 16-byte steps, ids and scores of every
 * form); its UTF-8 check against a strict decoder on random bytes; the distinct hypotheses of each segment against
 * the string comparison of src/engine/nbest/distinct-candidates.ts; the line feed count against a plain count; the
 * parsed candidates against the text parser (`parseNbestLines`) on random n-best lines, well-formed and not:
 * whenever the byte parser answers it gives the text parser's candidates, it answers for every plainly well-formed
 * chunk, and it leaves to the text parser every chunk the text parser refuses. A chunk's text decoded in pieces
 * (`ChunkText`) is the whole decoded text: slices, parsed candidates and the invalid-UTF-8 error alike.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseNbestLines, type NbestParseState } from '../src/corpus/nbest.js';
import { splitBatches } from '../src/corpus/stream/line-batch.js';
import { parseChunkBytes } from '../src/engine/nbest/nbest-bytes.js';
import { ChunkText, decodeChunk } from '../src/engine/nbest/chunk-job.js';
import { distinctCandidates } from '../src/engine/nbest/distinct-candidates.js';
import { NbestCandidateScanner, type ScannedCandidates } from '../src/wasm/nbest-lines.js';
import { oracleNbestCandidates } from './reference/nbest-lines.js';

const encoder = new TextEncoder();

function textParse(text: string, segments: number | undefined) {
  const state: NbestParseState = { previousId: 0 };
  const hyps: string[] = [];
  const ids: number[] = [];
  const lines: number[] = [];
  const features: string[] = [];
  for (const batch of splitBatches(text, 1, 'lf', text.length + 1)) {
    const b = parseNbestLines(batch, 'x', { segmentCount: segments, features: true }, state);
    for (let c = 0; c < b.count; c++) {
      hyps.push(b.hypotheses[c]);
      ids.push(b.ids[c]);
      lines.push(b.lines[c]);
      features.push(b.features![c]);
    }
  }
  return { hyps, ids, lines, features };
}

/** The columns of a scan as plain arrays. */
function columnsOf(got: ScannedCandidates) {
  const { ids, lines, hypStarts, hypEnds, hypStarts16, hypEnds16, featureStarts, featureEnds, featureStarts16, featureEnds16 } = got;
  const cols = { ids, lines, hypStarts, hypEnds, hypStarts16, hypEnds16, featureStarts, featureEnds, featureStarts16, featureEnds16 };
  return Object.fromEntries(Object.entries(cols).map(([k, v]) => [k, Array.from(v)]));
}

/** Pieces of random n-best-like lines: ids, scores and fields of every form, and what the scan must tell apart. */
const LINE_PIECES = [
  'a', 'word', ' ', '  ', '\t', '|', '||', ' ||| ', '|||', '||||', '\r', 'é', '中文', '😀', '\u00a0', '0', '12', '-3.5',
  '1e5', '.', 'e', '+', '99999999999', '2147483647', '2147483648', '0000000001',
];
const randomLine = fc.array(fc.constantFrom(...LINE_PIECES), { maxLength: 24 }).map((p) => p.join(''));
/** Mostly plain lines (so that whole chunks pass), with random ones among them. */
const chunkLine = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.nat(3), randomLine, fc.constantFrom('f= 1', '', 'é= 2 x=3'), fc.constantFrom('-1.5', '2', '1e3', '.5 ', 'x'), fc.nat(3))
    .map(([id, hyp, f, score, extra]) => [String(id), hyp, f, score, 'a', 'b'].slice(0, 2 + extra).join(' ||| ')) },
  { weight: 1, arbitrary: randomLine },
  { weight: 1, arbitrary: fc.constant('') },
);

describe('n-best candidate parse (WebAssembly) against its oracle', () => {
  const scanner = new NbestCandidateScanner();

  it('random chunks: the candidates columns, or no answer exactly where the oracle has none', () => {
    let answered = 0;
    fc.assert(
      fc.property(fc.array(chunkLine, { maxLength: 10 }), fc.boolean(), fc.constantFrom(undefined, 2, 1000), fc.nat(1000), (lines, finalLf, segments, first) => {
        const bytes = encoder.encode(lines.join('\n') + (finalLf ? '\n' : ''));
        const expected = oracleNbestCandidates(bytes, first, segments);
        const got = scanner.scan(bytes, first, segments, false);
        expect(got === undefined).toBe(expected === undefined);
        if (got === undefined) return;
        answered++;
        expect(got.count).toBe(expected!.ids.length);
        expect(columnsOf(got)).toEqual(expected);
      }),
      { numRuns: 3000, seed: 20261127 },
    );
    expect(answered).toBeGreaterThan(500);
  });

  it('more candidates than the first estimate, a long single line, empty input', () => {
    const many = Array.from({ length: 3000 }, () => '0|||||||').join('\n');
    for (const text of [many, `0 ||| ${'x '.repeat(4000)}||| f= 1 ||| 2`, '', '\n\n\r\n']) {
      const bytes = encoder.encode(text);
      // A scanner of its own: its first estimate of candidates per byte is the least one.
      expect(columnsOf(new NbestCandidateScanner().scan(bytes, 1, undefined, false)!)).toEqual(oracleNbestCandidates(bytes, 1, undefined));
    }
  });

  /** Bytes a UTF-8 check must tell apart: bounds of lead and continuation bytes, and valid sequences. */
  const UTF8_PIECES = [
    [0x61], [0x7f], [0x80], [0x8f], [0x90], [0x9f], [0xa0], [0xbf], [0xc0], [0xc1], [0xc2], [0xdf], [0xe0], [0xe1],
    [0xec], [0xed], [0xee], [0xef], [0xf0], [0xf1], [0xf3], [0xf4], [0xf5], [0xf8], [0xff],
    [0xc2, 0x80], [0xdf, 0xbf], [0xe0, 0xa0, 0x80], [0xed, 0x9f, 0xbf], [0xed, 0xa0, 0x80], [0xef, 0xbf, 0xbf],
    [0xf0, 0x90, 0x80, 0x80], [0xf4, 0x8f, 0xbf, 0xbf], [0xf4, 0x90, 0x80, 0x80], [0xe0, 0x9f, 0xbf], [0xf0, 0x8f, 0xbf, 0xbf],
  ];

  it('random bytes in a hypothesis field: answered exactly when a strict decoder accepts them, same columns', () => {
    let valid = 0;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...UTF8_PIECES), { maxLength: 12 }), fc.nat(40), fc.boolean(), (pieces, pad, last) => {
        const field = pieces.flat();
        const head = encoder.encode(`1 ||| ${'w'.repeat(pad)}`);
        const tail = encoder.encode(' ||| f= 1 ||| 0');
        // The bytes at the end of the chunk (a sequence cut by its end) or inside a line.
        const bytes = last ? Uint8Array.from([...head, ...tail, 0x0a, ...head, ...field]) : Uint8Array.from([...head, ...field, ...tail]);
        const expected = oracleNbestCandidates(bytes, 1, undefined);
        const got = scanner.scan(bytes, 1, undefined, false);
        expect(got === undefined).toBe(expected === undefined);
        if (got !== undefined) {
          valid++;
          expect(columnsOf(got)).toEqual(expected);
        }
      }),
      { numRuns: 4000, seed: 8 },
    );
    expect(valid).toBeGreaterThan(200);
  });

  it('distinct hypotheses of each segment: those the string comparison finds', () => {
    fc.assert(
      fc.property(
        // Texts past 64 bytes too (the hash samples some of their words), equal but for one byte at the start, the
        // middle or the end, and features that differ after equal texts.
        fc.array(
          fc.tuple(
            fc.nat(2),
            fc.constantFrom(
              'a b', 'a b ', 'b a', '', 'x', 'A b', 'a  b', 'é', 'e\u0301', 'w'.repeat(20), 'w'.repeat(21), 'w'.repeat(65),
              'w'.repeat(200), 'x' + 'w'.repeat(199), 'w'.repeat(100) + 'x' + 'w'.repeat(99), 'w'.repeat(199) + 'x',
            ),
            fc.nat(3),
          ),
          { maxLength: 40 },
        ),
        (items) => {
          items.sort((a, b) => a[0] - b[0]);
          const text = items.map(([id, hyp, f]) => `${id} ||| ${hyp}|||${f}`).join('\n');
          const got = scanner.scan(encoder.encode(text), 1, undefined, true)!;
          const ids = Array.from(got.ids);
          const segmentIds = [...new Set(ids)];
          const hypLocal = Int32Array.from(ids, (id) => segmentIds.indexOf(id));
          const starts = [...segmentIds.map((id) => ids.indexOf(id)), ids.length];
          const expected = distinctCandidates({
            hyps: items.map(([, h]) => h), hypLocal, segmentIds: Int32Array.from(segmentIds), segmentStarts: Int32Array.from(starts),
          });
          if (expected === undefined) {
            expect(got.distinct).toBeUndefined();
            return;
          }
          expect(Array.from(got.distinct!.source)).toEqual(Array.from(expected.source));
          // The first candidate of each distinct text, in file order.
          const firsts = Array.from(got.distinct!.firsts);
          expect(firsts.map((h) => got.distinct!.source[h])).toEqual(firsts.map((_, k) => k));
          expect(firsts).toEqual(firsts.map((_, k) => Array.from(expected.source).indexOf(k)));
        },
      ),
      { numRuns: 1500, seed: 5 },
    );
  });

  it('counts line feeds: any length, any offset of a view, more than 255 blocks of them', () => {
    const byte = fc.constantFrom(0x0a, 0x0a, 0x20, 0x61, 0x0d, 0x00, 0x8a, 0x0b, 0xff, 0xe4);
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 1400 }), fc.nat(7), (values, offset) => {
        const buffer = new Uint8Array(offset + values.length);
        buffer.set(values, offset);
        expect(scanner.countLineFeeds(buffer.subarray(offset))).toBe(values.filter((b) => b === 0x0a).length);
      }),
      { numRuns: 500, seed: 2 },
    );
    expect(scanner.countLineFeeds(new Uint8Array(70000).fill(0x0a))).toBe(70000);
    const sparse = new Uint8Array(70001);
    for (let k = 0; k < sparse.length; k += 3) sparse[k] = 0x0a;
    expect(scanner.countLineFeeds(sparse)).toBe(Math.ceil(70001 / 3));
  });
});

/** A random n-best line: mostly well-formed, sometimes with the forms only the text parser takes, or broken. */
const nbestLine = (id: fc.Arbitrary<string>) =>
  fc.record({
    id,
    hyp: fc.array(fc.constantFrom('w1', 'w2', 'é', '😀', '中', ' ', '|', 'x'), { maxLength: 12 }).map((p) => p.join('')),
    features: fc.constantFrom('f0= 0.5', 'd= 1 2 lm= -3.25', '', 'a=1 b=2', 'é= 1'),
    score: fc.constantFrom('-2.5', '1', '+3', '.5', '7.', '1e3', '-1.5E-2', ' 4 ', 'NaN', 'Infinity', '0x10', '', 'abc', '1e', '.'),
    fields: fc.constantFrom(2, 3, 3, 3, 4, 5, 6, 7, 1),
    cr: fc.boolean(),
  }).map(({ id, hyp, features, score, fields, cr }) => {
    const parts = [id, hyp, features, score, 'extra', 'more', 'most'].slice(0, fields);
    return parts.join(' ||| ') + (cr ? '\r' : '');
  });

describe('n-best chunks parsed from bytes against the text parser', () => {
  it('random lines: the byte parser gives the text parser candidates or leaves the chunk to it', () => {
    let answered = 0;
    fc.assert(
      fc.property(
        fc.array(nbestLine(fc.constantFrom('0', '1', ' 1 ', '2', '\t3', '01', 'x', '-1', '99999999999', '')), { maxLength: 12 }),
        fc.boolean(),
        fc.constantFrom(undefined, 3, 100),
        (lines, finalLf, segments) => {
          const text = lines.join('\n') + (finalLf ? '\n' : '');
          let expected: ReturnType<typeof textParse> | undefined;
          try {
            expected = textParse(text, segments);
          } catch {
            expected = undefined;
          }
          const got = parseChunkBytes(encoder.encode(text), () => text, 1, segments);
          if (got === undefined) return;
          answered++;
          expect(expected).toBeDefined();
          expect({ hyps: got.hyps, ids: Array.from(got.ids), lines: Array.from(got.lines), features: got.features }).toEqual(expected);
          const bytes = encoder.encode(text);
          const decoder = new TextDecoder();
          got.hyps.forEach((h, k) => expect(decoder.decode(bytes.subarray(got.hypStarts[k], got.hypEnds[k]))).toBe(h));
        },
      ),
      { numRuns: 1500, seed: 7 },
    );
    expect(answered).toBeGreaterThan(100);
  });

  it('plainly well-formed chunks are always parsed from bytes', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            hyp: fc.array(fc.constantFrom('w1', 'é', '😀', '中', ' ', 'x'), { maxLength: 10 }).map((p) => p.join('')),
            score: fc.constantFrom('-2.5', '1', '+3', '.5', '7.', '1e3', '-1.5E-2', ' 4 '),
            fields: fc.constantFrom(3, 4, 5),
          }),
          { minLength: 1, maxLength: 20 },
        ),
        (rows) => {
          const text = rows
            .map((r, k) => [String(Math.floor(k / 3)), r.hyp, 'f= 1', r.score, 'x'].slice(0, r.fields).join(' ||| '))
            .join('\n');
          const got = parseChunkBytes(encoder.encode(text), () => text, 5, undefined);
          expect(got).toBeDefined();
          expect(got!.hyps).toEqual(textParse(text, undefined).hyps);
          expect(Array.from(got!.lines)).toEqual(textParse(text, undefined).lines.map((l) => l + 4));
          expect(got!.features).toEqual(textParse(text, undefined).features);
        },
      ),
      { numRuns: 300, seed: 11 },
    );
  });
});

describe('a chunk decoded in pieces (ChunkText)', () => {
  /** Random n-best lines, multi-byte and astral characters included, until the chunk spans several pieces. */
  const bigChunk = fc
    .array(fc.array(fc.constantFrom('w1', 'é', '😀', '中', ' ', 'x', '\r'), { maxLength: 40 }).map((p) => p.join('')), {
      minLength: 8,
      maxLength: 8,
    })
    .map((hyps) => {
      const lines: string[] = [];
      let bytes = 0;
      for (let k = 0; bytes < 300_000; k++) {
        const line = `${Math.floor(k / 50)} ||| ${hyps[k % hyps.length]}${k} ||| f= ${k % 7} ||| -1.5`;
        lines.push(line);
        bytes += encoder.encode(line).length + 1;
      }
      return lines.join('\n') + '\n';
    });

  it('gives the whole text, its slices and the same parsed candidates', () => {
    fc.assert(
      fc.property(bigChunk, (text) => {
        const bytes = encoder.encode(text);
        const pieces = new ChunkText(bytes, 0, 1, 'x');
        expect(pieces.toString()).toBe(decodeChunk(bytes, 0, 1, 'x'));
        const whole = parseChunkBytes(bytes, () => text, 1, undefined)!;
        const pieced = parseChunkBytes(bytes, () => pieces, 1, undefined)!;
        expect(whole).toBeDefined();
        expect(pieced.hyps).toEqual(whole.hyps);
        expect(pieced.features).toEqual(whole.features);
        expect(pieced.hyps).toEqual(textParse(text, undefined).hyps);
        // Backwards too: a slice before the last one read.
        expect(pieces.slice(0, 3)).toBe(text.slice(0, 3));
      }),
      { numRuns: 5, seed: 3 },
    );
  });

  it('refuses invalid UTF-8 in a later piece with the message of the whole (the byte parse leaves it)', () => {
    const text = Array.from({ length: 8000 }, (_, k) => `${k} ||| é w${k} ||| f= 1 ||| 0`).join('\n') + '\n';
    const bytes = encoder.encode(text);
    const at = bytes.length - 100;
    bytes[at] = 0xff;
    let expected: unknown;
    try {
      decodeChunk(bytes, 1000, 7, 'list.txt');
    } catch (err) {
      expected = err;
    }
    expect(expected).toBeDefined();
    expect(parseChunkBytes(bytes, () => new ChunkText(bytes, 1000, 7, 'list.txt'), 7, undefined)).toBeUndefined();
    expect(() => new ChunkText(bytes, 1000, 7, 'list.txt')).toThrow(expected as Error);
    let got: { line?: number; message?: string } = {};
    try {
      new ChunkText(bytes, 1000, 7, 'list.txt');
    } catch (err) {
      got = err as typeof got;
    }
    expect(got.message).toBe((expected as Error).message);
    expect(got.line).toBe((expected as { line?: number }).line);
  });
});

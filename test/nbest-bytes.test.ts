/**
 * Parsing n-best chunks from bytes (src/engine/nbest/nbest-bytes.ts over the WebAssembly line scan of
 * assembly/nbest-lines.ts, src/wasm/nbest-lines.ts) against the plain oracles: the line records against
 * test/reference/nbest-lines.ts on random text (multi-byte and astral characters, `\r`, runs of bars, empty lines,
 * a last line without `\n`, lines longer and shorter than the kernel's 16-byte steps); the parsed candidates against
 * the text parser (`parseNbestLines`) on random n-best lines, well-formed and not: whenever the byte parser answers
 * it gives the text parser's candidates, it answers for every plainly well-formed chunk, and it leaves to the text
 * parser every chunk the text parser refuses. A chunk's text decoded in pieces (`ChunkText`) is the whole decoded
 * text: slices, parsed candidates and the invalid-UTF-8 error alike.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseNbestLines, type NbestParseState } from '../src/corpus/nbest.js';
import { splitBatches } from '../src/corpus/stream/line-batch.js';
import { parseChunkBytes } from '../src/engine/nbest/nbest-bytes.js';
import { ChunkText, decodeChunk } from '../src/engine/nbest/chunk-job.js';
import {
  L_DELIM, L_DELIM16, L_DELIMS, L_END, L_END16, L_START, L_START16, LINE_RECORD, NbestLineScanner,
} from '../src/wasm/nbest-lines.js';
import { oracleNbestLines } from './reference/nbest-lines.js';

const encoder = new TextEncoder();

/** Pieces random text is made of: what the scan must tell apart. */
const PIECES = ['a', 'word', ' ', '  ', '\t', '|', '||', '|||', '||||', '\n', '\r', '\r\n', 'é', '中文', '😀', '\u00a0', '0', '12', '-3.5'];

const randomText = fc.array(fc.constantFrom(...PIECES), { maxLength: 80 }).map((p) => p.join(''));

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

describe('n-best line scan (WebAssembly) against its oracle', () => {
  const scanner = new NbestLineScanner();

  it('random text: bounds, separator counts and positions in bytes and UTF-16 units', () => {
    fc.assert(
      fc.property(randomText, (text) => {
        const { records, count } = scanner.scan(encoder.encode(text));
        const expected = oracleNbestLines(text);
        expect(count).toBe(expected.length);
        expected.forEach((line, i) => {
          const r = i * LINE_RECORD;
          const got = {
            start: records[r + L_START],
            end: records[r + L_END],
            start16: records[r + L_START16],
            end16: records[r + L_END16],
            delims: records[r + L_DELIMS],
            delimBytes: Array.from({ length: Math.min(5, records[r + L_DELIMS]) }, (_, k) => records[r + L_DELIM + k]),
            delim16: Array.from({ length: Math.min(5, records[r + L_DELIMS]) }, (_, k) => records[r + L_DELIM16 + k]),
          };
          expect(got).toEqual(line);
        });
      }),
      { numRuns: 600, seed: 20261126 },
    );
  });

  it('more lines than the first estimate (a chunk of empty lines) and a long single line', () => {
    for (const text of ['\n'.repeat(5000), `0 ||| ${'x '.repeat(4000)}||| f= 1 ||| 2`, '']) {
      const { count } = scanner.scan(encoder.encode(text));
      expect(count).toBe(oracleNbestLines(text).length);
    }
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
          const got = parseChunkBytes(encoder.encode(text), text, 1, segments, true);
          if (got === undefined) return;
          answered++;
          expect(expected).toBeDefined();
          expect({ hyps: got.hyps, ids: got.ids, lines: got.lines, features: got.features }).toEqual(expected);
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
          const got = parseChunkBytes(encoder.encode(text), text, 5, undefined, false);
          expect(got).toBeDefined();
          expect(got!.hyps).toEqual(textParse(text, undefined).hyps);
          expect(got!.lines).toEqual(textParse(text, undefined).lines.map((l) => l + 4));
          expect(got!.features).toBeUndefined();
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
        const whole = parseChunkBytes(bytes, text, 1, undefined, true);
        const pieced = parseChunkBytes(bytes, pieces, 1, undefined, true);
        expect(whole).toBeDefined();
        expect(pieced).toEqual(whole);
        // Backwards too: a slice before the last one read.
        expect(pieces.slice(0, 3)).toBe(text.slice(0, 3));
      }),
      { numRuns: 5, seed: 3 },
    );
  });

  it('refuses invalid UTF-8 in a later piece with the message of the whole', () => {
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

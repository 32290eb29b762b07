/**
 * `readSegmentChunks`: the chunks of any n-best-like file, for any chunk size, concatenate to the file; no segment
 * is split between two chunks (the last id of a chunk differs from the first id of the next); each chunk's
 * `firstLine` and `byteOffset` are where its bytes start. Property-tested against a plain line-by-line reading.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { lineIdAt, segmentCut } from '../src/corpus/stream/segment-chunks.js';
import { readSegmentChunks } from '../src/node/segment-chunks.js';

const dir = mkdtempSync(join(tmpdir(), 'palette-segment-chunks-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Ids of the non-empty lines of `text` (plain reading: split, trim, digits before `|||`). */
function lineIds(text: string): number[] {
  const ids: number[] = [];
  for (const line of text.split('\n')) {
    const m = /^[ \t\r]*(\d+)[ \t\r]*\|\|\|/.exec(line);
    if (m) ids.push(Number(m[1]));
  }
  return ids;
}

/** An n-best-like file: segments with 1–6 lines, ids increasing (with gaps), empty lines, CRLF, no final newline. */
const nbestText = fc
  .array(
    fc.record({
      gap: fc.integer({ min: 0, max: 3 }),
      lines: fc.array(
        fc.record({
          words: fc.array(fc.constantFrom('a', 'bb', 'ççç', '|', '||'), { maxLength: 6 }),
          blank: fc.boolean(),
          cr: fc.boolean(),
          pad: fc.constantFrom('', ' ', '\t'),
        }),
        { minLength: 1, maxLength: 6 },
      ),
    }),
    { minLength: 1, maxLength: 25 },
  )
  .chain((segments) =>
    fc.boolean().map((finalNewline) => {
      let id = 0;
      let text = '';
      for (const s of segments) {
        id += s.gap;
        for (const l of s.lines) {
          text += `${l.pad}${id}${l.pad} ||| ${l.words.join(' ')} ||| f= 1 ||| 0${l.cr ? '\r' : ''}\n`;
          if (l.blank) text += '\n';
        }
      }
      return finalNewline ? text : text.slice(0, -1);
    }),
  );

describe('readSegmentChunks', () => {
  it('chunks concatenate to the file, never split a segment, and know their first line and offset (shared or not)', async () => {
    let n = 0;
    await fc.assert(
      // Shared chunks are cut after the pending bytes are moved to the front of their buffer when they start at an
      // offset that is not a multiple of 8: random chunk sizes cut them anywhere.
      fc.asyncProperty(nbestText, fc.integer({ min: 1, max: 400 }), fc.boolean(), async (text, chunkBytes, shared) => {
        const path = join(dir, `f${n++}`);
        writeFileSync(path, text);
        const bytes = Buffer.from(text);
        const parts: Buffer[] = [];
        let previousLast = -1;
        for await (const chunk of readSegmentChunks(path, chunkBytes, shared)) {
          const b = Buffer.from(chunk.bytes);
          expect(chunk.byteOffset).toBe(parts.reduce((t, p) => t + p.length, 0));
          expect(chunk.firstLine).toBe(bytes.subarray(0, chunk.byteOffset).toString().split('\n').length);
          const ids = lineIds(b.toString());
          expect(ids.length).toBeGreaterThan(0);
          // Past twice the chunk size, a chunk is a single segment too long to share one (the last chunk of a file
          // without a final newline excepted: its last line is not seen to end, so the chunker leaves the rest whole).
          if (b.length > 2 * chunkBytes && b[b.length - 1] === 0x0a) expect(new Set(ids).size).toBe(1);
          expect(ids[0]).not.toBe(previousLast);
          previousLast = ids[ids.length - 1];
          parts.push(b);
        }
        expect(Buffer.concat(parts).equals(bytes)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('cuts at the last segment boundary within twice the chunk size: segments of 100 bytes, chunks of 160 → 300 bytes', async () => {
    // Ids 0-9: five lines of 20 bytes a segment.
    const segment = (id: number): string => `${id} ||| abcd ||| f= 1\n`.repeat(5);
    expect(segment(1).length).toBe(100);
    writeFileSync(join(dir, 'even'), Array.from({ length: 10 }, (_, k) => segment(k)).join(''));
    const sizes: number[] = [];
    for await (const chunk of readSegmentChunks(join(dir, 'even'), 160)) sizes.push(chunk.bytes.length);
    expect(sizes).toEqual([300, 300, 300, 100]);
  });

  it('shared chunks live in a SharedArrayBuffer; a 0-byte file is E_EMPTY_INPUT', async () => {
    writeFileSync(join(dir, 'two'), '0 ||| a ||| f= 1\n1 ||| b ||| f= 1\n');
    for await (const chunk of readSegmentChunks(join(dir, 'two'), 4, true)) {
      expect(chunk.bytes.buffer).toBeInstanceOf(SharedArrayBuffer);
    }
    writeFileSync(join(dir, 'empty'), '');
    await expect(async () => {
      for await (const _ of readSegmentChunks(join(dir, 'empty'), 4)) void _;
    }).rejects.toMatchObject({ code: 'E_EMPTY_INPUT' });
  });

  it('released chunks hand their buffers to later ones; a chunk kept unreleased is never overwritten', async () => {
    await fc.assert(
      fc.asyncProperty(nbestText, fc.integer({ min: 1, max: 200 }), fc.boolean(), fc.nat(), async (text, chunkBytes, shared, keep) => {
        const path = join(dir, 'released');
        writeFileSync(path, text);
        const seen: Uint8Array[] = [];
        let kept: { bytes: Uint8Array; copy: Uint8Array } | undefined;
        const buffers = new Set<ArrayBufferLike>();
        let chunks = 0;
        let oversize = 0;
        for await (const chunk of readSegmentChunks(path, chunkBytes, shared)) {
          expect(chunk.bytes.buffer instanceof SharedArrayBuffer).toBe(shared);
          seen.push(chunk.bytes.slice());
          buffers.add(chunk.bytes.buffer);
          if (chunk.bytes.length > 2 * chunkBytes) oversize++;
          if (chunks++ === keep % 4) kept = { bytes: chunk.bytes, copy: chunk.bytes.slice() };
          else {
            // Twice: a second release must not list the buffer again (two later chunks would share it).
            chunk.release?.();
            chunk.release?.();
          }
        }
        expect(Buffer.concat(seen).toString()).toBe(text);
        if (kept !== undefined) expect(Buffer.from(kept.bytes).equals(Buffer.from(kept.copy))).toBe(true);
        // Released buffers are reused: the kept chunk's and one more serve every chunk of the usual cut (at most
        // twice the chunk size); a longer one (a long segment) may need a larger buffer.
        expect(buffers.size).toBeLessThanOrEqual(2 + oversize);
      }),
      { numRuns: 150 },
    );
  });

  it('line ids and cut points', () => {
    const b = Buffer.from(' 12\t||| a\n\n12 ||| b\n13 ||| c\n13 ||| d');
    expect(lineIdAt(b, 0, 9)).toBe(12);
    expect(lineIdAt(b, 9, 9)).toBe(-1);
    expect(lineIdAt(Buffer.from('x ||| a'), 0, 7)).toBe(-2);
    expect(lineIdAt(Buffer.from('12345678901 ||| a'), 0, 17)).toBe(-2);
    // The last complete line is "13 ||| c": its run starts at that line (the incomplete "13 ||| d" follows).
    expect(segmentCut(b, b.length)).toBe(b.indexOf('13 ||| c'));
    // A single run has no cut.
    expect(segmentCut(Buffer.from('1 ||| a\n1 ||| b\n'), 16)).toBe(0);
  });
});

/**
 * `palette nbest` scores a text repeated within its segment once (src/engine/nbest/distinct-candidates.ts): the rows
 * after expansion equal the rows of every candidate scored on its own, a text shared by two segments is scored in
 * each, and a task without repeats is left as it is. A task parsed from bytes is compared by byte ranges, with the
 * same outcome as by its texts.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { distinctCandidates, expandRows } from '../src/engine/nbest/distinct-candidates.js';
import type { TaskSegments } from '../src/engine/nbest/nbest-metrics.js';

/** A task from (segment, text) pairs in file order (segments non-decreasing). */
function taskOf(items: readonly (readonly [number, string])[]): TaskSegments {
  const hypLocal = new Int32Array(items.length);
  const segmentIds: number[] = [];
  const starts: number[] = [];
  items.forEach(([segment], h) => {
    if (h === 0 || segment !== items[h - 1][0]) {
      segmentIds.push(segment);
      starts.push(h);
    }
    hypLocal[h] = segmentIds.length - 1;
  });
  starts.push(items.length);
  return { hyps: items.map(([, t]) => t), hypLocal, segmentIds: Int32Array.from(segmentIds), segmentStarts: Int32Array.from(starts) };
}

/** A stand-in for a metric's rows: a function of the candidate's text and its segment only (as every row is). */
function rows(task: TaskSegments, width: number): Float64Array {
  const out = new Float64Array(task.hyps.length * width);
  task.hyps.forEach((text, h) => {
    const segment = task.segmentIds[task.hypLocal[h]];
    for (let c = 0; c < width; c++) out[h * width + c] = text.length * 31 + segment * 7 + c + (text.charCodeAt(c % Math.max(1, text.length)) || 0);
  });
  return out;
}

describe('distinct candidates of a segment', () => {
  it('expanded rows of the distinct texts = the rows of every candidate', () => {
    const item = fc.tuple(fc.integer({ min: 0, max: 3 }), fc.constantFrom('a b', 'a b ', 'b a', '', 'x', 'A b', 'a  b'));
    fc.assert(
      fc.property(fc.array(item, { maxLength: 40 }), fc.integer({ min: 1, max: 5 }), (raw, width) => {
        const items = [...raw].sort((p, q) => p[0] - q[0]);
        const task = taskOf(items);
        const d = distinctCandidates(task);
        const direct = rows(task, width);
        if (d === undefined) {
          // No text repeats within a segment.
          const keys = items.map(([s, t]) => `${s}\u0000${t}`);
          expect(new Set(keys).size).toBe(keys.length);
          return;
        }
        expect(d.task.hyps.length).toBeLessThan(task.hyps.length);
        // Each segment keeps its first occurrences, in order, with consistent segment starts.
        for (let k = 0; k < d.task.segmentIds.length; k++) {
          for (let i = d.task.segmentStarts[k]; i < d.task.segmentStarts[k + 1]; i++) expect(d.task.hypLocal[i]).toBe(k);
        }
        expect(Array.from(expandRows(rows(d.task, width), d.source, width))).toEqual(Array.from(direct));
      }),
      { numRuns: 500 },
    );
  });

  it('the same text in two segments is scored in each; Moses run 1 style repeats collapse', () => {
    const d = distinctCandidates(taskOf([[0, 'a'], [0, 'a'], [1, 'a'], [1, 'b'], [1, 'a']]))!;
    expect(d.task.hyps).toEqual(['a', 'a', 'b']);
    expect(Array.from(d.task.hypLocal)).toEqual([0, 1, 1]);
    expect(Array.from(d.task.segmentStarts)).toEqual([0, 1, 3]);
    expect(Array.from(d.source)).toEqual([0, 0, 1, 2, 1]);
    expect(distinctCandidates(taskOf([[0, 'a'], [0, 'b'], [1, 'a']]))).toBeUndefined();
  });

  it('a task of byte ranges (texts never made) gives what its texts give', () => {
    const encoder = new TextEncoder();
    // Texts that differ in one byte of a multi-byte character, in length only, or not at all; long ones whose
    // sampled bytes agree (the samples skip most bytes of a long text).
    const long = 'x'.repeat(40);
    const text = fc.constantFrom('', 'a', 'a ', 'é', 'è', '😀', '😁', 'a😀b', `${long}1${long}`, `${long}2${long}`, `${long}${long}`, 'ü b');
    const item = fc.tuple(fc.integer({ min: 0, max: 3 }), text);
    fc.assert(
      fc.property(fc.array(item, { maxLength: 40 }), (raw) => {
        const items = [...raw].sort((p, q) => p[0] - q[0]);
        const byText = taskOf(items);
        // The candidates' bytes in one array, other bytes between them (as fields of n-best lines).
        const parts: number[] = [];
        const starts = new Int32Array(items.length);
        const ends = new Int32Array(items.length);
        items.forEach(([, t], h) => {
          parts.push(...encoder.encode(`${h} ||| `));
          starts[h] = parts.length;
          parts.push(...encoder.encode(t));
          ends[h] = parts.length;
        });
        const bytes = Uint8Array.from(parts);
        let read = 0;
        const byBytes: TaskSegments = {
          get hyps() {
            read++;
            return byText.hyps;
          },
          hypLocal: byText.hypLocal,
          segmentIds: byText.segmentIds,
          segmentStarts: byText.segmentStarts,
          hypBytes: { bytes, starts, ends },
        };
        const expected = distinctCandidates(byText);
        const got = distinctCandidates(byBytes);
        expect(read).toBe(0);
        expect(got === undefined).toBe(expected === undefined);
        if (got === undefined || expected === undefined) return;
        expect(Array.from(got.source)).toEqual(Array.from(expected.source));
        expect(Array.from(got.task.hypLocal)).toEqual(Array.from(expected.task.hypLocal));
        expect(Array.from(got.task.segmentStarts)).toEqual(Array.from(expected.task.segmentStarts));
        const decoder = new TextDecoder();
        const { hypBytes } = got.task;
        const texts = expected.task.hyps.map((_, k) => decoder.decode(bytes.subarray(hypBytes!.starts[k], hypBytes!.ends[k])));
        expect(texts).toEqual(expected.task.hyps);
        expect(got.task.hyps).toEqual(expected.task.hyps);
      }),
      { numRuns: 500 },
    );
  });
});

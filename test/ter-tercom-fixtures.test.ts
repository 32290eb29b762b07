/**
 * tercom-flavor TER against the golden subset stored in the repository (runs from a clone alone; see
 * test/fixtures/ter-tercom/SOURCE.md): per-segment rows of tercom 0.10.0 (golden/tercom/tercom.json) on 260 selected
 * lines of WMT17 en-de LIUM-NMT.4900 (default, -s, -N, -P, -N -s), online-F.0, WMT21 en-de Facebook-AI with three
 * references and compare-mt's Japanese TED output with -A: TER, edits, average reference length, insertions,
 * deletions, substitutions, shifts and words shifted.
 * Tolerance (golden/README.md): relative 1e-9 for TER and the average reference length, exact for the counts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TercomTer } from '../src/metrics/ter/tercom-ter.js';
import { tercomClose, tercomOptionsOf } from './helpers/tercom.js';

interface FixtureRecord {
  name: string;
  flags: string[];
  hyp: string;
  refs: string[];
  /** `[line, ter, num_edits, ref_length, ins, del, sub, shift, words_shifted]`. */
  segments: number[][];
}

interface Fixture {
  texts: Record<string, { lines: Record<string, string> }>;
  records: FixtureRecord[];
}

const FIXTURE: Fixture = JSON.parse(
  readFileSync(new URL('./fixtures/ter-tercom/tercom-lines.json', import.meta.url), 'utf8'),
);

describe('tercom 0.10.0 golden subset (tercom-lines.json)', () => {
  for (const rec of FIXTURE.records) {
    it(`${rec.name}: every selected segment's TER and counts`, () => {
      const metric = new TercomTer(tercomOptionsOf(rec.flags));
      const line = (path: string, n: number) => FIXTURE.texts[path].lines[String(n)];
      const numbers = rec.segments.map((s) => s[0]);
      const hyps = numbers.map((n) => line(rec.hyp, n));
      const refs = rec.refs.map((path) => numbers.map((n) => line(path, n)));
      const rows = metric.segmentStats(hyps, metric.prepareReferences(refs));
      const mismatches: string[] = [];
      rec.segments.forEach(([n, ter, edits, refLength, ins, del, sub, shifts, wordsShifted], k) => {
        const row = rows.subarray(7 * k, 7 * k + 7);
        const score = metric.sentenceScoreFromStats(row);
        const ok =
          tercomClose(score.details!.ter as number, ter) &&
          tercomClose(score.score, 100 * ter) &&
          row[0] === edits &&
          tercomClose(row[1], refLength) &&
          row[2] === ins &&
          row[3] === del &&
          row[4] === sub &&
          row[5] === shifts &&
          row[6] === wordsShifted;
        if (!ok)
          mismatches.push(
            `line ${n}: got [${Array.from(row)}], tercom [${[edits, refLength, ins, del, sub, shifts, wordsShifted]}]`,
          );
      });
      expect(mismatches).toEqual([]);
    });
  }

  it('covers the lines where sacreBLEU, the beam or inside shifts make a difference', () => {
    const lium = FIXTURE.records.find((r) => r.name === 'lium-default')!;
    expect(lium.segments.map((s) => s[0])).toEqual(expect.arrayContaining([25, 1051, 1408, 2384, 2876, 2944]));
    const wmt21 = FIXTURE.records.find((r) => r.name === 'wmt21-facebook-3refs')!;
    // Line 13: reference A holds a U+00A0 that tercom keeps inside a word (31 words, sacreBLEU 32).
    expect(FIXTURE.texts[wmt21.refs[0]].lines['13']).toContain('\u00a0');
  });
});

/**
 * tercom-flavor TER against every record of ../shared/golden/tercom/tercom.json (skipped when ../shared is absent):
 * tercom 0.10.0 on WMT17 en-de LIUM-NMT.4900 (default, -s, -N, -P, -N -s), online-F.0 (default), WMT21 en-de
 * Facebook-AI with references A, C, D, compare-mt's Japanese TED sys1 with -A, and the initial tercom import
 * (ter.TERtest) on LIUM-NMT.4900, which agrees with 0.10.0 there.
 * Checked: every segment's TER, edits, average reference length, ins/del/sub/shift/words-shifted; the corpus TER,
 * total edits, total (average) reference length and total counts.
 * Tolerance (golden/README.md): relative 1e-9 (absolute 1e-12 near 0) for TER and reference lengths, exact for
 * counts. The corpus TER and reference length are also required to be bit-identical: they are the same double
 * sums (in segment order) and the same division as tercom's `TOTAL_EDITS / TOTAL_WORDS`.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sumRows } from '../src/metrics/metric.js';
import { TercomTer } from '../src/metrics/ter/tercom-ter.js';
import { tercomClose, tercomOptionsOf } from './helpers/tercom.js';
import { SHARED, dataLines, haveShared } from './helpers/shared-data.js';

const GOLDEN = new URL('golden/tercom/tercom.json', SHARED);
const HAVE_SHARED = haveShared('golden/tercom/tercom.json');

interface GoldenRecord {
  oracle: string;
  hyp: string;
  refs: string[];
  config: { flags: string[]; build: string };
  corpus: {
    ter: number;
    num_edits: number;
    ref_length: number;
    ins: number;
    del: number;
    sub: number;
    shift: number;
    words_shifted: number;
  };
  segment_fields: string[];
  /** `[line, ter, num_edits, ref_length, ins, del, sub, shift, words_shifted]`. */
  segments: number[][];
}

const records: GoldenRecord[] = HAVE_SHARED ? JSON.parse(readFileSync(GOLDEN, 'utf8')).records : [];

describe.skipIf(!HAVE_SHARED)('tercom 0.10.0 goldens (../shared/golden/tercom/tercom.json)', () => {
  it('has the nine records this suite expects', () => {
    expect(records).toHaveLength(9);
    expect(records[0].segment_fields).toEqual([
      'line',
      'ter',
      'num_edits',
      'ref_length',
      'ins',
      'del',
      'sub',
      'shift',
      'words_shifted',
    ]);
  });

  records.forEach((rec, index) => {
    const flags = rec.config.flags.join(' ') || 'default';
    const name = `#${index} ${rec.hyp.split('/').pop()} [${flags}] (${rec.config.build}, ${rec.refs.length} ref)`;
    it(`${name}: every segment and the corpus totals`, () => {
      const metric = new TercomTer(tercomOptionsOf(rec.config.flags));
      const hyps = dataLines(rec.hyp);
      const rows = metric.segmentStats(hyps, metric.prepareReferences(rec.refs.map(dataLines)));
      expect(rec.segments).toHaveLength(hyps.length);

      const mismatches: string[] = [];
      for (const [n, ter, edits, refLength, ins, del, sub, shifts, wordsShifted] of rec.segments) {
        const row = rows.subarray(7 * (n - 1), 7 * n);
        const got = metric.sentenceScoreFromStats(row).details!.ter as number;
        const ok =
          tercomClose(got, ter) &&
          row[0] === edits &&
          tercomClose(row[1], refLength) &&
          row[2] === ins &&
          row[3] === del &&
          row[4] === sub &&
          row[5] === shifts &&
          row[6] === wordsShifted;
        if (!ok) {
          mismatches.push(
            `line ${n}: got [${got}, ${Array.from(row)}], ` +
              `tercom [${[ter, edits, refLength, ins, del, sub, shifts, wordsShifted]}]`,
          );
        }
      }
      expect(mismatches).toEqual([]);

      const totals = sumRows(rows, metric.statsWidth);
      const corpus = metric.scoreFromStats(totals);
      const c = rec.corpus;
      expect(tercomClose(corpus.details!.ter as number, c.ter)).toBe(true);
      expect(tercomClose(corpus.score, 100 * c.ter)).toBe(true);
      expect(Array.from(totals)).toEqual([c.num_edits, c.ref_length, c.ins, c.del, c.sub, c.shift, c.words_shifted]);
      expect(Object.is(corpus.details!.ter, c.ter)).toBe(true);
    });
  });
});

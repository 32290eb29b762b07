/**
 * CER against every record of ../shared/golden/wer/cer.json (jiwer 4.0.0; skipped when ../shared is absent): WMT21
 * en-de Facebook-AI and UEdin vs ref.A.de and newstest2015 en-ru Google, 2,104 lines. Per line the hits,
 * substitutions, deletions and insertions exactly (jiwer's split follows RapidFuzz's alignment, so this checks the
 * tie-breaking, not only the distance) and the rate at 1e-9; the corpus' pooled counts exactly and its CER.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Cer } from '../src/metrics/cer/cer.js';
import { sumRows } from '../src/metrics/metric.js';
import { SHARED, dataLines, goldenClose, haveShared } from './helpers/shared-data.js';

interface CerRecord {
  hyp: string;
  refs: string[];
  corpus: { cer: number; hits: number; substitutions: number; deletions: number; insertions: number };
  segments: number[][];
}

const HAVE = haveShared('golden/wer/cer.json');
const records: CerRecord[] = HAVE
  ? (JSON.parse(readFileSync(new URL('golden/wer/cer.json', SHARED), 'utf8')) as { records: CerRecord[] }).records
  : [];

describe.skipIf(!HAVE)('CER = jiwer 4.0 on golden/wer/cer.json', () => {
  it.each(records.map((r) => [r.hyp, r] as const))('%s', (_name, rec) => {
    const cer = new Cer();
    const rows = cer.segmentStats(dataLines(rec.hyp), cer.prepareReferences(rec.refs.map((r) => dataLines(r))));
    for (const [line, rate, hits, s, d, i] of rec.segments) {
      const row = rows.subarray(4 * (line - 1), 4 * line);
      expect(Array.from(row), `line ${line}`).toEqual([hits, s, d, i]);
      expect(goldenClose(cer.sentenceScoreFromStats(row).score, rate), `line ${line}`).toBe(true);
    }
    const totals = sumRows(rows, 4);
    const c = rec.corpus;
    expect(Array.from(totals)).toEqual([c.hits, c.substitutions, c.deletions, c.insertions]);
    expect(goldenClose(cer.scoreFromStats(totals).score, c.cer)).toBe(true);
  });
});

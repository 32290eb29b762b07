/**
 * WER against every jiwer 4.0 record of ../shared/golden/wer/jiwer-sclite.json (skipped when ../shared is absent):
 * WMT17 en-de LIUM-NMT.4900 and online-F.0 (raw detokenized German, case-sensitive) and compare-mt TED sys1
 * (tokenized English), 8,453 lines in all. Per line: hits, substitutions, deletions and insertions exactly (jiwer's
 * counts follow RapidFuzz's alignment, so this checks the tie-breaking, not just the distance), and WER, MER, WIL,
 * WIP at golden/README.md's tolerance (1e-9 relative, 1e-12 absolute near 0) and then bit for bit. Corpus: the pooled
 * counts exactly and the four measures likewise.
 *
 * The sclite records of the same file are a different algorithm (weighted alignment, sub 4 / ins 3 / del 3, ASCII
 * case folding) and are not a target: the test only checks that their reference word counts equal ours, i.e. that
 * both split the same words.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sumRows } from '../src/metrics/metric.js';
import { Wer } from '../src/metrics/wer/wer.js';
import { SHARED, dataLines, goldenClose, haveShared } from './helpers/shared-data.js';

const GOLDEN = new URL('golden/wer/jiwer-sclite.json', SHARED);
const HAVE_SHARED = haveShared('golden/wer/jiwer-sclite.json');

interface WerRecord {
  oracle: string;
  hyp: string;
  refs: string[];
  corpus: Record<string, number>;
  segment_fields: string[];
  segments: number[][];
}

const records: WerRecord[] = HAVE_SHARED ? (JSON.parse(readFileSync(GOLDEN, 'utf8')) as { records: WerRecord[] }).records : [];
const jiwerRecords = records.filter((r) => r.oracle.startsWith('jiwer'));
const scliteRecords = records.filter((r) => r.oracle.startsWith('sclite'));

describe.skipIf(!HAVE_SHARED)('WER equals jiwer 4.0 (golden/wer/jiwer-sclite.json)', () => {
  it('has the three jiwer records', () => {
    expect(jiwerRecords.map((r) => r.hyp)).toEqual([
      'sacrebleu-tests/wmt17-en-de/systems/LIUM-NMT.4900.de',
      'sacrebleu-tests/wmt17-en-de/systems/online-F.0.de',
      'compare-mt/example/ted.sys1.eng',
    ]);
  });

  it.each(jiwerRecords.map((r) => [r.hyp, r] as const))('%s: every line and the corpus', (_, record) => {
    const wer = new Wer();
    const hyps = dataLines(record.hyp);
    const refs = wer.prepareReferences(record.refs.map(dataLines));
    const rows = wer.segmentStats(hyps, refs);
    const field = (name: string) => record.segment_fields.indexOf(name);
    expect(record.segments.length).toBe(hyps.length);
    let exact = 0;
    let compared = 0;
    const checkMeasures = (got: Record<string, unknown>, want: Record<string, number>, at: string) => {
      for (const m of ['wer', 'mer', 'wil', 'wip']) {
        const g = got[m] as number;
        if (!goldenClose(g, want[m])) expect(g, `${at} ${m}`).toBe(want[m]);
        compared++;
        if (g === want[m]) exact++;
      }
    };
    for (const segment of record.segments) {
      const line = segment[field('line')];
      const row = rows.subarray(4 * (line - 1), 4 * line);
      const want = ['hits', 'substitutions', 'deletions', 'insertions'].map((f) => segment[field(f)]);
      expect(Array.from(row), `line ${line} H/S/D/I`).toEqual(want);
      const score = wer.sentenceScoreFromStats(row);
      checkMeasures(score.details!, Object.fromEntries(['wer', 'mer', 'wil', 'wip'].map((m) => [m, segment[field(m)]])), `line ${line}`);
    }
    const totals = sumRows(rows, 4);
    expect(Array.from(totals)).toEqual(['hits', 'substitutions', 'deletions', 'insertions'].map((f) => record.corpus[f]));
    const corpus = wer.scoreFromStats(totals);
    checkMeasures(corpus.details!, record.corpus, 'corpus');
    expect(corpus.score).toBe(record.corpus.wer);
    // Same IEEE operations in the same order: every value is bit-identical, not merely within tolerance.
    expect(exact).toBe(compared);
  });

  it('splits the same reference words as sclite (whose alignment is a different algorithm)', () => {
    expect(scliteRecords).toHaveLength(3);
    for (const record of scliteRecords) {
      const wer = new Wer();
      const hyps = dataLines(record.hyp);
      const totals = sumRows(wer.segmentStats(hyps, wer.prepareReferences(record.refs.map(dataLines))), 4);
      expect(totals[0] + totals[1] + totals[2], record.hyp).toBe(record.corpus.ref_words);
    }
  });
});

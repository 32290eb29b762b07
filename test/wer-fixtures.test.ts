/**
 * WER against jiwer 4.0 on test/fixtures/wer/jiwer-lines.jsonl (see its SOURCE.md): 480 lines of the shared golden
 * file, among them the lines where a traceback other than RapidFuzz's — or RapidFuzz's own rule without its common
 * prefix/suffix cut — would split S/D/I differently. Hits, substitutions, deletions and insertions must be equal;
 * WER, MER, WIL and WIP bit for bit (golden/README.md allows 1e-9 relative; the same IEEE operations give the same
 * doubles). Each line is scored alone (`jiwer.process_words(ref_line, hyp_line)`), and all lines as one corpus, whose
 * pooled counts must be the sums of the lines' (jiwer pools, it does not average).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sentenceScore, sumRows } from '../src/metrics/metric.js';
import { Wer } from '../src/metrics/wer/wer.js';

interface JiwerLine {
  hyp_file: string;
  line: number;
  hyp: string;
  ref: string;
  wer: number;
  mer: number;
  wil: number;
  wip: number;
  hits: number;
  substitutions: number;
  deletions: number;
  insertions: number;
}

const LINES: JiwerLine[] = readFileSync(new URL('fixtures/wer/jiwer-lines.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((l) => l !== '')
  .map((l) => JSON.parse(l) as JiwerLine);

const COUNTS = ['hits', 'substitutions', 'deletions', 'insertions'] as const;
const MEASURES = ['wer', 'mer', 'wil', 'wip'] as const;

describe('WER equals jiwer 4.0 on the fixture lines', () => {
  it('has the 480 selected lines', () => {
    expect(LINES).toHaveLength(480);
  });

  it('gives every line its counts and measures, bit for bit', () => {
    const wer = new Wer();
    const rows = wer.segmentStats(LINES.map((l) => l.hyp), wer.prepareReferences([LINES.map((l) => l.ref)]));
    LINES.forEach((l, i) => {
      const at = `${l.hyp_file}:${l.line}`;
      expect(Array.from(rows.subarray(4 * i, 4 * i + 4)), at).toEqual(COUNTS.map((c) => l[c]));
      const { details } = wer.sentenceScoreFromStats(rows.subarray(4 * i, 4 * i + 4));
      expect(MEASURES.map((m) => details![m]), at).toEqual(MEASURES.map((m) => l[m]));
    });
  });

  it('gives the same line scores through sentenceScore, one line at a time', () => {
    const wer = new Wer();
    for (const l of LINES.filter((_, i) => i % 8 === 0)) {
      expect(sentenceScore(wer, l.hyp, [l.ref]).score, `${l.hyp_file}:${l.line}`).toBe(l.wer);
    }
  });

  it('pools the counts of all lines for the corpus score', () => {
    const wer = new Wer();
    const totals = sumRows(wer.segmentStats(LINES.map((l) => l.hyp), wer.prepareReferences([LINES.map((l) => l.ref)])), 4);
    const pooled = COUNTS.map((c) => LINES.reduce((sum, l) => sum + l[c], 0));
    expect(Array.from(totals)).toEqual(pooled);
    const [h, s, d, i] = pooled;
    expect(wer.scoreFromStats(totals).score).toBe((s + d + i) / (h + s + d));
  });
});

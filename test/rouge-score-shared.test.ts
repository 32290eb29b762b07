/**
 * The rouge-score flavor of the ROUGE metrics against every rouge-score golden in ../shared (skipped when
 * ../shared is absent): golden/rouge-score/*.json (SummEval against reference 0 and score_multi over 11
 * references, per reference for M0/M23, compare-mt headlines, rouge-score's own test data; without and with
 * stemming; rougeLsum with the `tokpunct` split of golden/README.md where the records say so) and
 * golden/edge/pairs_rouge_score.jsonl (1000 adversarial pairs, rouge1/rouge2/rougeL/rougeLsum, stem and nostem).
 * Each value is first checked at golden/README.md's tolerance (1e-9 relative, 1e-12 absolute near 0) so that a
 * failure names the value; then every value, per-segment P/R/F and corpus `mean_over_segments` alike, is asserted
 * equal bit for bit (the same IEEE operations in the same order give the same doubles, and they do).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sumRows } from '../src/metrics/metric.js';
import { Rouge } from '../src/metrics/rouge/rouge.js';
import { SHARED, dataLines, goldenClose, haveShared } from './helpers/shared-data.js';

const HAVE_SHARED = haveShared('golden/rouge-score/summeval.ref0.json');

/** Counts compared values and bit-exact ones; fails with the first value out of tolerance. */
class Tally {
  compared = 0;
  exact = 0;
  check(got: readonly number[], expected: readonly number[], at: string): void {
    expect(got.length, at).toBe(expected.length);
    got.forEach((g, i) => {
      if (!goldenClose(g, expected[i])) expect(got, at).toEqual(expected);
      this.compared++;
      if (g === expected[i]) this.exact++;
    });
  }
}

const TYPES = ['rouge1', 'rouge2', 'rouge3', 'rouge4', 'rougeL', 'rougeLsum'];

interface ScoreRecord {
  hyp: string;
  refs: string[];
  config: { use_stemmer: boolean; sentence_splitting: { rule: string }; rouge_types: string[] };
  corpus: { mean_over_segments: Record<string, number[]> };
  segment_fields: string[];
  segments: unknown[][];
}

/** The segments' texts of a record: file lines, or (pyrouge_files) the whole file as one summary. */
function texts(path: string): string[] {
  if (path.includes('pyrouge_files/'))
    return [readFileSync(new URL(`data/${path}`, SHARED), 'utf8').replace(/\n$/, '')];
  return dataLines(path);
}

/** Checks every record of a rouge-score golden file; returns the tally. */
function checkFile(path: string): Tally {
  const file = JSON.parse(readFileSync(new URL(`golden/${path}`, SHARED), 'utf8')) as { records: ScoreRecord[] };
  const tally = new Tally();
  for (const record of file.records) {
    const hyps = texts(record.hyp);
    const refStreams = record.refs.map(texts);
    const rule = record.config.sentence_splitting.rule;
    for (const type of record.config.rouge_types.filter((t) => TYPES.includes(t))) {
      const metric = new Rouge({
        type,
        flavor: 'rouge-score',
        stem: record.config.use_stemmer,
        split: rule === 'tokpunct' ? 'punct' : 'newline',
      });
      const rows = metric.segmentStats(hyps, metric.prepareReferences(refStreams));
      const column = record.segment_fields.indexOf(type);
      for (const segment of record.segments) {
        const line = (segment[0] as number) - 1;
        const d = metric.sentenceScoreFromStats(rows.subarray(line * 7, line * 7 + 7)).details!;
        const at = `${record.hyp} stem=${record.config.use_stemmer} ${type} line ${line + 1}`;
        tally.check([d.precision as number, d.recall as number, d.fmeasure as number], segment[column] as number[], at);
      }
      const mean = metric.scoreFromStats(sumRows(rows, 7)).details!;
      tally.check(
        [mean.precision as number, mean.recall as number, mean.fmeasure as number],
        record.corpus.mean_over_segments[type],
        `${record.hyp} stem=${record.config.use_stemmer} ${type} mean`,
      );
    }
  }
  return tally;
}

describe.skipIf(!HAVE_SHARED)('rouge-score flavor vs rouge-score 0.1.2 goldens (../shared)', () => {
  it('summeval.ref0: 16 systems × 100 summaries, rouge1-4/L/Lsum, stem and nostem', () => {
    const t = checkFile('rouge-score/summeval.ref0.json');
    expect(t.compared).toBe(32 * 6 * 101 * 3);
    expect(t.exact).toBe(t.compared);
  });

  it('summeval.multiref11: score_multi over 11 references (best F per type, first on ties)', () => {
    const t = checkFile('rouge-score/summeval.multiref11.json');
    expect(t.compared).toBe(32 * 6 * 101 * 3);
    expect(t.exact).toBe(t.compared);
  });

  it('summeval.multiref11.per-reference: every reference alone, M0 and M23', () => {
    const file = JSON.parse(
      readFileSync(new URL('golden/rouge-score/summeval.multiref11.per-reference.json', SHARED), 'utf8'),
    ) as { records: ScoreRecord[] };
    const tally = new Tally();
    for (const record of file.records) {
      const hyps = dataLines(record.hyp);
      const perRefAt = record.segment_fields.indexOf('per_reference');
      record.refs.forEach((ref, k) => {
        for (const [ti, type] of record.config.rouge_types.entries()) {
          const metric = new Rouge({ type, flavor: 'rouge-score', split: 'punct' });
          const rows = metric.segmentStats(hyps, metric.prepareReferences([dataLines(ref)]));
          for (const segment of record.segments) {
            const line = (segment[0] as number) - 1;
            const expected = (segment[perRefAt] as number[][][])[k][ti];
            tally.check(
              Array.from(rows.subarray(line * 7 + 3, line * 7 + 6))
                .slice(0, 2)
                .concat(rows[line * 7 + 5]),
              expected,
              `${record.hyp} ${ref} ${type} line ${line + 1}`,
            );
          }
        }
      });
    }
    expect(tally.compared).toBe(2 * 11 * 6 * 100 * 3);
  });

  it('compare-mt headlines (2 systems × 2000, stem and nostem) and rouge-score test data', () => {
    for (const path of [
      'rouge-score/compare-mt-sum.nostem.json',
      'rouge-score/compare-mt-sum.stem.json',
      'rouge-score/rouge-score-testdata.json',
    ]) {
      const t = checkFile(path);
      expect(t.compared, path).toBeGreaterThan(0);
      expect(t.exact, path).toBe(t.compared);
    }
  });

  it('pairs_rouge_score: 1000 edge pairs, rouge1/2/L/Lsum, stem and nostem (LCS of empty input is 0)', () => {
    interface Pair {
      pair: number;
      hyp: string;
      ref: string;
    }
    type Prf = { precision: number; recall: number; fmeasure: number };
    interface Record {
      pair: number;
      nostem: { [t: string]: Prf };
      stem: { [t: string]: Prf };
    }
    const lines = (p: string): string[] =>
      readFileSync(new URL(`golden/${p}`, SHARED), 'utf8')
        .split('\n')
        .filter((l) => l.length > 0)
        .slice(1);
    const pairs = lines('edge/pairs.jsonl').map((l) => JSON.parse(l) as Pair);
    const records = lines('edge/pairs_rouge_score.jsonl').map((l) => JSON.parse(l) as Record);
    expect(records).toHaveLength(1000);
    const byPair = new Map(records.map((r) => [r.pair, r]));
    const tally = new Tally();
    for (const stem of [false, true]) {
      for (const type of ['rouge1', 'rouge2', 'rougeL', 'rougeLsum']) {
        const metric = new Rouge({ type, flavor: 'rouge-score', stem });
        const rows = metric.segmentStats(
          pairs.map((p) => p.hyp),
          metric.prepareReferences([pairs.map((p) => p.ref)]),
        );
        pairs.forEach((p, i) => {
          const e = byPair.get(p.pair)![stem ? 'stem' : 'nostem'][type];
          tally.check(
            [rows[i * 7 + 3], rows[i * 7 + 4], rows[i * 7 + 5]],
            [e.precision, e.recall, e.fmeasure],
            `pair ${p.pair} stem=${stem} ${type}`,
          );
        });
      }
    }
    expect(tally.compared).toBe(2 * 4 * 1000 * 3);
    expect(tally.exact).toBe(tally.compared);
  });
});

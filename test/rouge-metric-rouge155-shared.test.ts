/**
 * The rouge155 flavor of the ROUGE metrics (the `Metric` API: prepared references, statistics rows, corpus score)
 * against the ROUGE-1.5.5 goldens in ../shared (skipped when ../shared is absent):
 * - golden/rouge155/summeval.*.json: every unit's printed [R, P, F] must be the row's precision/recall/fmeasure
 *   columns exactly (5-decimal values), the `-t 2` counts the row's hit/hyp/ref columns (ROUGE-W at 15 significant
 *   digits), and the corpus score of `average: 'segment'` the record's `plain_mean_of_printed_units` at 1e-9
 *   relative (ROUGE-1.5.5 prints a bootstrap mean instead; the drop-in reproduces that, not the metric);
 * - golden/edge/pairs_rouge155.jsonl: 199 one-sentence pairs (sentence-level ROUGE-L is ROUGE-1.5.5 on the segment
 *   as one sentence), with and without stemming.
 * SummEval summaries are split with the `punct` rule (the goldens' `tokpunct`).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sumRows } from '../src/metrics/metric.js';
import { Rouge, type RougeOptions } from '../src/metrics/rouge/rouge.js';
import { SHARED, dataLines, goldenClose, haveShared } from './helpers/shared-data.js';

const HAVE_SHARED = haveShared('golden/rouge155/summeval.variants.json');

/** A value as Perl prints it (`%.15g`), read back. */
function perlPrinted(x: number): number {
  return Number(x.toPrecision(15));
}

interface Rouge155Record {
  hyp: string;
  refs: string[];
  config: { options: string };
  corpus: { plain_mean_of_printed_units?: Record<string, number[]>; counts_options?: string };
  segment_fields: string[];
  segments: unknown[][];
}

/** Metric options for one ROUGE-1.5.5 type name under a command line (the few flags the goldens use). */
function metricOptions(type: string, options: string): RougeOptions {
  const argv = options.split(/\s+/);
  const value = (flag: string): string | undefined => {
    const at = argv.indexOf(flag);
    return at < 0 ? undefined : argv[at + 1];
  };
  const id = type === 'ROUGE-L' ? 'rouge-lsum' : type.toLowerCase();
  const words = Number(value('-l') ?? 0);
  const bytes = Number(value('-b') ?? 0);
  return {
    type: id,
    flavor: 'rouge155',
    stem: argv.includes('-m'),
    removeStopwords: argv.includes('-s'),
    split: 'punct',
    limit: { words, bytes },
    multiReference: value('-f') === 'B' ? 'best-recall' : 'pool',
    alpha: Number(value('-p') ?? 0.5),
  };
}

describe.skipIf(!HAVE_SHARED)('ROUGE metrics, rouge155 flavor, vs ROUGE-1.5.5 goldens (../shared)', () => {
  for (const path of ['summeval.multiref11.json', 'summeval.ref0.stem.json', 'summeval.variants.json']) {
    it(`${path}: rows and plain means of every record and type`, () => {
      const file = JSON.parse(readFileSync(new URL(`golden/rouge155/${path}`, SHARED), 'utf8')) as {
        records: Rouge155Record[];
      };
      let checked = 0;
      // The unit suite covers every record; here a quarter of multiref11's systems keep the run short.
      const records = path === 'summeval.multiref11.json' ? file.records.filter((_, i) => i % 4 === 0) : file.records;
      for (const record of records) {
        const hyps = dataLines(record.hyp);
        const refStreams = record.refs.map(dataLines);
        const types = new Set(record.segment_fields.slice(1).map((f) => f.slice(0, f.indexOf(' '))));
        for (const type of types) {
          const metric = new Rouge(metricOptions(type, record.config.options));
          const rows = metric.segmentStats(hyps, metric.prepareReferences(refStreams));
          const rpfAt = record.segment_fields.indexOf(`${type} RPF`);
          const countsAt = record.segment_fields.findIndex((f) => f.startsWith(`${type} counts`));
          for (const segment of record.segments) {
            const line = (segment[0] as number) - 1;
            const row = rows.subarray(line * 7, line * 7 + 7);
            const at = `${record.hyp} ${record.config.options} ${type} line ${line + 1}`;
            if (rpfAt > 0) expect([row[4], row[3], row[5]], at).toEqual(segment[rpfAt]);
            const counts = [row[2], row[1], row[0]];
            const w = type.startsWith('ROUGE-W');
            expect(w ? counts.map(perlPrinted) : counts, at).toEqual(segment[countsAt]);
            checked++;
          }
          const mean = record.corpus.plain_mean_of_printed_units?.[type];
          if (mean !== undefined) {
            const d = metric.scoreFromStats(sumRows(rows, 7)).details!;
            const got = [d.recall as number, d.precision as number, d.fmeasure as number];
            got.forEach((g, i) => expect(goldenClose(g, mean[i]), `${record.hyp} ${type} mean ${got} vs ${mean}`).toBe(true));
          }
        }
      }
      expect(checked).toBeGreaterThan(0);
    });
  }

  it('pairs_rouge155: sentence-level ROUGE-L, ROUGE-N, ROUGE-W-1.2, ROUGE-S4, ROUGE-SU4 of 199 pairs', () => {
    interface Pair {
      pair: number;
      hyp: string;
      ref: string;
    }
    type Rpf = { recall: number; precision: number; fmeasure: number } | { error: string };
    interface Rec {
      pair: number;
      nostem: Record<string, Rpf>;
      stem: Record<string, Rpf>;
    }
    const lines = (p: string): string[] =>
      readFileSync(new URL(`golden/${p}`, SHARED), 'utf8')
        .split('\n')
        .filter((l) => l.length > 0)
        .slice(1);
    const pairs = new Map(
      lines('edge/pairs.jsonl')
        .map((l) => JSON.parse(l) as Pair)
        .map((p) => [p.pair, p]),
    );
    const records = lines('edge/pairs_rouge155.jsonl').map((l) => JSON.parse(l) as Rec);
    const hyps = records.map((r) => pairs.get(r.pair)!.hyp);
    const refs = records.map((r) => pairs.get(r.pair)!.ref);
    let died = 0;
    for (const stem of [false, true]) {
      for (const type of ['ROUGE-1', 'ROUGE-2', 'ROUGE-L', 'ROUGE-W-1.2', 'ROUGE-S4', 'ROUGE-SU4']) {
        const metric = new Rouge({ type: type.toLowerCase(), flavor: 'rouge155', stem });
        const rows = metric.segmentStats(hyps, metric.prepareReferences([refs]));
        records.forEach((r, i) => {
          const e = r[stem ? 'stem' : 'nostem'][type];
          const got = [rows[i * 7 + 4], rows[i * 7 + 3], rows[i * 7 + 5]];
          if ('error' in e) {
            died++;
            expect(got).toEqual([0, 0, 0]);
          } else {
            expect(got, `pair ${r.pair} ${type} stem=${stem}`).toEqual([e.recall, e.precision, e.fmeasure]);
          }
        });
      }
    }
    expect(died).toBe(56);
  });
});

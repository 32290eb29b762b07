/**
 * ROUGE metrics and `rouge155Unit` against extracts of the goldens copied into test/fixtures/rouge (SOURCE.md says
 * which), so that a clone of the repository alone checks exactness; the full goldens run in the *-shared suites.
 * - pairs.json (72 edge pairs): ROUGE-1.5.5 per-unit R/P/F and `-t 2` counts through `rouge155Unit` and through the
 *   rouge155 flavor; rouge-score P/R/F through the rouge-score flavor (bit for bit); with and without stemming.
 * - summeval.json (SummEval lines 1–3, system M0, 11 references): every ROUGE-1.5.5 option set of the goldens
 *   (multiref11, -m with model 0, -m -s -l 100, -w 1.2 -m -b 665, -f B, -t 1, -2 -1 -U) and rouge-score
 *   single-reference and score_multi records.
 * - sl2003.json (ROUGE's SL2003 sample, documents 01–02, peers 11 and 21, raw SEE HTML): the sl2003.json per-unit
 *   values under 8 option sets, and the per-unit lines of the distribution's `-d` runs as printed.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Rouge } from '../src/metrics/rouge/rouge.js';
import { rouge155Unit } from '../src/metrics/rouge155/unit.js';
import { splitSentences } from '../src/text/rouge/index.js';
import { checkSegment, perlPrinted, seeSentences, unitOptions } from './fixtures/rouge/golden-checks.js';

function fixture<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`fixtures/rouge/${name}`, import.meta.url), 'utf8')) as T;
}

type Maybe = number[] | { error: string };
interface PairFixture {
  pair: number;
  kind: string;
  hyp: string;
  ref: string;
  rouge_score: Record<'nostem' | 'stem', Record<string, number[]>>;
  rouge155?: Record<'nostem' | 'stem', Record<string, Maybe>>;
  rouge155_counts?: Record<'nostem' | 'stem', Record<string, Maybe>>;
}

const TYPES_155 = ['ROUGE-1', 'ROUGE-2', 'ROUGE-L', 'ROUGE-W-1.2', 'ROUGE-S4', 'ROUGE-SU4'];

describe('ROUGE on golden extracts (test/fixtures/rouge)', () => {
  const pairs = fixture<PairFixture[]>('pairs.json');

  it('pairs: rouge155Unit R/P/F and -t 2 counts, nostem and stem (a zero-token model under -w gives 0 and a warning)', () => {
    const with155 = pairs.filter((p) => p.rouge155 !== undefined);
    expect(with155.length).toBe(66);
    for (const p of with155) {
      for (const stem of ['nostem', 'stem'] as const) {
        const base = {
          maxN: 2,
          skipDistance: 4,
          stem: stem === 'stem',
          stopwords: false,
          formula: 'A',
          alpha: 0.5,
          countMode: 0,
        } as const;
        const warnings: string[] = [];
        const got = new Map(
          [
            ...rouge155Unit([p.hyp], [[p.ref]], { ...base, su: true, wWeight: 1.2 }, warnings),
            ...rouge155Unit([p.hyp], [[p.ref]], { ...base, su: false, maxN: 0, noLcs: true }),
          ].map((t) => [t.type, t]),
        );
        for (const type of TYPES_155) {
          const t = got.get(type)!;
          const at = `pair ${p.pair} ${stem} ${type}`;
          const rpf = p.rouge155![stem][type];
          const counts = p.rouge155_counts![stem][type];
          if (!Array.isArray(rpf) || !Array.isArray(counts)) {
            expect([t.recall, t.precision, t.fmeasure, t.hitCount], at).toEqual([0, 0, 0, 0]);
            expect(warnings, at).toHaveLength(1);
            continue;
          }
          expect([t.recall, t.precision, t.fmeasure], at).toEqual(rpf);
          const values = [t.modelCount, t.peerCount, t.hitCount];
          expect(type === 'ROUGE-W-1.2' ? values.map(perlPrinted) : values, at).toEqual(counts);
        }
      }
    }
  });

  it('pairs: the rouge155 flavor gives the same R/P/F per segment', () => {
    const with155 = pairs.filter((p) => p.rouge155 !== undefined);
    for (const stem of ['nostem', 'stem'] as const) {
      for (const type of TYPES_155) {
        const metric = new Rouge({ type: type.toLowerCase(), flavor: 'rouge155', stem: stem === 'stem' });
        const rows = metric.segmentStats(
          with155.map((p) => p.hyp),
          metric.prepareReferences([with155.map((p) => p.ref)]),
        );
        with155.forEach((p, i) => {
          const e = p.rouge155![stem][type];
          const got = [rows[7 * i + 4], rows[7 * i + 3], rows[7 * i + 5]];
          expect(got, `pair ${p.pair} ${stem} ${type}`).toEqual(Array.isArray(e) ? e : [0, 0, 0]);
        });
      }
    }
  });

  it('pairs: the rouge-score flavor gives rouge-score P/R/F bit for bit (rougeLsum splits on newlines)', () => {
    for (const stem of ['nostem', 'stem'] as const) {
      for (const type of ['rouge1', 'rouge2', 'rougeL', 'rougeLsum']) {
        const metric = new Rouge({ type, flavor: 'rouge-score', stem: stem === 'stem' });
        const rows = metric.segmentStats(
          pairs.map((p) => p.hyp),
          metric.prepareReferences([pairs.map((p) => p.ref)]),
        );
        pairs.forEach((p, i) => {
          expect([rows[7 * i + 3], rows[7 * i + 4], rows[7 * i + 5]], `pair ${p.pair} ${stem} ${type}`).toEqual(
            p.rouge_score[stem][type],
          );
        });
      }
    }
  });

  interface SummevalRecord {
    file: string;
    refs: number[];
    config: { options?: string; use_stemmer?: boolean; rouge_types?: string[] };
    counts_options?: string;
    segment_fields: string[];
    segments: unknown[][];
  }
  const summeval = fixture<{
    hyp: string[];
    refs: string[][];
    rouge155: SummevalRecord[];
    rouge_score: SummevalRecord[];
  }>('summeval.json');

  it('summeval: rouge155Unit under every ROUGE-1.5.5 option set of the goldens (SPL units, punct split)', () => {
    expect(summeval.rouge155).toHaveLength(7);
    let units = 0;
    for (const record of summeval.rouge155) {
      const options = unitOptions(record.config.options!);
      const counts = record.counts_options ? unitOptions(record.counts_options) : null;
      for (const segment of record.segments) {
        const line = (segment[0] as number) - 1;
        const peer = splitSentences(summeval.hyp[line], 'punct');
        const models = record.refs.map((k) => splitSentences(summeval.refs[k][line], 'punct'));
        const at = `${record.file} ${record.config.options} line ${line + 1}`;
        checkSegment(
          record,
          segment,
          rouge155Unit(peer, models, options),
          counts && rouge155Unit(peer, models, counts),
          at,
        );
        units++;
      }
    }
    expect(units).toBe(21);
  });

  it('summeval: the rouge-score flavor, one reference and score_multi over 11, stem and nostem', () => {
    let values = 0;
    for (const record of summeval.rouge_score) {
      for (const type of record.config.rouge_types!) {
        const metric = new Rouge({ type, flavor: 'rouge-score', stem: record.config.use_stemmer, split: 'punct' });
        const refs = metric.prepareReferences(record.refs.map((k) => summeval.refs[k]));
        const rows = metric.segmentStats(summeval.hyp, refs);
        const column = record.segment_fields.indexOf(type);
        for (const segment of record.segments) {
          const i = (segment[0] as number) - 1;
          expect([rows[7 * i + 3], rows[7 * i + 4], rows[7 * i + 5]], `${record.file} ${type} line ${i + 1}`).toEqual(
            segment[column],
          );
          values += 3;
        }
      }
    }
    expect(values).toBe(4 * 6 * 3 * 3);
  });

  const sl = fixture<{
    html: Record<string, string>;
    records: {
      peer: string;
      options: string;
      counts_options: string | null;
      segment_fields: string[];
      segments: unknown[][];
    }[];
    expected_d: Record<string, string[]>;
  }>('sl2003.json');
  const see = (name: string): string[] => seeSentences(sl.html[name]);
  const unitOf = (peer: string, doc: number): { peer: string[]; models: string[][] } => {
    const d = String(doc).padStart(2, '0');
    return {
      peer: see(`systems/SL.P.10.R.${peer}.SL062003-${d}.html`),
      models: ['A', 'B', 'C', 'D'].map((m) => see(`models/SL.P.10.R.${m}.SL062003-${d}.html`)),
    };
  };

  it('sl2003: per-unit values of 2 peers × 2 SEE documents under the 8 option sets of sl2003.json', () => {
    expect(sl.records).toHaveLength(16);
    for (const record of sl.records) {
      const options = unitOptions(record.options);
      const counts = record.counts_options ? unitOptions(record.counts_options) : null;
      for (const segment of record.segments) {
        const u = unitOf(record.peer, segment[0] as number);
        const at = `peer ${record.peer} ${record.options} eval ${segment[0]}`;
        checkSegment(
          record,
          segment,
          rouge155Unit(u.peer, u.models, options),
          counts && rouge155Unit(u.peer, u.models, counts),
          at,
        );
      }
    }
  });

  it('sl2003: the per-unit lines of the distribution runs `-2 -1 -U -n 4 -w 1.2 -a -d` (and -m), as printed', () => {
    for (const [file, lines] of Object.entries(sl.expected_d)) {
      const options = unitOptions(`-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a -d${file.includes('-m-') ? ' -m' : ''}`);
      const printed = new Set<string>();
      for (const peer of ['11', '21']) {
        for (const doc of [1, 2]) {
          const u = unitOf(peer, doc);
          for (const t of rouge155Unit(u.peer, u.models, options)) {
            printed.add(`${peer} ${t.type} Eval ${doc}.${peer} R:${t.printed[0]} P:${t.printed[1]} F:${t.printed[2]}`);
          }
        }
      }
      expect(lines).toHaveLength(32);
      for (const line of lines) expect(printed.has(line), `${file}: ${line}`).toBe(true);
    }
  });
});

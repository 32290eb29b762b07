/**
 * `rouge155Unit` (ROUGE-1.5.5's per-unit core) against every ROUGE-1.5.5 golden in ../shared (skipped when
 * ../shared is absent):
 * - golden/edge/pairs_rouge155.jsonl: 199 one-sentence pairs, ROUGE-1/2/L/W-1.2/S4/SU4 R/P/F and -t 2 counts,
 *   without and with -m (ROUGE-W died on 28 units whose model has no token: Palette gives 0 and a warning);
 * - golden/rouge155/summeval.multiref11.json, summeval.ref0.stem.json, summeval.variants.json: SummEval units
 *   (SPL, the `tokpunct` split of golden/README.md), 11 models or model 0, with -m, -s, -l 100, -b 665, -f B, -t 1,
 *   -2 -1 -U;
 * - golden/rouge155/sl2003.json: ROUGE's own SL2003 sample (SEE HTML, 4 models) under 8 option sets incl. -l 6 and
 *   -b 40 -m, and golden/../data/rouge155-sl2003/expected/*-d.out (per-unit lines of the 2005 distribution's runs).
 * Tolerances (golden/README.md): per-unit R/P/F exact at 5 decimals (they are 5-decimal numbers: compared for
 * equality), integer counts exact, ROUGE-W counts at the 15 significant digits Perl prints.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { rouge155Unit } from '../src/metrics/rouge155/unit.js';
import { splitSentences } from '../src/text/rouge/index.js';
import { checkSegment, perlPrinted, seeSentences, unitOptions } from './fixtures/rouge/golden-checks.js';
import { SHARED, dataLines, haveShared } from './helpers/shared-data.js';

const HAVE_SHARED = haveShared('golden/rouge155/sl2003.json');

/** A JSON Lines golden file without its header line. */
function goldenLines<T>(path: string): T[] {
  return readFileSync(new URL(`golden/${path}`, SHARED), 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .slice(1)
    .map((l) => JSON.parse(l) as T);
}

/** A golden record of golden/rouge155/*.json. */
interface Rouge155Record {
  readonly hyp: string;
  readonly refs: string[];
  readonly config: { readonly options: string; readonly peer_id?: string };
  readonly corpus: { readonly counts_options?: string };
  readonly segment_fields: string[];
  readonly segments: unknown[][];
}

describe.skipIf(!HAVE_SHARED)('rouge155Unit vs ROUGE-1.5.5 goldens (../shared)', () => {
  it('pairs_rouge155: 199 pairs, ROUGE-1/2/L/W-1.2/S4/SU4 R/P/F and counts, with and without -m', () => {
    type Rpf = { recall: number; precision: number; fmeasure: number } | { error: string };
    type Counts = { model_count: number; peer_count: number; hit_count: number } | { error: string };
    interface PairRecord {
      pair: number;
      hyp: string;
      ref: string;
    }
    interface Record155 {
      pair: number;
      nostem: Record<string, Rpf>;
      stem: Record<string, Rpf>;
      counts_nostem: Record<string, Counts>;
      counts_stem: Record<string, Counts>;
    }
    const pairs = new Map(goldenLines<PairRecord>('edge/pairs.jsonl').map((p) => [p.pair, p]));
    const records = goldenLines<Record155>('edge/pairs_rouge155.jsonl');
    expect(records).toHaveLength(199);
    let died = 0;
    for (const r of records) {
      const { hyp, ref } = pairs.get(r.pair)!;
      for (const stem of [false, true]) {
        const base = {
          maxN: 2,
          skipDistance: 4,
          stem,
          stopwords: false,
          formula: 'A',
          alpha: 0.5,
          countMode: 0,
        } as const;
        const warnings: string[] = [];
        const su = rouge155Unit([hyp], [[ref]], { ...base, su: true, wWeight: 1.2 }, warnings);
        const s = rouge155Unit([hyp], [[ref]], { ...base, su: false, noLcs: true, maxN: 0 });
        const got = new Map([...su, ...s].map((t) => [t.type, t]));
        const scores = stem ? r.stem : r.nostem;
        const counts = stem ? r.counts_stem : r.counts_nostem;
        for (const type of ['ROUGE-1', 'ROUGE-2', 'ROUGE-L', 'ROUGE-W-1.2', 'ROUGE-S4', 'ROUGE-SU4']) {
          const t = got.get(type)!;
          const at = `pair ${r.pair} ${stem ? 'stem' : 'nostem'} ${type}`;
          const rpf = scores[type];
          const c = counts[type];
          if ('error' in rpf || 'error' in c) {
            // ROUGE-1.5.5 died on a model without tokens: Palette scores 0 and warns.
            expect(type, at).toBe('ROUGE-W-1.2');
            expect([t.recall, t.precision, t.fmeasure, t.hitCount, t.modelCount], at).toEqual([0, 0, 0, 0, 0]);
            expect(
              warnings.some((w) => w.startsWith('ROUGE-W-1.2: model 1 has no tokens')),
              at,
            ).toBe(true);
            died++;
            continue;
          }
          expect([t.recall, t.precision, t.fmeasure], at).toEqual([rpf.recall, rpf.precision, rpf.fmeasure]);
          const values = [t.modelCount, t.peerCount, t.hitCount];
          expect(type === 'ROUGE-W-1.2' ? values.map(perlPrinted) : values, at).toEqual([
            c.model_count,
            c.peer_count,
            c.hit_count,
          ]);
        }
      }
    }
    expect(died).toBe(56); // 28 units × {nostem, stem}
  });

  /** Runs every record of a SummEval golden (SPL units, tokpunct split). */
  function summevalFile(path: string, filter: (r: Rouge155Record) => boolean = () => true): number {
    const file = JSON.parse(readFileSync(new URL(`golden/${path}`, SHARED), 'utf8')) as { records: Rouge155Record[] };
    const refLines = new Map<string, string[][]>();
    const sentencesOf = (p: string): string[][] => {
      let s = refLines.get(p);
      if (s === undefined) refLines.set(p, (s = dataLines(p).map((l) => splitSentences(l, 'punct'))));
      return s;
    };
    let units = 0;
    for (const record of file.records.filter(filter)) {
      const options = unitOptions(record.config.options);
      const countsOptions = record.corpus.counts_options ? unitOptions(record.corpus.counts_options) : null;
      const peer = sentencesOf(record.hyp);
      const models = record.refs.map(sentencesOf);
      for (const segment of record.segments) {
        const line = (segment[0] as number) - 1;
        const modelSentences = models.map((m) => m[line]);
        const got = rouge155Unit(peer[line], modelSentences, options);
        const counts = countsOptions ? rouge155Unit(peer[line], modelSentences, countsOptions) : null;
        checkSegment(record, segment, got, counts, `${record.hyp} ${record.config.options} line ${line + 1}`);
        units++;
      }
    }
    return units;
  }

  it('summeval.multiref11: 16 systems × 100 units × 11 models (-f A), every type, R/P/F and -t 2 counts', () => {
    expect(summevalFile('rouge155/summeval.multiref11.json')).toBe(1600);
  });

  it('summeval.ref0.stem: 16 systems × 100 units, model 0, -m', () => {
    expect(summevalFile('rouge155/summeval.ref0.stem.json')).toBe(1600);
  });

  it('summeval.variants: -m -s -l 100, -w 1.2 -m -b 665, -f B, -t 1, -2 -1 -U on 4 systems × 11 models', () => {
    expect(summevalFile('rouge155/summeval.variants.json')).toBe(2000);
  });

  it('sl2003: 8 peers × 25 SEE units × 4 models under 8 option sets', () => {
    const file = JSON.parse(readFileSync(new URL('golden/rouge155/sl2003.json', SHARED), 'utf8')) as {
      records: Rouge155Record[];
    };
    const read = (pattern: string, e: number): string[] =>
      seeSentences(
        readFileSync(new URL(`data/${pattern.replace('{01..25}', String(e).padStart(2, '0'))}`, SHARED), 'utf8'),
      );
    let units = 0;
    for (const record of file.records) {
      const options = unitOptions(record.config.options);
      const countsOptions = record.corpus.counts_options ? unitOptions(record.corpus.counts_options) : null;
      for (const segment of record.segments) {
        const e = segment[0] as number;
        const peer = read(record.hyp, e);
        const models = record.refs.map((r) => read(r, e));
        const got = rouge155Unit(peer, models, options);
        const counts = countsOptions ? rouge155Unit(peer, models, countsOptions) : null;
        checkSegment(record, segment, got, counts, `${record.hyp} ${record.config.options} eval ${e}`);
        units++;
      }
    }
    expect(units).toBe(1600);
  });

  it('sl2003 expected/*-d.out: the per-unit Eval lines of `-2 -1 -U -n 4 -w 1.2 -a -d` (and -m), as printed', () => {
    const dir = 'rouge155-sl2003';
    const see = (name: string): string[] =>
      seeSentences(readFileSync(new URL(`data/${dir}/SL2003/${name}`, SHARED), 'utf8'));
    for (const [file, stem] of [
      ['ROUGE-test-c95-2-1-U-r1000-n4-w1.2-a-d.out', false],
      ['ROUGE-test-c95-2-1-U-r1000-n4-w1.2-a-m-d.out', true],
    ] as const) {
      const options = unitOptions(`-c 95 -2 -1 -U -r 1000 -n 4 -w 1.2 -a -d${stem ? ' -m' : ''}`);
      const expected = dataLines(`${dir}/expected/${file}`).filter((l) => l.includes(' Eval '));
      expect(expected).toHaveLength(1600);
      const printed = new Set<string>();
      for (const peer of ['11', '12', '13', '14', '21', '22', '23', '24']) {
        for (let e = 1; e <= 25; e++) {
          const doc = `SL062003-${String(e).padStart(2, '0')}.html`;
          const models = ['A', 'B', 'C', 'D'].map((m) => see(`models/SL.P.10.R.${m}.${doc}`));
          for (const t of rouge155Unit(see(`systems/SL.P.10.R.${peer}.${doc}`), models, options)) {
            printed.add(`${peer} ${t.type} Eval ${e}.${peer} R:${t.printed[0]} P:${t.printed[1]} F:${t.printed[2]}`);
          }
        }
      }
      expect(printed.size).toBe(1600);
      for (const line of expected) expect(printed.has(line), `${file}: ${line}`).toBe(true);
    }
  });
});

/**
 * sacreBLEU TER against golden subsets stored in the repository (run from a clone alone; see
 * test/fixtures/ter/SOURCE.md):
 * - pairs_ter.jsonl.gz: sacreBLEU 2.6.0 `TER(**kw).sentence_score(hyp, [ref])` on the 1000 adversarial edge pairs
 *   (empty sides, one-token sides, identical, case-only, no overlap, perturbations with block shifts, 500-token
 *   lines, NFC/NFD, tokenization variants, multi-line), for TER(), TER(normalized), TER(case_sensitive) and
 *   TER(normalized, asian_support): score, num_edits, ref_length;
 * - wmt-subset.json.gz: the per-segment values of golden/sacrebleu/ter.json (WMT17 en-de under every option
 *   variant, WMT21 en-de with 3 references) for the first 300 / 150 lines, with the texts of those lines;
 * - sacreBLEU's own test_ter.py cases (corpus TER, tolerance 1e-3 as sacreBLEU's test).
 * Tolerance: exact (edits and lengths are integers or the same double divisions; scores are the same double
 * operations as sacreBLEU's).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { corpusScore, sumRows } from '../src/metrics/metric.js';
import { Ter, type TerOptions } from '../src/metrics/ter/ter.js';

const FIXTURES = new URL('./fixtures/ter/', import.meta.url);

function gunzipText(name: string): string {
  return gunzipSync(readFileSync(new URL(name, FIXTURES))).toString('utf8');
}

interface TerGold {
  score: number;
  num_edits: number;
  ref_length: number;
}

interface PairRecord {
  pair: number;
  kind: string;
  hyp: string;
  ref: string;
  ter: TerGold;
  ter_normalized: TerGold;
  ter_case_sensitive: TerGold;
  ter_asian: TerGold;
}

const PAIR_VARIANTS: Record<string, TerOptions> = {
  ter: {},
  ter_normalized: { normalized: true },
  ter_case_sensitive: { caseSensitive: true },
  ter_asian: { normalized: true, asianSupport: true },
};

describe('edge pairs (pairs_ter.jsonl.gz)', () => {
  const pairs = gunzipText('pairs_ter.jsonl.gz')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as PairRecord);
  it('has the 1000 pairs', () => {
    expect(pairs.length).toBe(1000);
  });
  it.each(Object.keys(PAIR_VARIANTS))('%s: every pair exact', (variant) => {
    const metric = new Ter(PAIR_VARIANTS[variant]);
    const wrong: string[] = [];
    for (const p of pairs) {
      const gold = p[variant as keyof PairRecord] as TerGold;
      const row = metric.segmentStats([p.hyp], metric.prepareReferences([[p.ref]]));
      const score = metric.sentenceScoreFromStats(row).score;
      if (row[0] !== gold.num_edits || row[1] !== gold.ref_length || score !== gold.score) {
        wrong.push(`pair ${p.pair} (${p.kind}): [${row[0]}, ${row[1]}] ${score} vs ${JSON.stringify(gold)}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});

interface SubsetRecord {
  hyp: string;
  refs: string[];
  config: { normalized: boolean; no_punct: boolean; asian_support: boolean; case_sensitive: boolean };
  signature: string;
  segment_fields: string[];
  segments: [number, number, number, number][];
}

describe('WMT17 / WMT21 per-segment subset (wmt-subset.json.gz)', () => {
  const subset = JSON.parse(gunzipText('wmt-subset.json.gz')) as {
    records: SubsetRecord[];
    files: Record<string, string[]>;
  };
  it.each(subset.records.map((r, k) => [k, r] as const))('record %i', (_k, r) => {
    expect(r.segment_fields).toEqual(['line', 'score', 'num_edits', 'ref_length']);
    const metric = new Ter({
      normalized: r.config.normalized,
      noPunct: r.config.no_punct,
      asianSupport: r.config.asian_support,
      caseSensitive: r.config.case_sensitive,
    });
    const hyps = subset.files[r.hyp];
    const refs = metric.prepareReferences(r.refs.map((p) => subset.files[p]));
    const rows = metric.segmentStats(hyps, refs);
    expect(r.segments.length).toBeGreaterThan(0);
    for (const [line, score, edits, refLength] of r.segments) {
      const row = rows.subarray(2 * (line - 1), 2 * line);
      expect([line, metric.sentenceScoreFromStats(row).score, row[0], row[1]]).toEqual([line, score, edits, refLength]);
    }
    expect(metric.signature(refs.nRefs)).toBe(r.signature.replace('version:2.6.0', 'version:0.1.0'));
  });
});

describe("sacreBLEU's test_ter.py cases", () => {
  const cases = JSON.parse(readFileSync(new URL('unit_test_cases_ter.json', FIXTURES), 'utf8'))['test/test_ter.py'] as {
    EPSILON: number;
    test_cases: [string[], string[], number][];
  };
  it.each(cases.test_cases.map((c, k) => [k, ...c] as const))('case %i', (_k, hyps, refs, expected) => {
    const score = corpusScore(new Ter(), hyps, [refs]).score;
    expect(Math.abs(score - 100 * expected)).toBeLessThan(cases.EPSILON);
  });
  it('corpus score is the sum of the rows', () => {
    const metric = new Ter();
    const [hyps, refs] = cases.test_cases[6];
    const rows = metric.segmentStats(hyps, metric.prepareReferences([refs]));
    expect(metric.scoreFromStats(sumRows(rows, 2)).score).toBe(corpusScore(metric, hyps, [refs]).score);
  });
});

/**
 * sacreBLEU TER against the full sacreBLEU 2.6.0 goldens in ../shared (skipped when ../shared is absent):
 * - golden/sacrebleu/ter.json: every record (6 option variants × 4 WMT17 en-de systems, per-segment values for
 *   the per-segment records, WMT21 en-de with 3 references);
 * - the TER records of compare-mt.json (TED sk-en, TED en-ja incl. asian_support and asian_support+normalized),
 *   nltk-wmt15-eval.json and corpus-all-systems.wmt{17,21}-en-de.json (every system; WMT21 against A+C+D and
 *   each reference alone);
 * - data/sacrebleu-tests/test_sh_expected_scores.tsv TER rows (tercom 7.25 values, value/100 at tolerance 0.01 as
 *   sacreBLEU's test.sh compares them);
 * - that the clone-only fixtures (test/fixtures/ter/) still equal their shared sources.
 * Tolerance (golden/README.md): relative 1e-9 (absolute 1e-12 near 0) for scores and average reference lengths;
 * exact for edit counts and signature strings (with Palette's version replaced by sacreBLEU's).
 *
 * Runtime: reference preparation and rows are shared between records with the same inputs and options; all 140
 * records take seconds with the WebAssembly kernel (the TypeScript search is checked against the same numbers in
 * test/ter-kernel.test.ts and test/ter-fixtures.test.ts).
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { sumRows } from '../src/metrics/metric.js';
import { Ter, type TerOptions, type TerReferences } from '../src/metrics/ter/ter.js';
import { SHARED, dataLines, haveShared, testShRows } from './helpers/shared-data.js';

const FIXTURES = new URL('./fixtures/ter/', import.meta.url);
const HAVE_SHARED = haveShared('golden/sacrebleu/ter.json');

interface SacreTerConfig {
  metric?: string;
  normalized: boolean;
  no_punct: boolean;
  asian_support: boolean;
  case_sensitive: boolean;
}

interface GoldenRecord {
  hyp: string;
  refs: string[];
  config: SacreTerConfig;
  corpus: { score: number; num_edits: number; ref_length: number; signature: string; signature_short?: string };
  segment_fields?: string[];
  segments?: [number, number, number, number][];
}

function goldenRecords(file: string): GoldenRecord[] {
  const doc = JSON.parse(readFileSync(new URL(`golden/sacrebleu/${file}`, SHARED), 'utf8')) as {
    records: GoldenRecord[];
  };
  return doc.records.filter((r) => r.config.metric === 'TER');
}

function options(c: SacreTerConfig): TerOptions {
  return { normalized: c.normalized, noPunct: c.no_punct, asianSupport: c.asian_support, caseSensitive: c.case_sensitive };
}

function close(got: number, want: number): boolean {
  return Math.abs(got - want) <= Math.max(1e-9 * Math.abs(want), 1e-12);
}

function asSacre(signature: string): string {
  return signature.replace(/(version|v):[^|]*$/, '$1:2.6.0');
}

const refCache = new Map<string, TerReferences>();
const rowCache = new Map<string, Float64Array>();
/** Rows per (hyp, refs, options): a pure function of its inputs, shared between records. */
function statsRows(opts: TerOptions, hyp: string, refs: string[]): Float64Array {
  const key = JSON.stringify([hyp, refs, opts]);
  let rows = rowCache.get(key);
  if (!rows) {
    const metric = new Ter(opts);
    const refKey = JSON.stringify([refs, opts]);
    let prepared = refCache.get(refKey);
    if (!prepared) {
      prepared = metric.prepareReferences(refs.map(dataLines));
      refCache.set(refKey, prepared);
    }
    rows = metric.segmentStats(dataLines(hyp), prepared);
    rowCache.set(key, rows);
  }
  return rows;
}

/** Checks one golden record completely; returns the list of mismatches (empty when all match). */
function checkRecord(r: GoldenRecord): string[] {
  const opts = options(r.config);
  const metric = new Ter(opts);
  const rows = statsRows(opts, r.hyp, r.refs);
  const totals = sumRows(rows, metric.statsWidth);
  const bad: string[] = [];
  const score = metric.scoreFromStats(totals);
  if (!close(score.score, r.corpus.score)) bad.push(`corpus score ${score.score} want ${r.corpus.score}`);
  if (totals[0] !== r.corpus.num_edits) bad.push(`num_edits ${totals[0]} want ${r.corpus.num_edits}`);
  if (!close(totals[1], r.corpus.ref_length)) bad.push(`ref_length ${totals[1]} want ${r.corpus.ref_length}`);
  if (score.name !== 'TER' || score.verboseScore !== '') bad.push(`name/verbose ${score.name} ${score.verboseScore}`);
  if (asSacre(metric.signature(r.refs.length)) !== r.corpus.signature) {
    bad.push(`signature ${metric.signature(r.refs.length)}`);
  }
  if (r.corpus.signature_short && asSacre(metric.signature(r.refs.length, true)) !== r.corpus.signature_short) {
    bad.push(`short signature ${metric.signature(r.refs.length, true)}`);
  }
  if (r.segments) {
    if (JSON.stringify(r.segment_fields) !== JSON.stringify(['line', 'score', 'num_edits', 'ref_length'])) {
      bad.push(`segment fields ${JSON.stringify(r.segment_fields)}`);
    }
    for (const [line, want, edits, refLength] of r.segments) {
      const row = rows.subarray((line - 1) * 2, line * 2);
      const got = metric.sentenceScoreFromStats(row).score;
      if (!close(got, want) || row[0] !== edits || !close(row[1], refLength)) {
        bad.push(`line ${line}: [${got}, ${row[0]}, ${row[1]}] want [${want}, ${edits}, ${refLength}]`);
      }
    }
  }
  return bad;
}

function title(r: GoldenRecord): string {
  const c = r.config;
  const refs = r.refs.map((p) => p.split('/').pop()).join('+');
  const flags = ['normalized', 'no_punct', 'asian_support', 'case_sensitive'].filter(
    (k) => c[k as keyof SacreTerConfig] === true,
  );
  const lines = r.segments ? ` (${r.segments.length} lines)` : '';
  return `${r.hyp.split('/').pop()} vs ${refs} [${flags.join(',') || 'default'}]${lines}`;
}

describe.skipIf(!HAVE_SHARED)('sacreBLEU TER vs sacreBLEU 2.6.0 goldens in ../shared', () => {
  const files = HAVE_SHARED
    ? [
        'ter.json',
        'compare-mt.json',
        'nltk-wmt15-eval.json',
        'corpus-all-systems.wmt17-en-de.json',
        'corpus-all-systems.wmt21-en-de.json',
      ]
    : [];
  const expectedCounts: Record<string, number> = {
    'ter.json': 33,
    'compare-mt.json': 9,
    'nltk-wmt15-eval.json': 2,
    'corpus-all-systems.wmt17-en-de.json': 16,
    'corpus-all-systems.wmt21-en-de.json': 80,
  };
  for (const file of files) {
    const records = goldenRecords(file);
    describe(`golden/sacrebleu/${file} (${records.length} TER records)`, () => {
      it('has every TER record', () => expect(records.length).toBe(expectedCounts[file]));
      it.each(records.map((r) => ({ name: title(r), r })))('$name', ({ r }) => {
        expect(checkRecord(r).slice(0, 5)).toEqual([]);
      });
    });
  }

  describe('data/sacrebleu-tests/test_sh_expected_scores.tsv TER rows with text here (tercom 7.25, tolerance 0.01)', () => {
    const rows = testShRows(HAVE_SHARED, ['TER']);
    it('has the 16 en-de rows', () => expect(rows.length).toBe(16));
    it.each(rows.map((f) => ({ system: f[4], expected: Number(f[5]), tolerance: Number(f[6]), file: f[10] })))(
      '$system = $expected',
      ({ expected, tolerance, file }) => {
        const metric = new Ter();
        const rows = statsRows({}, `sacrebleu-tests/${file}`, ['sacrebleu-tests/wmt17-en-de/ref.de']);
        const score = metric.scoreFromStats(sumRows(rows, 2)).score;
        expect(Math.abs(score / 100 - expected)).toBeLessThan(tolerance);
      },
    );
  });

  describe('clone-only fixtures equal their shared sources', () => {
    it('pairs_ter.jsonl.gz = pairs.jsonl + pairs_sacrebleu.jsonl TER fields', () => {
      const read = (file: string) =>
        readFileSync(new URL(`golden/edge/${file}`, SHARED), 'utf8')
          .split('\n')
          .filter((l) => l !== '')
          .slice(1)
          .map((l) => JSON.parse(l) as Record<string, unknown>);
      const pairs = read('pairs.jsonl');
      const golds = read('pairs_sacrebleu.jsonl');
      const fixture = gunzipSync(readFileSync(new URL('pairs_ter.jsonl.gz', FIXTURES)))
        .toString('utf8')
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(fixture.length).toBe(pairs.length);
      fixture.forEach((f, k) => {
        expect([f.pair, f.kind, f.hyp, f.ref]).toEqual([pairs[k].pair, pairs[k].kind, pairs[k].hyp, pairs[k].ref]);
        for (const v of ['ter', 'ter_normalized', 'ter_case_sensitive', 'ter_asian']) expect(f[v]).toEqual(golds[k][v]);
      });
    });
    it('wmt-subset.json.gz = the first lines of ter.json segments and of the data files', () => {
      const subset = JSON.parse(gunzipSync(readFileSync(new URL('wmt-subset.json.gz', FIXTURES))).toString('utf8')) as {
        records: { hyp: string; refs: string[]; segments: number[][] }[];
        files: Record<string, string[]>;
      };
      const full = goldenRecords('ter.json').filter((r) => r.segments);
      expect(subset.records.length).toBe(full.length);
      subset.records.forEach((s, k) => {
        expect([s.hyp, s.refs]).toEqual([full[k].hyp, full[k].refs]);
        expect(s.segments).toEqual(full[k].segments!.slice(0, s.segments.length));
      });
      for (const [path, lines] of Object.entries(subset.files)) expect(lines).toEqual(dataLines(path).slice(0, lines.length));
    });
    it('unit_test_cases_ter.json = the TER entries of unit_test_cases.json', () => {
      const shared = JSON.parse(readFileSync(new URL('data/sacrebleu-tests/unit_test_cases.json', SHARED), 'utf8'));
      const fixture = JSON.parse(readFileSync(new URL('unit_test_cases_ter.json', FIXTURES), 'utf8'));
      for (const key of ['test/test_ter.py', 'test/test_tokenizer_ter.py']) expect(fixture[key]).toEqual(shared[key]);
    });
  });
});

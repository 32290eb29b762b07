/**
 * chrF / chrF++ against the full sacreBLEU 2.6.0 goldens in ../shared (skipped when ../shared is absent):
 * - golden/sacrebleu/chrf-sentence.json: corpus score, statistics sum, every line's sentence score, the statistics
 *   vectors where given, name and signatures;
 * - the chrF records of compare-mt.json, nltk-wmt15-eval.json and corpus-all-systems.wmt{17,21}-en-de.json;
 * - data/sacrebleu-tests/test_sh_expected_scores.tsv CHRF/CHRFPP en-de rows (chrF++.py values, 4 decimals).
 * Tolerance: relative 1e-9 (absolute 1e-12 near 0) for scores; exact for counts and signature strings (with
 * Palette's version replaced by sacreBLEU's).
 *
 * Runtime: corpus-all-systems holds 224 chrF records over 36 systems. By default the records of a fixed subset
 * of systems run (all their configurations); PALETTE_GOLDEN_FULL=1 runs every record.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Chrf, type ChrfOptions } from '../src/metrics/chrf/chrf.js';
import { sumRows } from '../src/metrics/metric.js';
import { SHARED, dataLines, haveShared, testShRows } from './helpers/shared-data.js';

const HAVE_SHARED = haveShared('golden/sacrebleu/chrf-sentence.json');
const FULL = process.env.PALETTE_GOLDEN_FULL === '1';

/** Systems checked by default in corpus-all-systems (the others run with PALETTE_GOLDEN_FULL=1). */
const DEFAULT_SYSTEMS = new Set([
  'sacrebleu-tests/wmt17-en-de/systems/C-3MA.4959.de',
  'sacrebleu-tests/wmt17-en-de/systems/FBK.4870.de',
  'wmt21-news-en-de/en-de/systems/Facebook-AI.de',
  'wmt21-news-en-de/en-de/systems/VolcTrans-GLAT.de',
]);

interface SacreConfig {
  metric?: string;
  char_order: number;
  word_order: number;
  beta: number;
  lowercase: boolean;
  whitespace: boolean;
  eps_smoothing: boolean;
}

interface GoldenRecord {
  hyp: string;
  refs: string[];
  config: SacreConfig;
  corpus: { score: number; name: string; signature: string; signature_short?: string; stats_sum?: number[] };
  segment_fields?: string[];
  segments?: [number, number, number[]?][];
}

function goldenRecords(file: string): GoldenRecord[] {
  const doc = JSON.parse(readFileSync(new URL(`golden/sacrebleu/${file}`, SHARED), 'utf8')) as {
    records: GoldenRecord[];
  };
  return doc.records.filter((r) => r.config.metric === 'chrF');
}

function options(c: SacreConfig): ChrfOptions {
  return {
    charOrder: c.char_order,
    wordOrder: c.word_order,
    beta: c.beta,
    lowercase: c.lowercase,
    whitespace: c.whitespace,
    epsSmoothing: c.eps_smoothing,
  };
}

function close(got: number, want: number): boolean {
  return Math.abs(got - want) <= Math.max(1e-9 * Math.abs(want), 1e-12);
}

function asSacre(signature: string): string {
  return signature.replace(/(version|v):[^|]*$/, '$1:2.6.0');
}

/** Rows per (hyp, refs, options): several golden records share them (a pure function of its inputs). */
const rowCache = new Map<string, Float64Array>();
function statsRows(metric: Chrf, opts: ChrfOptions, hyp: string, refs: string[]): Float64Array {
  const key = JSON.stringify([hyp, refs, opts]);
  let rows = rowCache.get(key);
  if (!rows) {
    rows = metric.segmentStats(dataLines(hyp), metric.prepareReferences(refs.map(dataLines)));
    rowCache.set(key, rows);
  }
  return rows;
}

/** Checks one golden record completely; returns the list of mismatches (empty when all match). */
function checkRecord(r: GoldenRecord): string[] {
  const opts = options(r.config);
  const metric = new Chrf(opts);
  const rows = statsRows(metric, opts, r.hyp, r.refs);
  const w = metric.statsWidth;
  const totals = sumRows(rows, w);
  const bad: string[] = [];
  const score = metric.scoreFromStats(totals);
  if (!close(score.score, r.corpus.score)) bad.push(`corpus score ${score.score} want ${r.corpus.score}`);
  if (score.name !== r.corpus.name) bad.push(`name ${score.name} want ${r.corpus.name}`);
  if (asSacre(metric.signature(r.refs.length)) !== r.corpus.signature)
    bad.push(`signature ${metric.signature(r.refs.length)}`);
  if (r.corpus.signature_short && asSacre(metric.signature(r.refs.length, true)) !== r.corpus.signature_short) {
    bad.push(`short signature ${metric.signature(r.refs.length, true)}`);
  }
  if (r.corpus.stats_sum && JSON.stringify(Array.from(totals)) !== JSON.stringify(r.corpus.stats_sum)) {
    bad.push(`stats_sum ${JSON.stringify(Array.from(totals))} want ${JSON.stringify(r.corpus.stats_sum)}`);
  }
  for (const [line, want, stats] of r.segments ?? []) {
    const row = rows.subarray((line - 1) * w, line * w);
    const got = metric.sentenceScoreFromStats(row).score;
    if (!close(got, want)) bad.push(`line ${line}: ${got} want ${want}`);
    if (stats && JSON.stringify(Array.from(row)) !== JSON.stringify(stats)) bad.push(`line ${line}: stats differ`);
  }
  return bad;
}

function title(r: GoldenRecord): string {
  const c = r.config;
  const refs = r.refs.map((p) => p.split('/').pop()).join('+');
  const lines = r.segments ? ` (${r.segments.length} lines)` : '';
  return `${r.hyp.split('/').pop()} vs ${refs} nw=${c.word_order} eps=${c.eps_smoothing}${lines}`;
}

describe.skipIf(!HAVE_SHARED)('chrF vs sacreBLEU 2.6.0 goldens in ../shared', () => {
  const files = HAVE_SHARED
    ? [
        'chrf-sentence.json',
        'compare-mt.json',
        'nltk-wmt15-eval.json',
        'corpus-all-systems.wmt17-en-de.json',
        'corpus-all-systems.wmt21-en-de.json',
      ]
    : [];
  for (const file of files) {
    const all = goldenRecords(file);
    const subset = file.startsWith('corpus-all-systems') && !FULL;
    const records = subset ? all.filter((r) => DEFAULT_SYSTEMS.has(r.hyp)) : all;
    describe(`golden/sacrebleu/${file} (${records.length} of ${all.length} chrF records)`, () => {
      it('has records to check', () => expect(records.length).toBeGreaterThan(0));
      it.each(records.map((r) => ({ name: title(r), r })))('$name', ({ r }) => {
        expect(checkRecord(r).slice(0, 5)).toEqual([]);
      });
    });
  }

  describe('data/sacrebleu-tests/test_sh_expected_scores.tsv CHRF/CHRFPP rows with text here (4 decimals)', () => {
    const rows = testShRows(HAVE_SHARED, ['CHRF', 'CHRFPP']);
    it('has the 4 en-de rows', () => expect(rows.length).toBe(4));
    it.each(rows.map((f) => ({ table: f[0], system: f[4], expected: f[5], file: f[10] })))(
      '$table $system = $expected',
      ({ table, expected, file }) => {
        const opts: ChrfOptions = { wordOrder: table === 'CHRFPP' ? 2 : 0, epsSmoothing: true };
        const metric = new Chrf(opts);
        const rows = statsRows(metric, opts, `sacrebleu-tests/${file}`, ['sacrebleu-tests/wmt17-en-de/ref.de']);
        const score = metric.scoreFromStats(sumRows(rows, metric.statsWidth)).score;
        expect(score.toFixed(4)).toBe(Number(expected).toFixed(4));
      },
    );
  });
});

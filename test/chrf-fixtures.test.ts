/**
 * chrF / chrF++ against sacreBLEU 2.6.0 on the extracts in test/fixtures/chrf (see its SOURCE.md): the 1000 edge
 * pairs, sacreBLEU's own unit-test lists, per-line scores and statistics vectors of WMT17/WMT21 subsets, and the
 * whole nltk-wmt15-eval corpus. Tolerance: relative 1e-9 (absolute 1e-12 near 0) for scores, exact for counts
 * and strings; sacreBLEU's unit-test lists are rounded by their authors, so those use its own 1e-4.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { Chrf, type ChrfOptions } from '../src/metrics/chrf/chrf.js';
import { corpusScore, sentenceScore, sumRows } from '../src/metrics/metric.js';

const FIXTURES = new URL('./fixtures/chrf/', import.meta.url);

function readJsonlGz<T>(name: string): T[] {
  return gunzipSync(readFileSync(new URL(name, FIXTURES)))
    .toString('utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as T);
}

/** Relative 1e-9, absolute 1e-12 near 0 (golden/README.md). */
function close(got: number, want: number): boolean {
  return Math.abs(got - want) <= Math.max(1e-9 * Math.abs(want), 1e-12);
}

/** sacreBLEU's CHRF(...) keyword arguments as they appear in the goldens. */
interface SacreConfig {
  char_order: number;
  word_order: number;
  beta: number;
  lowercase: boolean;
  whitespace: boolean;
  eps_smoothing: boolean;
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

/** Our signature with sacreBLEU's version in place of Palette's, for string comparison with the goldens. */
function asSacre(signature: string): string {
  return signature.replace(/(version|v):[^|]*$/, '$1:2.6.0');
}

describe('chrF on the 1000 edge pairs (golden/edge/pairs_sacrebleu.jsonl)', () => {
  interface EdgePair {
    pair: number;
    kind: string;
    hyp: string;
    ref: string;
    [field: string]: unknown;
  }
  const pairs = readJsonlGz<EdgePair>('edge-pairs-chrf.jsonl.gz');
  const variants: [string, ChrfOptions][] = [
    ['chrf', {}],
    ['chrf++', { wordOrder: 2 }],
    ['chrf_eps', { epsSmoothing: true }],
    ['chrf_lc_ws', { lowercase: true, whitespace: true }],
  ];

  it('has all pairs', () => expect(pairs.length).toBe(1000));

  it.each(variants)('%s: sentence_score of every pair', (field, opts) => {
    const metric = new Chrf(opts);
    const bad: string[] = [];
    for (const p of pairs) {
      const got = sentenceScore(metric, p.hyp, [p.ref]).score;
      const want = p[field] as number;
      if (!close(got, want)) bad.push(`pair ${p.pair} (${p.kind}): ${got} want ${want}`);
    }
    expect(bad.slice(0, 5)).toEqual([]);
  });

  it('scores all pairs at once the same as one by one (batch N = batch 1)', () => {
    const metric = new Chrf({ wordOrder: 2 });
    const refs = metric.prepareReferences([pairs.map((p) => p.ref)]);
    const rows = metric.segmentStats(
      pairs.map((p) => p.hyp),
      refs,
    );
    pairs.forEach((p, i) => {
      const one = metric.segmentStats([p.hyp], metric.prepareReferences([[p.ref]]));
      expect(Array.from(rows.subarray(i * metric.statsWidth, (i + 1) * metric.statsWidth))).toEqual(Array.from(one));
    });
  });
});

describe("sacreBLEU's test/test_chrf.py lists (tolerance 1e-4, as sacreBLEU)", () => {
  type Case = [string[], string[], number];
  const cases = JSON.parse(readFileSync(new URL('sacrebleu-test-chrf-cases.json', FIXTURES), 'utf8')) as Record<
    string,
    unknown
  >;
  const corpusLists: [string, ChrfOptions][] = [
    ['test_cases', { beta: 3, epsSmoothing: true }],
    ['test_cases_effective_order', { beta: 3 }],
    ['test_cases_keep_whitespace', { beta: 3, whitespace: true }],
  ];
  it.each(corpusLists)('%s (corpus_score)', (list, opts) => {
    const metric = new Chrf(opts);
    for (const [hyps, refs, want] of cases[list] as Case[]) {
      expect(corpusScore(metric, hyps, [refs]).score).toBeCloseTo(want, 4);
    }
  });
  it('test_sentence_level_chrf (sentence_score, eps smoothing)', () => {
    const metric = new Chrf({ epsSmoothing: true });
    for (const [hyp, refs, want] of cases.test_sentence_level_chrf as [string, string[], number][]) {
      expect(sentenceScore(metric, hyp, refs).score).toBeCloseTo(want, 4);
    }
  });
});

describe('per-line chrF of WMT17/WMT21 subsets (golden/sacrebleu/chrf-sentence.json)', () => {
  interface Subset {
    hyp: string;
    refs: string[];
    lines: number;
    hyp_lines: string[];
    ref_lines: string[][];
    configs: {
      config: SacreConfig;
      name: string;
      signature: string;
      signature_short: string;
      segment_fields: string[];
      segments: [number, number, number[]?][];
    }[];
  }
  const subsets = readJsonlGz<Subset>('chrf-sentence-subsets.jsonl.gz');
  const cases = subsets.flatMap((s) =>
    s.configs.map((c) => ({
      title: `${s.hyp.split('/').pop()} (${s.refs.length} ref) nw=${c.config.word_order} eps=${c.config.eps_smoothing}`,
      s,
      c,
    })),
  );

  it.each(cases)('$title: name, signatures, every line score and statistics vector', ({ s, c }) => {
    const metric = new Chrf(options(c.config));
    expect(metric.scoreName).toBe(c.name);
    expect(asSacre(metric.signature(s.refs.length))).toBe(c.signature);
    expect(asSacre(metric.signature(s.refs.length, true))).toBe(c.signature_short);
    const rows = metric.segmentStats(s.hyp_lines, metric.prepareReferences(s.ref_lines));
    const w = metric.statsWidth;
    const bad: string[] = [];
    for (const [line, want, stats] of c.segments) {
      const row = rows.subarray((line - 1) * w, line * w);
      const got = metric.sentenceScoreFromStats(row).score;
      if (!close(got, want)) bad.push(`line ${line}: ${got} want ${want}`);
      if (stats && JSON.stringify(Array.from(row)) !== JSON.stringify(stats)) {
        bad.push(`line ${line}: stats ${JSON.stringify(Array.from(row))} want ${JSON.stringify(stats)}`);
      }
    }
    expect(c.segments.length).toBe(s.lines);
    expect(bad.slice(0, 5)).toEqual([]);
  });
});

describe('chrF on the whole nltk-wmt15-eval corpus (golden/sacrebleu/nltk-wmt15-eval.json)', () => {
  interface Rec {
    config: SacreConfig;
    corpus: { score: number; name: string; signature: string; signature_short: string; stats_sum: number[] };
    segments: [number, number][] | null;
    hyp_lines: string[];
    ref_lines: string[][];
  }
  const records = readJsonlGz<Rec>('nltk-wmt15-eval-chrf.jsonl.gz');
  it.each(records.map((r, i) => ({ i, r, nw: r.config.word_order })))('record $i (nw=$nw)', ({ r }) => {
    const metric = new Chrf(options(r.config));
    const rows = metric.segmentStats(r.hyp_lines, metric.prepareReferences(r.ref_lines));
    const totals = sumRows(rows, metric.statsWidth);
    expect(Array.from(totals)).toEqual(r.corpus.stats_sum);
    const score = metric.scoreFromStats(totals);
    expect(score.name).toBe(r.corpus.name);
    expect(close(score.score, r.corpus.score)).toBe(true);
    expect(asSacre(metric.signature(1))).toBe(r.corpus.signature);
    expect(asSacre(metric.signature(1, true))).toBe(r.corpus.signature_short);
    for (const [line, want] of r.segments ?? []) {
      const got = metric.sentenceScoreFromStats(
        rows.subarray((line - 1) * metric.statsWidth, line * metric.statsWidth),
      );
      expect(close(got.score, want), `line ${line}: ${got.score} want ${want}`).toBe(true);
    }
  });
});
